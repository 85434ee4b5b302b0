package pdfio

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/webcapture"
)

// nestedFile has three pages: 1 and 2 under an intermediate node, 3 under
// the root, which passes /Rotate 90 and /Resources down to all of them.
func nestedFile() (file []byte, pages []webcapture.Ref) {
	b := pb.New()
	root, node := b.Reserve(), b.Reserve()
	content := b.Add(&pb.Stream{Data: []byte("0 0 m 10 10 l S")})
	page := func(parent pb.Ref) pb.Ref {
		return b.Add(pb.D("Type", pb.Name("Page"), "Parent", parent, "MediaBox", pb.Array{0, 0, 612, 792}, "Contents", content))
	}
	p1, p2 := page(node), page(node)
	p3 := page(root)
	b.Set(node, pb.D("Type", pb.Name("Pages"), "Parent", root, "Kids", pb.Array{p1, p2}, "Count", 2))
	b.Set(root, pb.D("Type", pb.Name("Pages"), "Kids", pb.Array{node, p3}, "Count", 3, "Rotate", 90,
		"Resources", pb.D("ProcSet", pb.Array{pb.Name("PDF")})))
	b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", root))
	for _, p := range []pb.Ref{p1, p2, p3} {
		pages = append(pages, webcapture.Ref{Num: int(p)})
	}
	return b.Bytes(), pages
}

// printedFile is two pages as a browser prints them: an inherited
// MediaBox, a font both pages share, a link on page 2 that points back at
// its page (/P) and goes to page 1.
func printedFile() []byte {
	b := pb.New()
	b.Version = "1.4"
	root := b.Reserve()
	font := b.Add(pb.D("Type", pb.Name("Font"), "Subtype", pb.Name("Type1"), "BaseFont", pb.Name("Helvetica")))
	res := pb.D("Font", pb.D("F1", font))
	c1 := b.Add(&pb.Stream{Data: []byte("BT /F1 12 Tf 10 10 Td (one) Tj ET")})
	c2 := b.Add(&pb.Stream{Data: []byte("BT /F1 12 Tf 10 10 Td (two) Tj ET")})
	p1 := b.Add(pb.D("Type", pb.Name("Page"), "Parent", root, "Resources", res, "Contents", c1))
	p2 := b.Reserve()
	annot := b.Add(pb.D("Type", pb.Name("Annot"), "Subtype", pb.Name("Link"), "Rect", pb.Array{0, 0, 10, 10}, "P", p2, "Dest", pb.Array{p1, pb.Name("Fit")}))
	b.Set(p2, pb.D("Type", pb.Name("Page"), "Parent", root, "Resources", res, "Contents", c2, "Annots", pb.Array{annot}))
	b.Set(root, pb.D("Type", pb.Name("Pages"), "Kids", pb.Array{p1, p2}, "Count", 2, "MediaBox", pb.Array{0, 0, 200, 300}))
	b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", root))
	return b.Bytes()
}

