package pdfio

import (
	"bytes"
	"maps"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// TestAppendEdited: a dictionary or a stream written with an edit is
// written as a copy with the edit made would be (the copy SetID made
// before writing without one).
func TestAppendEdited(t *testing.T) {
	page := types.Dict{"Type": types.Name("Page"), "ID": types.HexLiteral("AB"), "": types.Integer(1), "Z": types.Array{types.Integer(2)}}
	stream := types.StreamDict{Dict: types.Dict{"Subtype": types.Name("Image"), "Length": types.Integer(99), "": types.Name("e")}, Raw: []byte("abc")}
	for _, tc := range []struct {
		name string
		o    types.Object
		e    edit
	}{
		{"dict set", page, edit{"ID", types.HexLiteral("CD")}},
		{"dict add", types.Dict{"Type": types.Name("Page")}, edit{"ID", types.HexLiteral("CD")}},
		{"dict remove", page, edit{key: "ID"}},
		{"dict remove absent", types.Dict{"A": types.Integer(1)}, edit{key: "ID"}},
		{"dict nothing", page, edit{}},
		{"empty dict add", types.Dict{}, edit{"ID", types.HexLiteral("00")}},
		{"stream set", stream, edit{"ID", types.HexLiteral("CD")}},
		{"stream remove", stream, edit{key: "ID"}},
		{"stream nothing", stream, edit{}},
		{"stream sets Length", stream, edit{"Length", types.Integer(5)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want types.Object
			switch v := tc.o.(type) {
			case types.Dict:
				d := maps.Clone(v)
				edited(d, tc.e)
				want = d
			case types.StreamDict:
				v.Dict = maps.Clone(v.Dict)
				edited(v.Dict, tc.e)
				want = v
			}
			var got, w bytes.Buffer
			if err := appendEdited(&got, tc.o, tc.e); err != nil {
				t.Fatal(err)
			}
			if err := appendObject(&w, want); err != nil {
				t.Fatal(err)
			}
			if got.String() != w.String() {
				t.Errorf("appendEdited(%v, %+v) = %q, want %q", tc.o, tc.e, got.String(), w.String())
			}
		})
	}
}

// edited makes e in d, as a copy-and-change would.
func edited(d types.Dict, e edit) {
	switch {
	case e.key == "":
	case e.val == nil:
		delete(d, e.key)
	default:
		d[e.key] = e.val
	}
}
