package pdfio

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// appendObject writes o in PDF syntax: dictionaries with their keys sorted
// (so that output is deterministic), names with #xx escapes, literal strings
// as their raw text (pdfcpu keeps them escaped, exactly as read), hex
// strings in upper case, reals without exponents. Streams are written with
// their encoded bytes and a /Length to match.
func appendObject(b *bytes.Buffer, o types.Object) error {
	switch v := o.(type) {
	case nil:
		b.WriteString("null")
	case types.Boolean:
		b.WriteString(strconv.FormatBool(bool(v)))
	case types.Integer:
		b.WriteString(strconv.Itoa(int(v)))
	case types.Float:
		b.WriteString(strconv.FormatFloat(float64(v), 'f', -1, 64))
	case types.Name:
		appendName(b, string(v))
	case types.StringLiteral:
		b.WriteByte('(')
		b.WriteString(string(v))
		b.WriteByte(')')
	case types.HexLiteral:
		b.WriteByte('<')
		b.Write(bytes.ToUpper([]byte(v)))
		b.WriteByte('>')
	case types.IndirectRef:
		appendRef(b, v.ObjectNumber.Value(), v.GenerationNumber.Value(), " R")
	case types.Array:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(' ')
			}
			if err := appendObject(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case types.Dict:
		return appendDict(b, v)
	case types.StreamDict:
		d := types.Dict{}
		for k, e := range v.Dict {
			d[k] = e
		}
		d["Length"] = types.Integer(len(v.Raw))
		if err := appendDict(b, d); err != nil {
			return err
		}
		b.WriteString("\nstream\n")
		b.Write(v.Raw)
		b.WriteString("\nendstream")
	default:
		return fmt.Errorf("pdfio: cannot write a %T", o)
	}
	return nil
}

func appendDict(b *bytes.Buffer, d types.Dict) error {
	var small [16]string // (most dictionaries: no allocation for the keys)
	keys := small[:0]
	for k := range d {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b.WriteString("<<")
	for _, k := range keys {
		appendName(b, k)
		b.WriteByte(' ')
		if err := appendObject(b, d[k]); err != nil {
			return err
		}
	}
	b.WriteString(">>")
	return nil
}

// appendRef writes "num gen" and then suffix (" R", " obj\n").
func appendRef(b *bytes.Buffer, num, gen int, suffix string) {
	t := strconv.AppendInt(b.AvailableBuffer(), int64(num), 10)
	t = append(t, ' ')
	t = strconv.AppendInt(t, int64(gen), 10)
	b.Write(append(t, suffix...))
}

// appendName writes a name in PDF syntax (webcapture.AppendName).
func appendName(b *bytes.Buffer, s string) {
	b.Write(webcapture.AppendName(b.AvailableBuffer(), s))
}

// LiteralString returns a literal string object holding exactly the bytes
// of s: '(' ')' '\' and CR escaped, everything else as it is.
func literalString(s string) types.StringLiteral {
	if strings.IndexAny(s, "()\\\r") < 0 {
		return types.StringLiteral(s) // nothing to escape: the bytes as they are
	}
	var b bytes.Buffer
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', ')', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\r':
			b.WriteString(`\r`)
		default:
			b.WriteByte(c)
		}
	}
	return types.StringLiteral(b.String())
}

// HexString returns a hex string object holding exactly the bytes of s.
func hexString(s string) types.HexLiteral {
	const digits = "0123456789ABCDEF"
	b := make([]byte, 2*len(s))
	for i := 0; i < len(s); i++ {
		b[2*i], b[2*i+1] = digits[s[i]>>4], digits[s[i]&15]
	}
	return types.HexLiteral(b)
}
