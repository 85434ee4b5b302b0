package pdfio

import (
	"bytes"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/internal/pdfbuild"
)

// rawAndGeneric writes object 12 as d with e made both ways: from raw
// (putRawEdited; taken false where it declines) and by putEdited. Each
// returns the bytes written and whether the value is kept.
func rawAndGeneric(raw []byte, d types.Dict, e edit) (fast, generic []byte, fastKept, genericKept, taken bool) {
	var fw, gw objectWriter
	taken = fw.putRawEdited(12, 0, d, raw, e)
	gw.putEdited(12, 0, d, e)
	var fb, gb bytes.Buffer
	fw.buf.writeRange(&fb, 0, fw.buf.Len())
	gw.buf.writeRange(&gb, 0, gw.buf.Len())
	if taken {
		fastKept = fw.offs[0].val != nil
	}
	return fb.Bytes(), gb.Bytes(), fastKept, gw.offs[0].val != nil, taken
}

// TestRawEdited holds SetID's copy of a page's bytes to the writer: the
// same bytes wherever it is taken, and not taken where the input's bytes
// of a value are not the writer's.
func TestRawEdited(t *testing.T) {
	id := edit{key: "ID", val: hexString("\x01\xab")}
	tests := []struct {
		name  string
		raw   string
		e     edit
		taken bool
	}{
		{"bench page", "<</Type /Page/Parent 10 0 R/MediaBox [0 0 612 792]/Contents 11 0 R/Resources <</Font <</F1 1 0 R>>/XObject <</Im0 2 0 R>>>>>>", id, true},
		{"already sorted", "<</Contents 11 0 R/MediaBox [0 0 612 792]/Parent 10 0 R/Type /Page>>", id, true},
		{"white space between entries", "<<\n /Type\t/Page\r\n/Parent  10 0 R /MediaBox [0 0 612 792]\n>>\nendobj", id, true},
		{"existing ID replaced", "<</Type /Page/ID <0011>/Parent 10 0 R>>", id, true},
		{"existing ID removed", "<</Type /Page/ID <0011>/Parent 10 0 R>>", edit{key: "ID"}, true},
		{"ID last", "<</A 1/B 2>>", id, true},
		{"ID first", "<</X 1/Y 2>>", id, true},
		{"empty", "<<>>", id, true},
		{"indirect resources", "<</Type /Page/Resources 5 0 R/Rotate 90>>", id, true},
		{"booleans and negative numbers", "<</A true/B false/C -3/D [-1 0 1]>>", id, true},
		{"empty array and dictionary", "<</A []/B <<>>>>", id, true},
		{"real rotate", "<</Type /Page/Rotate 90.0>>", id, false},
		{"real in media box", "<</MediaBox [0 0 612.000 792]>>", id, false},
		{"integral real", "<</MediaBox [0.0 0 612 792]>>", id, false},
		{"escaped name value", "<</Type /Pa#67e>>", id, false},
		{"escaped key", "<</Ty#70e /Page>>", id, false},
		{"name with a space escaped", "<</Name /A#20B>>", id, false},
		{"array spacing", "<</MediaBox [ 0 0 612 792 ]>>", id, false},
		{"reference in array", "<</A [1 2 3 R]>>", id, true},
		{"two spaces in array", "<</A [1  2]>>", id, false},
		{"nested keys out of order", "<</Resources <</XObject <</Im0 2 0 R>>/Font <</F1 1 0 R>>>>>>", id, false},
		{"nested spacing", "<</Resources << /Font <</F1 1 0 R>> >>>>", id, false},
		{"nested no space after key", "<</Resources <</Font<</F1 1 0 R>>>>>>", id, false},
		{"literal string", "<</T (a page)>>", id, false},
		{"lower-case hex", "<</ID <00ab>>>", edit{key: "Other", val: types.Integer(1)}, false},
		{"upper-case hex", "<</H <00AB>>>", id, true},
		{"null", "<</A null>>", id, false},
		{"comment", "<</A 1 % c\n/B 2>>", id, false},
		{"leading zero", "<</Rotate 090>>", id, false},
		{"plus sign", "<</Rotate +90>>", id, false},
		{"generation leading zero", "<</P 10 00 R>>", id, false},
		{"huge integer", "<</N 1234567890123456789>>", id, false},
		{"key twice", "<</A 1/A 1>>", id, false},
		{"stream", "<</Length 1>>\nstream\nx\nendstream", id, true}, // (a dictionary given: its bytes)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.raw
			o, err := parseObject(&s)
			if err != nil {
				t.Fatalf("parse %q: %v", tc.raw, err)
			}
			d, ok := o.(types.Dict)
			if !ok {
				t.Fatalf("parse %q = %T, want a dictionary", tc.raw, o)
			}
			fast, generic, fk, gk, taken := rawAndGeneric([]byte(tc.raw), d, tc.e)
			if taken != tc.taken {
				t.Errorf("putRawEdited(%q) taken = %v, want %v", tc.raw, taken, tc.taken)
			}
			if taken && (!bytes.Equal(fast, generic) || fk != gk) {
				t.Errorf("putRawEdited(%q) =\n%q (kept %v), putEdited =\n%q (kept %v)", tc.raw, fast, fk, generic, gk)
			}
		})
	}
}

