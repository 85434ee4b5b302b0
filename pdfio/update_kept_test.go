package pdfio

import (
	"reflect"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// Every update a test of this package reads back (Result, Continue)
// checks each value it keeps against the read of its bytes.
func init() { verifyKept = true }

// exact says yes only where appendObject's bytes read back (written) as
// the value itself.
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
			if !tc.want || tc.o == nil {
				return
			}
			// What exact takes reads back as itself.
			var w objectWriter
			w.putGen(7, 0, tc.o)
			u := &Update{}
			got, ok := u.written(w.buf.bytes(), 0, 7, 0)
			if !ok || !reflect.DeepEqual(got, tc.o) {
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
	if exact(deep, 0) {
		t.Errorf("exact of %d nested arrays = true, want false (the fast parser reads %d)", fastMaxDepth+1, fastMaxDepth)
	}
}
