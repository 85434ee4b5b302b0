package pdfio

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unsafe"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// maxChain bounds how many references resolve follows ("1 0 obj 2 0 R").
const maxChain = 32

// resolve follows references from o to a direct object. It returns the
// object, the last reference followed (zero if o is direct), and whether
// every reference found an object; it records dangling references and
// loops as defects.
func (r *reader) resolve(o types.Object, path string) (types.Object, webcapture.Ref, bool) {
	return r.resolveAt(o, func() string { return path })
}

// resolveKey is resolve for the value of key in the dictionary at path; the
// joined path is built only for a defect.
func (r *reader) resolveKey(o types.Object, path, key string) (types.Object, webcapture.Ref, bool) {
	if _, isRef := o.(types.IndirectRef); !isRef {
		return o, webcapture.Ref{}, true // the common case: nothing to follow
	}
	return r.resolveAt(o, func() string { return path + "/" + key })
}

// resolveAt is resolve with the path built by path, called only for a
// defect (most objects resolve without one: their paths, one per page or
// tree entry, would be built for nothing).
func (r *reader) resolveAt(o types.Object, path func() string) (types.Object, webcapture.Ref, bool) {
	obj, ref, why := r.resolveWhy(o, path)
	return obj, ref, why == resolved
}

// resolveWhy is resolveAt saying why it stopped: an object that does not
// exist (dangling) is missing; one the cross-reference data lists that
// cannot be read is unreadable.
func (r *reader) resolveWhy(o types.Object, path func() string) (types.Object, webcapture.Ref, resolution) {
	var ref webcapture.Ref
	for range maxChain {
		ir, ok := o.(types.IndirectRef)
		if !ok {
			return o, ref, resolved
		}
		ref = webcapture.Ref{Num: ir.ObjectNumber.Value(), Gen: ir.GenerationNumber.Value()}
		e := r.entry(ref.Num)
		if e.none() || e.free() || e.object() == nil {
			if obj, ok := r.recovered[ref.Num]; ok {
				o = obj
				continue
			}
			p := path()
			switch {
			case !e.none() && !e.free() && r.unreadableRef(ref):
				r.defect(ref, p, Unreadable, "%s refers to object %s, which the cross-reference data puts at offset %d but which cannot be read there or near it", p, ref, entOffset(e))
				return nil, ref, unreadable
			case r.xrefDamaged:
				r.defect(ref, p, Dangling, "%s refers to object %s, which cannot be located: the cross-reference data is damaged", p, ref)
			default:
				r.defect(ref, p, Dangling, "%s refers to object %s, which does not exist", p, ref)
			}
			return nil, ref, missing
		}
		obj, err := r.dec.load(e)
		if err != nil {
			p := path()
			if errors.Is(err, ErrDecodeLimit) {
				r.defect(ref, p, TooLarge, "%s: object %s is not read: %v", p, ref, err)
			} else {
				r.defect(ref, p, BadValue, "%s: object %s cannot be parsed: %v", p, ref, err)
			}
			return nil, ref, unreadable
		}
		o = obj
	}
	p := path()
	r.defect(ref, p, Cycle, "%s: a chain of more than %d references", p, maxChain)
	return nil, ref, missing
}

func offsetOf(e *model.XRefTableEntry) int64 {
	if e.Offset == nil {
		return -1
	}
	return *e.Offset
}

// rawString returns the bytes of a string object exactly: a literal string
// unescaped by PDF 1.7 §3.2.3, a hex string decoded. The result is always a
// copy: pdfcpu's strings can share a larger buffer, which a kept substring
// would keep alive.
func rawString(o types.Object) (string, bool) {
	switch s := o.(type) {
	case types.StringLiteral:
		if !needsUnescape(string(s)) {
			return strings.Clone(string(s)), true
		}
		return unescapeLiteral(string(s)), true
	case types.HexLiteral:
		return decodeHex(string(s)), true
	}
	return "", false
}

