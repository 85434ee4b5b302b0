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
func appendObject(b *bytes.Buffer, o types.Object) error { return appendValue(b, o, nil, 0) }

// A readBack is what appendValue finds, when asked, of the object it
// writes: whether a read of its bytes (objParser.value, as Update.Result's
// written reads them) is certain to give back a value deep-equal to it,
// for Result to take the value instead of parsing the bytes (keptValue).
// Not certain: a real number (its shortest decimal form), a name written
// with # escapes, a literal string whose parentheses do not balance, a
// hex string in lower case or of an odd length, a null (a dictionary
// leaves its key out), an empty container held as nil (read back as an
// empty one), an integer of more than 18 digits, a stream, and anything
// nested deeper than the fast parser reads.
type readBack struct {
	inexact bool
}

// appendValue is appendObject, o at nesting depth depth, and what a read
// of the bytes gives back told to x (nil: not asked).
func appendValue(b *bytes.Buffer, o types.Object, x *readBack, depth int) error {
	if x != nil && (depth > fastMaxDepth || !keepsValue(o)) {
		x.inexact = true
	}
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
		appendNameTo(b, string(v), x)
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
			if err := appendValue(b, e, x, depth+1); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case types.Dict:
		return appendDictTo(b, v, x, depth)
	case types.StreamDict:
		return appendStream(b, v, edit{})
	default:
		return fmt.Errorf("pdfio: cannot write a %T", o)
	}
	return nil
}

// keepsValue says whether o itself (not what it holds: appendValue looks
// at that as it writes it) reads back as it is (readBack).
func keepsValue(o types.Object) bool {
	switch v := o.(type) {
	case types.Boolean:
		return true
	case types.Integer:
		return v >= -maxKeptInt && v <= maxKeptInt
	case types.Name:
		return true // (appendNameTo tells its escapes)
	case types.StringLiteral:
		return balanced(string(v))
	case types.HexLiteral:
		return upperHex(string(v))
	case types.IndirectRef:
		n, g := v.ObjectNumber.Value(), v.GenerationNumber.Value()
		return n >= 0 && g >= 0 && n <= maxKeptInt && g <= maxKeptInt
	case types.Array:
		return v != nil
	case types.Dict:
		return v != nil
	}
	return false // nil, a real number, a stream
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
	return appendEditedTo(b, o, e, nil)
}

// appendEditedTo is appendEdited, what a read of the bytes gives back told
// to x (nil: not asked; a stream never reads back as it is).
func appendEditedTo(b *bytes.Buffer, o types.Object, e edit, x *readBack) error {
	switch v := o.(type) {
	case types.Dict:
		if x != nil && v == nil {
			x.inexact = true
		}
		return appendDictTo(b, v, x, 0, e)
	case types.StreamDict:
		if x != nil {
			x.inexact = true
		}
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
	return appendDictTo(b, d, nil, 0, edits...)
}

// appendDictTo is appendDict, d at nesting depth depth, what a read of the
// bytes gives back told to x (nil: not asked).
func appendDictTo(b *bytes.Buffer, d types.Dict, x *readBack, depth int, edits ...edit) error {
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
		appendNameTo(b, k, x)
		b.WriteByte(' ')
		if err := appendValue(b, v, x, depth+1); err != nil {
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
func appendName(b *bytes.Buffer, s string) { appendNameTo(b, s, nil) }

// appendNameTo is appendName, a name written with # escapes (which the
// fast parser leaves to pdfcpu) told to x (nil: not asked).
func appendNameTo(b *bytes.Buffer, s string, x *readBack) {
	n := webcapture.AppendName(b.AvailableBuffer(), s)
	if x != nil && len(n) != len(s)+1 {
		x.inexact = true
	}
	b.Write(n)
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