// FuzzRawEdited holds putRawEdited to putEdited: where it is taken, the
// same bytes and the same verdict on the value kept, whatever the bytes
// and whatever dictionary they are given with (other's parse, or raw's
// own).
func FuzzRawEdited(f *testing.F) {
	page := "<</Type /Page/Parent 10 0 R/MediaBox [0 0 612 792]/Contents 11 0 R/Resources <</Font <</F1 1 0 R>>/XObject <</Im0 2 0 R>>>>>>"
	for _, s := range []string{page, "<<>>", "<</A [1 2 3 R]>>", "<</ID <00AB>/A true>>", "<</N 1234567890123456789/M -1>>", "<</A <</B <</C [[]]>>>>>>"} {
		f.Add(s, "", "\x01\xff")
		f.Add(s, page, "")
	}
	f.Fuzz(func(t *testing.T, raw, other, id string) {
		text := raw
		if other != "" {
			text = other
		}
		o, err := parseObject(&text)
		d, ok := o.(types.Dict)
		if err != nil || !ok {
			if o, ok = parseCompressed([]byte(raw)); !ok {
				return
			}
			if d, ok = o.(types.Dict); !ok {
				return
			}
		}
		e := edit{key: "ID"}
		if id != "" {
			e.val = hexString(id)
		}
		fast, generic, fk, gk, taken := rawAndGeneric([]byte(raw), d, e)
		if taken && (!bytes.Equal(fast, generic) || fk != gk) {
			t.Fatalf("putRawEdited(%q) =\n%q (kept %v), putEdited =\n%q (kept %v)", raw, fast, fk, generic, gk)
		}
	})
}

// BenchmarkSetIDPage writes a build's page (the bench input's) with its
// new /ID, from its bytes (raw) and by the writer (generic), 10,000 times.
func BenchmarkSetIDPage(b *testing.B) {
	raw := []byte("<</Type /Page/Parent 10 0 R/MediaBox [0 0 612 792]/Contents 11 0 R/Resources <</Font <</F1 1 0 R>>/XObject <</Im0 2 0 R>>>>>>\nendobj\n")
	s := string(raw)
	o, err := parseObject(&s)
	if err != nil {
		b.Fatal(err)
	}
	d := o.(types.Dict)
	e := edit{key: "ID", val: hexString("0123456789abcdef")}
	for _, way := range []string{"raw", "generic"} {
		b.Run(way, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var w objectWriter
				for range 10000 {
					if way == "generic" || !w.putRawEdited(12, 0, d, raw, e) {
						w.putEdited(12, 0, d, e)
					}
				}
			}
		})
	}
}

// TestSetIDPageBytes: SetID finds a page's bytes in the input (not in an
// object stream) and copies them where they are the writer's.
func TestSetIDPageBytes(t *testing.T) {
	b := pdfbuild.New()
	tree := b.Reserve()
	bench := b.Add(pdfbuild.D("Type", pdfbuild.Name("Page"), "Parent", tree, "MediaBox", pdfbuild.Array{0, 0, 612, 792}))
	real := b.Add(pdfbuild.D("Type", pdfbuild.Name("Page"), "Parent", tree, "Rotate", pdfbuild.Raw("90.0")))
	b.Set(tree, pdfbuild.D("Type", pdfbuild.Name("Pages"), "Kids", pdfbuild.Array{bench, real}, "Count", 2))
	b.Root = b.Add(pdfbuild.D("Type", pdfbuild.Name("Catalog"), "Pages", tree))
	u, err := NewUpdate(b.Bytes(), "t.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		num   int
		taken bool
	}{{int(bench), true}, {int(real), false}} {
		o, err := u.lookup(*types.NewIndirectRef(tc.num, 0))
		if err != nil {
			t.Fatal(err)
		}
		var w objectWriter
		if taken := w.putRawEdited(tc.num, 0, o.(types.Dict), u.rawValue(tc.num, 0), edit{key: "ID", val: hexString("x")}); taken != tc.taken {
			t.Errorf("object %d: putRawEdited taken = %v, want %v", tc.num, taken, tc.taken)
		}
	}
	if u.rawValue(999, 0) != nil {
		t.Errorf("rawValue of a missing object is not nil")
	}
}