// unescapeLiteral decodes the text between a literal string's parentheses:
// \n \r \t \b \f \( \) \\, \ddd (one to three octal digits, high-order
// overflow ignored), a backslash before an end of line (continuation,
// nothing), a backslash before any other byte (the byte); and an unescaped
// end of line (CR, LF or CR LF) is one LF.
func unescapeLiteral(s string) string {
	if !needsUnescape(s) {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\r':
			b = append(b, '\n')
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			continue
		case c != '\\':
			b = append(b, c)
			continue
		}
		i++
		if i == len(s) {
			break // a lone backslash at the end: ignored
		}
		switch c = s[i]; c {
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		case '\n':
		default:
			if c >= '0' && c <= '7' {
				v := int(c - '0')
				for k := 0; k < 2 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7'; k++ {
					i++
					v = v*8 + int(s[i]-'0')
				}
				b = append(b, byte(v))
				continue
			}
			b = append(b, c) // \( \) \\ and any other byte: the byte itself
		}
	}
	return ownString(b)
}

// needsUnescape reports whether a literal string's text holds an escape or
// a CR, which unescapeLiteral changes; any other text is its own value.
func needsUnescape(s string) bool {
	return strings.IndexByte(s, '\\') >= 0 || strings.IndexByte(s, '\r') >= 0
}

// ownString is b as a string without a copy, for a b made for it that
// nothing else holds or changes: one allocation per decoded string, not
// two (make, then string(b)).
func ownString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// decodeHex decodes a hex string's digits (pdfcpu has already removed white
// space and upper-cased them); an odd final digit is followed by 0.
func decodeHex(s string) string {
	return ownString(appendHex(make([]byte, 0, (len(s)+1)/2), s))
}

// appendHex appends to b the bytes of a hex string's digits, as decodeHex
// decodes them.
func appendHex(b []byte, s string) []byte {
	for i := 0; i < len(s); i += 2 {
		hi, lo := unhex(s[i]), byte(0)
		if i+1 < len(s) {
			lo = unhex(s[i+1])
		}
		b = append(b, hi<<4|lo)
	}
	return b
}

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10
	}
	return 0
}

// typeName names an object's type for messages.
func typeName(o types.Object) string {
	switch o.(type) {
	case nil:
		return "null"
	case types.Boolean:
		return "a boolean"
	case types.Integer:
		return "an integer"
	case types.Float:
		return "a real number"
	case types.Name:
		return "a name"
	case types.StringLiteral, types.HexLiteral:
		return "a string"
	case types.Array:
		return "an array"
	case types.Dict, filedObject: // (a filedObject stands for a dictionary)
		return "a dictionary"
	case types.StreamDict, slimStream: // (a slimStream stands for a stream)
		return "a stream"
	case types.IndirectRef:
		return "a reference"
	case packedObject: // (as pdfcpu's lazy object, which it stands for)
		return fmt.Sprintf("%T", types.LazyObjectStreamObject{})
	}
	return fmt.Sprintf("%T", o)
}

func refOf(ir types.IndirectRef) webcapture.Ref {
	return webcapture.Ref{Num: ir.ObjectNumber.Value(), Gen: ir.GenerationNumber.Value()}
}

// eachOf resolves every element of the array at path and calls f with each
// one of type T; an element of another type is a defect of the given kind
// ("want" says what was wanted), and a dangling one is skipped.
func eachOf[T types.Object](r *reader, a types.Array, path string, kind DefectKind, want string, f func(v T, ref webcapture.Ref, path string)) {
	for i, el := range a {
		epath := path + "[" + strconv.Itoa(i) + "]"
		o, ref, ok := r.resolve(el, epath)
		if !ok {
			continue
		}
		v, isT := o.(T)
		if !isT {
			r.defect(ref, epath, kind, "%s is %s, want %s", epath, typeName(o), want)
			continue
		}
		f(v, ref, epath)
	}
}
