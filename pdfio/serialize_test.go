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

// TestObjectBuf: what an objectBuf holds is what was written to it, in
// any range, across its chunks.
func TestObjectBuf(t *testing.T) {
	var b objectBuf
	var want bytes.Buffer
	for i, n := range []int{0, 10, writeChunk - 10, 20, 3 * writeChunk, 1, writeChunk} {
		p := bytes.Repeat([]byte{byte('a' + i)}, n)
		b.Write(p)
		want.Write(p)
	}
	if b.Len() != want.Len() || !b.equal(want.Bytes()) || !bytes.Equal(b.bytes(), want.Bytes()) {
		t.Fatalf("objectBuf holds %d bytes, want %d", b.Len(), want.Len())
	}
	w := want.Bytes()
	for _, r := range [][2]int{{0, 0}, {0, 5}, {5, writeChunk + 7}, {writeChunk, 2 * writeChunk}, {17, len(w)}, {len(w), len(w)}} {
		var got bytes.Buffer
		if err := b.writeRange(&got, r[0], r[1]); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), w[r[0]:r[1]]) {
			t.Errorf("writeRange(%d, %d): %d bytes, want %d", r[0], r[1], got.Len(), r[1]-r[0])
		}
	}
	w[len(w)-1] = 'z'
	if b.equal(w) {
		t.Errorf("equal: a changed last byte is equal")
	}
}
