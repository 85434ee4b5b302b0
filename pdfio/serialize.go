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
// of the bytes gives back told to x (nil: not asked). Each case tells x
// what keepsValue says of its kind, in the one switch that writes it.
func appendValue(b *bytes.Buffer, o types.Object, x *readBack, depth int) error {
	if x != nil && depth > fastMaxDepth {
		x.inexact = true
	}
	switch v := o.(type) {
	case nil:
		x.unsure()
		b.WriteString("null")
	case types.Boolean:
		b.WriteString(strconv.FormatBool(bool(v)))
	case types.Integer:
		if v < -maxKeptInt || v > maxKeptInt {
			x.unsure()
		}
		b.Write(strconv.AppendInt(b.AvailableBuffer(), int64(v), 10))
	case types.Float:
		x.unsure()
		b.Write(strconv.AppendFloat(b.AvailableBuffer(), float64(v), 'f', -1, 64))
	case types.Name:
		appendNameTo(b, string(v), x)
	case types.StringLiteral:
		if x != nil && !balanced(string(v)) {
			x.inexact = true
		}
		b.WriteByte('(')
		b.WriteString(string(v))
		b.WriteByte(')')
	case types.HexLiteral:
		if x != nil && !upperHex(string(v)) {
			x.inexact = true
		}
		writeHexLiteral(b, string(v))
	case types.IndirectRef:
		n, g := v.ObjectNumber.Value(), v.GenerationNumber.Value()
		if n < 0 || g < 0 || n > maxKeptInt || g > maxKeptInt {
			x.unsure()
		}
		appendRef(b, n, g, " R")
	case types.Array:
		if v == nil {
			x.unsure()
		}
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
		if v == nil {
			x.unsure()
		}
		return appendDictTo(b, v, x, depth)
	case types.StreamDict:
		x.unsure()
		return appendStream(b, v, edit{})
	default:
		return fmt.Errorf("pdfio: cannot write a %T", o)
	}
	return nil
}

// unsure marks what is written as not certain to read back as it is; x
// may be nil (not asked).
func (x *readBack) unsure() {
	if x != nil {
		x.inexact = true
	}
}

// writeHexLiteral writes a hex string in upper case (as bytes.ToUpper would,
// without its copies: an ASCII string is upper-cased a byte at a time).
func writeHexLiteral(b *bytes.Buffer, s string) {
	t := append(b.AvailableBuffer(), '<')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80:
			b.WriteByte('<')
			b.Write(bytes.ToUpper([]byte(s)))
			b.WriteByte('>')
			return
		case c >= 'a' && c <= 'z':
			c -= 'a' - 'A'
		}
		t = append(t, c)
	}
	b.Write(append(t, '>'))
}

// keepsValue says whether o itself (not what it holds: appendValue looks
// at that as it writes it) reads back as it is (readBack). appendValue
// says the same in its switch; this is its statement in one place, for
// the tests that hold the two together.
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
// bytes gives back told to x (nil: not asked). The entries are taken from
// the map once, with their values, and sorted by key.
func appendDictTo(b *bytes.Buffer, d types.Dict, x *readBack, depth int, edits ...edit) error {
	var small [16]dictEntry // (most dictionaries: no allocation for the entries)
	es := small[:0]
	for k, v := range d {
		es = append(es, dictEntry{k, v, true})
	}
	for _, e := range edits {
		if e.key == "" {
			continue
		}
		i := slices.IndexFunc(es, func(de dictEntry) bool { return de.key == e.key })
		if i < 0 {
			es = append(es, dictEntry{e.key, e.val, e.val != nil})
		} else {
			es[i].val, es[i].set = e.val, e.val != nil
		}
	}
	slices.SortFunc(es, func(a, b dictEntry) int { return strings.Compare(a.key, b.key) })
	b.WriteString("<<")
	for _, e := range es {
		if !e.set {
			continue
		}
		appendNameTo(b, e.key, x)
		b.WriteByte(' ')
		if err := appendValue(b, e.val, x, depth+1); err != nil {
			return err
		}
	}
	b.WriteString(">>")
	return nil
}

// A dictEntry is one entry appendDictTo writes: set is false for a key an
// edit removed.
type dictEntry struct {
	key string
	val types.Object
	set bool
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
// (Made in a strings.Builder: one allocation, where a byte slice made
// into a string is two for strings of more than 16 bytes, a SHA-256.)
func hexString(s string) types.HexLiteral {
	const digits = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(2 * len(s))
	for i := 0; i < len(s); i++ {
		b.WriteByte(digits[s[i]>>4])
		b.WriteByte(digits[s[i]&15])
	}
	return types.HexLiteral(b.String())
}
