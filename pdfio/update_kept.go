package pdfio

import (
	"fmt"
	"reflect"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// editedObject is what putEdited wrote: o, a dictionary or a stream, with
// e made. The copy with e made is only made if Result takes the value
// (keptValue): an update whose result is not read makes none.
type editedObject struct {
	o types.Object
	e edit
}

// keep is what objOffset keeps of v, whose bytes x describes: v, or nil
// where a read of the bytes might not give it back.
func keep(v any, x readBack) any {
	if x.inexact {
		return nil
	}
	return v
}

// keptValue returns the value an update wrote as v (objOffset.val) as a
// read of its bytes gives it back (written), without parsing them: for a
// build of 100,000 page sets, 300,000 objects not parsed again. ok is
// false for nil (the writer found the bytes might read otherwise than the
// value, readBack): Result then parses those bytes, as before.
func keptValue(v any) (o types.Object, ok bool) {
	switch v := v.(type) {
	case *setPlan:
		return v.dict()
	case editedObject:
		d, isDict := v.o.(types.Dict)
		if !isDict {
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
		return v, v != nil
	}
	return nil, false
}

// maxKeptInt bounds the integers a read gives back: the fast parser reads
// 18 digits at most.
const maxKeptInt = 999_999_999_999_999_999

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
// too, and panic where the two differ (an internal error): this package's
// tests set it (update_kept_test.go), so that every update they read back
// checks the writer's readBack against the parse it saves.
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
