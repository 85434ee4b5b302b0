package pdfio

import (
	"bytes"
	"slices"
	"strconv"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// A page's new /ID written from the page's own bytes: SetID writes 100,000
// page dictionaries in a build, each the dictionary the input holds with
// one entry set. Where the input's bytes of a value are already what the
// writer writes for it (appendValue: integers, names without escapes,
// references, upper-case hex strings, and arrays and dictionaries of them
// with the writer's spacing and key order), they are copied instead of
// written again from the parsed value; only the top level's entries are
// put in the writer's key order. Each value is compared with the parsed
// one as it is copied, so the bytes are the writer's whatever the parse
// made of the input: anything else (a real number, a name with # escapes,
// other spacing, keys out of order within a value, a stream) and the
// page is written by appendEditedTo, as before.

// maxRawEntries bounds the top-level entries a dictionary written from
// its bytes has; one with more is written by appendEditedTo.
const maxRawEntries = 32

// rawSpan is one top-level entry of a dictionary's bytes: the key's name
// (without '/') and its value.
type rawSpan struct {
	key, val []byte
}

// putRawEdited writes object num of generation gen, d with e made, from
// the bytes of d in raw (from its "<<" on), and reports whether it could:
// putEdited's bytes and kept value when it did, nothing written when not.
func (w *objectWriter) putRawEdited(num, gen int, d types.Dict, raw []byte, e edit) bool {
	if d == nil {
		return false // (read back as an empty dictionary: appendEditedTo)
	}
	var small [maxRawEntries]rawSpan
	es, ok := rawEntries(raw, d, small[:0])
	if !ok {
		return false
	}
	at := w.buf.Len()
	b := w.buf.begin()
	appendRef(b, num, gen, " obj\n")
	var x readBack
	b.WriteString("<<")
	pending := e.val != nil // the edit's entry, not yet written
	for _, s := range es {
		if pending && string(s.key) > e.key {
			if !appendRawEdit(b, e, &x) {
				return false
			}
			pending = false
		}
		if string(s.key) == e.key {
			continue
		}
		b.WriteByte('/')
		b.Write(s.key)
		b.WriteByte(' ')
		b.Write(s.val)
	}
	if pending && !appendRawEdit(b, e, &x) {
		return false
	}
	b.WriteString(">>")
	w.offs = append(w.offs, objOffset{num: num, gen: gen, off: at, val: keep(editedObject{d, e}, x)})
	b.WriteString("\nendobj\n")
	w.buf.end()
	return true
}

// appendRawEdit writes the entry e sets, as appendDictTo does; false on
// an error (appendEditedTo then writes the object, and says it).
func appendRawEdit(b *bytes.Buffer, e edit, x *readBack) bool {
	appendNameTo(b, e.key, x)
	b.WriteByte(' ')
	return appendValue(b, e.val, x, 1) == nil
}

// rawEntries returns the top-level entries of the dictionary raw starts
// with, sorted by key, each value the writer's bytes for d's value, when
// they are exactly d's entries (appended to es); ok is false when not.
func rawEntries(raw []byte, d types.Dict, es []rawSpan) ([]rawSpan, bool) {
	if !bytes.HasPrefix(raw, []byte("<<")) {
		return nil, false
	}
	i := 2
	for {
		i = skipRawSpace(raw, i)
		if i+1 < len(raw) && raw[i] == '>' && raw[i+1] == '>' {
			break
		}
		k, ok := rawName(raw, i)
		if !ok || len(es) == cap(es) {
			return nil, false
		}
		key := raw[i+1 : k]
		v, ok := d[string(key)]
		if !ok {
			return nil, false
		}
		i = skipRawSpace(raw, k)
		end, ok := matchValue(raw, i, v, 1)
		if !ok {
			return nil, false
		}
		es = append(es, rawSpan{key, raw[i:end]})
		i = end
	}
	if len(es) != len(d) {
		return nil, false
	}
	slices.SortFunc(es, func(a, b rawSpan) int { return bytes.Compare(a.key, b.key) })
	for j := 1; j < len(es); j++ {
		if bytes.Equal(es[j].key, es[j-1].key) {
			return nil, false // (a key twice: d lacks one of the entries counted)
		}
	}
	return es, true
}

// skipRawSpace skips PDF white space (not comments) from i.
func skipRawSpace(raw []byte, i int) int {
	for i < len(raw) && asciiSpace(raw[i]) {
		i++
	}
	return i
}

// plainNameByte says whether c stands for itself in a name as the writer
// writes it (webcapture.AppendName escapes the others).
func plainNameByte(c byte) bool {
	if c < '!' || c > '~' {
		return false
	}
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%', '#':
		return false
	}
	return true
}

// rawName reads the name at i ("/" and bytes the writer writes as they
// are) and returns where it ends; ok is false for an empty name or one
// with a byte the writer would escape.
func rawName(raw []byte, i int) (end int, ok bool) {
	if i >= len(raw) || raw[i] != '/' {
		return 0, false
	}
	j := i + 1
	for j < len(raw) && plainNameByte(raw[j]) {
		j++
	}
	if j == i+1 || j < len(raw) && raw[j] == '#' || j < len(raw) && raw[j] > '~' {
		return 0, false
	}
	return j, true
}