// pagesOf reads a file back: its pages in order and their dictionaries.
func pagesOf(t *testing.T, file []byte) ([]webcapture.Ref, *Update) {
	t.Helper()
	u, err := NewUpdate(file, "out.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := u.Document()
	if err != nil {
		t.Fatal(err)
	}
	var refs []webcapture.Ref
	for _, p := range d.Pages {
		refs = append(refs, p.Ref)
	}
	for _, df := range d.Defects {
		t.Errorf("defect: %v", df)
	}
	return refs, u
}

func TestAppendPages(t *testing.T) {
	orig, old := nestedFile()
	u, err := NewUpdate(orig, "in.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	added, _, err := u.AppendPages(printedFile(), "printed.pdf")
	if err != nil {
		t.Fatal(err)
	}
	out, err := u.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(out, orig) {
		t.Fatal("the original bytes changed")
	}
	got, r := pagesOf(t, out)
	if want := append(slices.Clone(old), added...); !slices.Equal(got, want) {
		t.Fatalf("pages %v, want %v", got, want)
	}
	rootRef := r.ctx.XRefTable.RootDict["Pages"].(types.IndirectRef)
	for i, p := range added {
		d, _ := r.pageDict(p)
		if d["Parent"] != rootRef {
			t.Errorf("new page %d: /Parent %v, want the root %v", i+1, d["Parent"], rootRef)
		}
		// The root's /Rotate 90 and /Resources must not reach the new
		// pages; the printed file's inherited MediaBox must.
		if d["Rotate"] != types.Integer(0) {
			t.Errorf("new page %d: /Rotate %v, want 0 set on the page", i+1, d["Rotate"])
		}
		if mb, _ := d["MediaBox"].(types.Array); len(mb) != 4 || mb[2] != types.Integer(200) {
			t.Errorf("new page %d: /MediaBox %v, want the printed file's [0 0 200 300]", i+1, d["MediaBox"])
		}
		if res, _ := r.dictAt(d["Resources"]); res["Font"] == nil {
			t.Errorf("new page %d: /Resources %v lost the font", i+1, d["Resources"])
		}
	}
	// The link on page 2 points at the copies, not at the printed file's
	// objects.
	d2, _ := r.pageDict(added[1])
	annot, _ := r.dictAt(d2["Annots"].(types.Array)[0])
	if annot["P"] != indirect(added[1]) {
		t.Errorf("link /P %v, want page %v", annot["P"], added[1])
	}
	if dest := annot["Dest"].(types.Array); dest[0] != indirect(added[0]) {
		t.Errorf("link /Dest %v, want page %v", dest, added[0])
	}
	// Both pages share one font object, copied once.
	f1, _ := r.dictAt(d2["Resources"])
	d1, _ := r.pageDict(added[0])
	f0, _ := r.dictAt(d1["Resources"])
	if f0["Font"].(types.Dict)["F1"] != f1["Font"].(types.Dict)["F1"] {
		t.Error("the shared font was copied twice")
	}
	checkQPDF(t, out, 5)
}

func TestReplacePages(t *testing.T) {
	orig, old := nestedFile()
	for _, tc := range []struct {
		name    string
		replace []int // indexes into old
		want    []any // old index (int) or new page index (string "n0")
	}{
		{"both pages of a node", []int{0, 1}, []any{"n0", "n1", 2}},
		{"across nodes", []int{1, 2}, []any{0, "n0", "n1"}},
		{"the root's page", []int{2}, []any{0, 1, "n0", "n1"}},
		{"one of a node's", []int{0}, []any{"n0", "n1", 1, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, err := NewUpdate(orig, "in.pdf", Options{})
			if err != nil {
				t.Fatal(err)
			}
			var rep []webcapture.Ref
			for _, i := range tc.replace {
				rep = append(rep, old[i])
			}
			added, _, err := u.ReplacePages(rep, printedFile(), "printed.pdf")
			if err != nil {
				t.Fatal(err)
			}
			order, err := u.Pages()
			if err != nil {
				t.Fatal(err)
			}
			out, err := u.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			var want []webcapture.Ref
			for _, w := range tc.want {
				switch w := w.(type) {
				case int:
					want = append(want, old[w])
				case string:
					want = append(want, added[w[1]-'0'])
				}
			}
			got, _ := pagesOf(t, out)
			if !slices.Equal(got, want) {
				t.Fatalf("pages %v, want %v", got, want)
			}
			if !slices.Equal(order, want) {
				t.Errorf("Update.Pages before writing: %v, want %v", order, want)
			}
			checkQPDF(t, out, len(want))
		})
	}
}

func TestPageEditErrors(t *testing.T) {
	orig, old := nestedFile()
	u, err := NewUpdate(orig, "in.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var pe *Error
	if _, _, err := u.AppendPages([]byte("not a pdf"), "printed.pdf"); !errors.As(err, &pe) || pe.File != "printed.pdf" {
		t.Errorf("garbage: %v, want an *Error naming printed.pdf", err)
	}
	if _, _, err := u.ReplacePages([]webcapture.Ref{{Num: 1}}, printedFile(), "printed.pdf"); err == nil {
		t.Error("replacing the page tree's root: no error")
	}
	if _, _, err := u.ReplacePages(nil, printedFile(), "printed.pdf"); err == nil {
		t.Error("replacing no page: no error")
	}
	// After the failures the file is still whole.
	out, err := u.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := pagesOf(t, out); !slices.Equal(got, old) {
		t.Errorf("pages %v, want %v", got, old)
	}
}
