package pdfio

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// editedObject is what putEdited wrote: o, a dictionary or a stream, with
// e made. The copy with e made is only made if Result takes the value
// (keptValue): an update whose result is not read makes none.
type editedObject struct {
	o types.Object
	e edit
}

// keptValue returns the value an update wrote as v (objOffset.val) as a
// read of its bytes gives it back (written), without parsing them: for a
// build of 100,000 page sets, 300,000 objects not parsed again. ok is
// false where the bytes might read otherwise than the value (exact says
// when), and for a stream: Result then parses those bytes, as before.
func keptValue(v any) (o types.Object, ok bool) {
	switch v := v.(type) {
	case editedObject:
		d, isDict := v.o.(types.Dict)
		if !isDict || d == nil || !exact(d, 0) || v.e.val != nil && (!exact(v.e.val, 1) || !plainName(v.e.key)) {
			return nil, false
		}
		c := make(types.Dict, len(d)+1)
		for k, x := range d {
			if k != v.e.key {
				c[k] = x
			}
		}
		if v.e.val != nil {
			c[v.e.key] = v.e.val
		}
		return c, true
	case types.Object:
		if !exact(v, 0) {
			return nil, false
		}
		return v, true
	}
	return nil, false
}

// maxKeptInt bounds the integers exact takes: the fast parser reads 18
// digits at most.
const maxKeptInt = 999_999_999_999_999_999

// exact says whether appendObject's bytes for o, at nesting depth depth,
// read back (objParser.value, as written does) as a value deep-equal to o.
// It says no where that is not certain: a real number (its shortest
// decimal form), a name or a key that is written with # escapes, a
// literal string whose parentheses do not balance, a hex string in lower
// case or of an odd length, a null (a dictionary leaves its key out), an
// empty container held as nil (read back as an empty one), a stream, and
// anything nested deeper than the fast parser reads.
func exact(o types.Object, depth int) bool {
	if depth > fastMaxDepth {
		return false
	}
	switch v := o.(type) {
	case types.Boolean:
		return true
	case types.Integer:
		return v >= -maxKeptInt && v <= maxKeptInt
	case types.Name:
		return plainName(string(v))
	case types.StringLiteral:
		return balanced(string(v))
	case types.HexLiteral:
		return upperHex(string(v))
	case types.IndirectRef:
		n, g := v.ObjectNumber.Value(), v.GenerationNumber.Value()
		return n >= 0 && g >= 0 && n <= maxKeptInt && g <= maxKeptInt
	case types.Array:
		if v == nil {
			return false
		}
		for _, e := range v {
			if !exact(e, depth+1) {
				return false
			}
		}
		return true
	case types.Dict:
		if v == nil {
			return false
		}
		for k, e := range v {
			if !plainName(k) || !exact(e, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// plainName says whether webcapture.AppendName writes name as it is (no
// # escape), which the fast parser reads back as it is.
func plainName(name string) bool {
	for i := 0; i < len(name); i++ {
		if !nameByte[name[i]] {
			return false
		}
	}
	return true
}

// nameByte says which bytes webcapture.AppendName writes as they are.
var nameByte = func() (t [256]bool) {
	for c := '!'; c <= '~'; c++ {
		t[c] = strings.IndexByte("()<>[]{}/%#", byte(c)) < 0
	}
	return t
}()

// balanced says whether "(" + s + ")" is one literal string as the fast
// parser reads it (objParser.literal): its parentheses balance, an
// unescaped ')' never closes it early, and it does not end in a lone
// backslash.
func balanced(s string) bool {
	depth, escaped := 1, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case escaped:
			escaped = false
		case c == '\\':
			escaped = true
		case c == '(':
			depth++
		case c == ')':
			if depth--; depth == 0 {
				return false
			}
		}
	}
	return depth == 1 && !escaped
}

// upperHex says whether s is an even number of upper-case hex digits,
// which appendObject writes and the fast parser reads as they are.
func upperHex(s string) bool {
	if len(s)%2 != 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// verifyKept makes Result parse every object it takes the kept value of
// too, and panic where the two differ (an internal error): the tests set
// it (TestMain), so that every update they read back checks exact.
var verifyKept bool

// sameAsWritten is verifyKept's check of the value kept for object num
// against the read of its bytes at off in out.
func (u *Update) sameAsWritten(kept types.Object, out []byte, off int64, num, gen int) bool {
	parsed, ok := u.written(out, off, num, gen)
	if !ok {
		return false // (the bytes are parsed whole, as before)
	}
	if !reflect.DeepEqual(kept, parsed) {
		panic(fmt.Sprintf("pdfio: object %d %d kept as %v, read back as %v", num, gen, kept, parsed))
	}
	return true
}
