package pdfio

import (
	"reflect"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// Every update a test of this package reads back (Result, Continue)
// checks each value it keeps against the read of its bytes.
func init() { verifyKept = true }

// exact, the oracle of appendValue's readBack, says whether
// appendObject's bytes for o, at nesting depth depth,
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

// The writer (appendValue's readBack) keeps a value where exact, walking
// it, says its bytes read back (written) as the value itself, and only
// there.
func TestExact(t *testing.T) {
	ref := *types.NewIndirectRef(12, 0)
	tests := []struct {
		name string
		o    types.Object
		want bool
	}{
		{"integer", types.Integer(-42), true},
		{"integer of 18 digits", types.Integer(maxKeptInt), true},
		{"integer of 19 digits", types.Integer(maxKeptInt + 1), false},
		{"boolean", types.Boolean(false), true},
		{"real", types.Float(0.5), false},
		{"name", types.Name("Page"), true},
		{"name with a space", types.Name("A B"), false},
		{"name with a hash", types.Name("A#20B"), false},
		{"name with a brace", types.Name("A{"), false},
		{"name above ASCII", types.Name("é"), false},
		{"string", literalString("a (b) c\\d\r"), true},
		{"string balanced raw", types.StringLiteral("a(b)c"), true},
		{"string closed early", types.StringLiteral("a)b("), false},
		{"string left open", types.StringLiteral("a(b"), false},
		{"string ending in a backslash", types.StringLiteral(`a\`), false},
		{"hex", hexString("\x00\xff"), true},
		{"hex lower case", types.HexLiteral("0aff"), false},
		{"hex odd", types.HexLiteral("ABC"), false},
		{"reference", ref, true},
		{"array", types.Array{ref, types.Integer(1), types.Name("R")}, true},
		{"empty array", types.Array{}, true},
		{"nil array", types.Array(nil), false},
		{"array with a null", types.Array{nil}, false},
		{"dict", types.Dict{"Type": types.Name("SpiderContentSet"), "O": types.Array{ref}}, true},
		{"nil dict", types.Dict(nil), false},
		{"dict with a null", types.Dict{"A": nil}, false},
		{"dict with an odd key", types.Dict{"A B": types.Integer(1)}, false},
		{"stream", types.StreamDict{Dict: types.Dict{}}, false},
		{"null", nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := exact(tc.o, 0); got != tc.want {
				t.Errorf("exact(%v) = %v, want %v", tc.o, got, tc.want)
			}
			var w objectWriter
			w.putGen(7, 0, tc.o)
			kept, ok := keptValue(w.offs[0].val)
			if ok != tc.want {
				t.Errorf("the writer keeps %v: %v, want %v", tc.o, ok, tc.want)
			}
			if !ok {
				return
			}
			// What is kept reads back as itself.
			u := &Update{}
			got, ok := u.written(w.buf.bytes(), 0, 7, 0)
			if !ok || !reflect.DeepEqual(got, kept) {
				t.Errorf("%v read back as %v (ok %v)", tc.o, got, ok)
			}
		})
	}
	for c := range 256 {
		n := string([]byte{byte(c)})
		if got, want := plainName(n), string(webcapture.AppendName(nil, n)) == "/"+n; got != want {
			t.Errorf("plainName(%q) = %v, want %v (webcapture.AppendName writes %q)", n, got, want, webcapture.AppendName(nil, n))
		}
	}
	deep := types.Object(types.Integer(1))
	for range fastMaxDepth + 1 {
		deep = types.Array{deep}
	}
	var w objectWriter
	w.putGen(7, 0, deep)
	if exact(deep, 0) || w.offs[0].val != nil {
		t.Errorf("%d nested arrays kept, want not (the fast parser reads %d)", fastMaxDepth+1, fastMaxDepth)
	}
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