// matchValue reports whether raw holds, from i, exactly the bytes
// appendValue writes for v at depth depth, with a read of them giving v
// back (readBack), and returns where they end.
func matchValue(raw []byte, i int, v types.Object, depth int) (end int, ok bool) {
	if depth > fastMaxDepth {
		return 0, false
	}
	var tmp [48]byte
	switch v := v.(type) {
	case types.Boolean:
		return matchBytes(raw, i, strconv.AppendBool(tmp[:0], bool(v)))
	case types.Integer:
		if v < -maxKeptInt || v > maxKeptInt {
			return 0, false
		}
		return matchBytes(raw, i, strconv.AppendInt(tmp[:0], int64(v), 10))
	case types.IndirectRef:
		n, g := v.ObjectNumber.Value(), v.GenerationNumber.Value()
		if n < 0 || g < 0 || n > maxKeptInt || g > maxKeptInt {
			return 0, false
		}
		t := strconv.AppendInt(tmp[:0], int64(n), 10)
		t = append(t, ' ')
		t = strconv.AppendInt(t, int64(g), 10)
		return matchBytes(raw, i, append(t, " R"...))
	case types.Name:
		for j := 0; j < len(v); j++ {
			if !plainNameByte(v[j]) {
				return 0, false
			}
		}
		if i >= len(raw) || raw[i] != '/' {
			return 0, false
		}
		return matchString(raw, i+1, string(v))
	case types.HexLiteral:
		if !upperHex(string(v)) || i >= len(raw) || raw[i] != '<' {
			return 0, false
		}
		if end, ok = matchString(raw, i+1, string(v)); !ok || end >= len(raw) || raw[end] != '>' {
			return 0, false
		}
		return end + 1, true
	case types.Array:
		return matchArray(raw, i, v, depth)
	case types.Dict:
		return matchDict(raw, i, v, depth)
	}
	return 0, false // a real number, a literal string, null, a stream: written by appendValue
}

// matchBytes reports whether raw holds p at i, and where it ends.
func matchBytes(raw []byte, i int, p []byte) (int, bool) {
	if i > len(raw) || !bytes.HasPrefix(raw[i:], p) {
		return 0, false
	}
	return i + len(p), true
}

// matchString is matchBytes for a string.
func matchString(raw []byte, i int, s string) (int, bool) {
	if i > len(raw) || len(raw)-i < len(s) || string(raw[i:i+len(s)]) != s {
		return 0, false
	}
	return i + len(s), true
}

// matchArray is matchValue for an array: "[", the elements with a space
// between, "]".
func matchArray(raw []byte, i int, a types.Array, depth int) (int, bool) {
	if a == nil || i >= len(raw) || raw[i] != '[' {
		return 0, false
	}
	i++
	for k, e := range a {
		if k > 0 {
			if i >= len(raw) || raw[i] != ' ' {
				return 0, false
			}
			i++
		}
		end, ok := matchValue(raw, i, e, depth+1)
		if !ok {
			return 0, false
		}
		i = end
	}
	if i >= len(raw) || raw[i] != ']' {
		return 0, false
	}
	return i + 1, true
}

// matchDict is matchValue for a dictionary: "<<", its entries in key
// order, each "/key value", ">>".
func matchDict(raw []byte, i int, d types.Dict, depth int) (int, bool) {
	if d == nil || !bytes.HasPrefix(raw[min(i, len(raw)):], []byte("<<")) {
		return 0, false
	}
	i += 2
	var last []byte
	n := 0
	for i < len(raw) && raw[i] == '/' {
		k, ok := rawName(raw, i)
		if !ok || k >= len(raw) || raw[k] != ' ' {
			return 0, false
		}
		key := raw[i+1 : k]
		if n > 0 && bytes.Compare(key, last) <= 0 {
			return 0, false
		}
		v, ok := d[string(key)]
		if !ok {
			return 0, false
		}
		end, ok := matchValue(raw, k+1, v, depth+1)
		if !ok {
			return 0, false
		}
		last, i, n = key, end, n+1
	}
	if n != len(d) || !bytes.HasPrefix(raw[min(i, len(raw)):], []byte(">>")) {
		return 0, false
	}
	return i + 2, true
}

// rawValue returns the bytes of object num of generation gen in the
// original file, from its value on (as far as the file goes), or nil
// where it has none of its own: it is in an object stream, or its
// header is not where the cross-reference data says.
func (u *Update) rawValue(num, gen int) []byte {
	e, ok := u.ctx.XRefTable.FindTableEntry(num, gen)
	if !ok || e == nil || e.Free || e.Compressed || e.Offset == nil {
		return nil
	}
	n, g, at, ok := objHeader(u.orig, *e.Offset)
	if !ok || n != num || g != gen {
		return nil
	}
	return u.orig[skipRawSpace(u.orig, at):]
}
