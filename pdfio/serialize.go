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
		return appendStream(b, v, edit{})
	default:
		return fmt.Errorf("pdfio: cannot write a %T", o)
	}
	return nil
}

// An edit is one entry of a dictionary changed as it is written: key
// set to val, or removed when val is nil. The zero edit changes nothing.
// (A page's new /ID is written without a copy of the page's dictionary
// made first: a build sets 100,000 of them.)
type edit struct {
	key string
	val types.Object
}

// appendEdited writes o, a dictionary or a stream, with e made: the bytes
// appendObject writes for a copy of o with e made.
func appendEdited(b *bytes.Buffer, o types.Object, e edit) error {
	switch v := o.(type) {
	case types.Dict:
		return appendDict(b, v, e)
	case types.StreamDict:
		return appendStream(b, v, e)
	}
	return fmt.Errorf("pdfio: cannot edit a %T", o)
}

// appendStream writes a stream with its encoded bytes and a /Length to
// match, e made to its dictionary.
func appendStream(b *bytes.Buffer, v types.StreamDict, e edit) error {
	if err := appendDict(b, v.Dict, e, edit{"Length", types.Integer(len(v.Raw))}); err != nil {
		return err
	}
	b.WriteString("\nstream\n")
	b.Write(v.Raw)
	b.WriteString("\nendstream")
	return nil
}

// appendDict writes d with its keys sorted, the edits made (a later edit
// of a key wins).
func appendDict(b *bytes.Buffer, d types.Dict, edits ...edit) error {
	var small [16]string // (most dictionaries: no allocation for the keys)
	keys := small[:0]
	for k := range d {
		keys = append(keys, k)
	}
	for _, e := range edits {
		if _, ok := d[e.key]; !ok && e.key != "" && !slices.Contains(keys, e.key) {
			keys = append(keys, e.key)
		}
	}
	slices.Sort(keys)
	b.WriteString("<<")
	for _, k := range keys {
		v, set := d[k], true
		for _, e := range edits {
			if e.key == k && k != "" {
				v, set = e.val, e.val != nil
			}
		}
		if !set {
			continue
		}
		appendName(b, k)
		b.WriteByte(' ')
		if err := appendObject(b, v); err != nil {
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
