package pdfio

import (
	"bytes"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/webcapture"
)

// Result takes the pages, the images and their use from the input's
// Document where the update only gave pages and images an /ID
// (result_pages.go), and reads them from the output anywhere else; in
// both, the Document is the read of the bytes.
func TestResultPagesFromInput(t *testing.T) {
	capture, err := pb.Sample("capture")
	if err != nil {
		t.Fatal(err)
	}
	// A page that is also /S /SPS: with an /ID, scanObjects takes it for
	// a content set.
	b := pb.New()
	pagesRoot, _ := b.PageTree(2, func(i int) pb.Dict { return pb.D("S", pb.Name("SPS")) })
	b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", pagesRoot))
	setLike := b.Bytes()
	for _, tc := range []struct {
		name   string
		in     []byte
		noDoc  bool                                       // Document is not called
		change func(t *testing.T, u *Update, d *Document) // d: nil with noDoc
		taken  bool
	}{
		{"every page an /ID", plain(3, false), false, func(t *testing.T, u *Update, d *Document) {
			for i, p := range d.Pages {
				must(t, u.SetID(p.Ref, webcapture.RawID([]byte{'p', byte('0' + i), 0, 0xff})))
			}
		}, true},
		{"every page an /ID, object streams", plain(3, true), false, func(t *testing.T, u *Update, d *Document) {
			for _, p := range d.Pages {
				must(t, u.SetID(p.Ref, "0123456789abcdef"))
			}
		}, true},
		{"an /ID removed", capture, false, func(t *testing.T, u *Update, d *Document) {
			if d.Pages[0].ID == nil {
				t.Fatal("the sample's first page has no /ID")
			}
			must(t, u.SetID(d.Pages[0].Ref, ""))
		}, true},
		{"images and pages given /IDs", capture, false, func(t *testing.T, u *Update, d *Document) {
			if len(d.Images) == 0 || len(d.Pages) == 0 {
				t.Fatal("the sample has no image or no page")
			}
			must(t, u.SetID(d.Images[0].Ref, "image id........"))
			must(t, u.SetID(d.Pages[0].Ref, "page id........."))
		}, true},
		{"a page that looks like a page set given an /ID", setLike, false, func(t *testing.T, u *Update, d *Document) {
			must(t, u.SetID(d.Pages[0].Ref, "0123456789abcdef"))
		}, true},
		{"the catalog edited", plain(2, false), false, func(t *testing.T, u *Update, d *Document) {
			u.SetPageMode("UseOutlines")
			must(t, u.SetID(d.Pages[0].Ref, "0123456789abcdef"))
		}, true},
		// Must fall back: the walk reads what the plan does not describe.
		{"Document not read", plain(2, false), true, func(t *testing.T, u *Update, _ *Document) {
			must(t, u.SetID(webcapture.Ref{Num: 3}, "0123456789abcdef"))
		}, false},
		{"an /ID on an object that is not a page", plain(2, false), false, func(t *testing.T, u *Update, d *Document) {
			must(t, u.SetID(refOf(*u.ctx.XRefTable.Root), "0123456789abcdef"))
		}, false},
		{"a page tree node replaced", plain(2, false), false, func(t *testing.T, u *Update, d *Document) {
			cat, err := u.ctx.XRefTable.Catalog()
			if err != nil {
				t.Fatal(err)
			}
			ref := cat["Pages"].(types.IndirectRef)
			node, err := u.dictAt(ref)
			if err != nil {
				t.Fatal(err)
			}
			node = copyDict(node)
			node["Rotate"] = types.Integer(90)
			u.replace(ref, node)
		}, false},
		{"pages appended", plain(2, false), false, func(t *testing.T, u *Update, d *Document) {
			if _, _, err := u.AppendPages(plain(1, false), "more.pdf"); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"every page an /ID, then a stream written", plain(3, false), false, func(t *testing.T, u *Update, d *Document) {
			for _, p := range d.Pages {
				must(t, u.SetID(p.Ref, "0123456789abcdef"))
			}
			u.add(types.StreamDict{Dict: types.Dict{"Type": types.Name("XObject"), "Subtype": types.Name("Form")}, Raw: []byte{}, Content: []byte{}})
		}, false},
		{"a stream written", plain(2, false), false, func(t *testing.T, u *Update, d *Document) {
			u.add(types.StreamDict{Dict: types.Dict{"Type": types.Name("XObject"), "Subtype": types.Name("Image")}, Raw: []byte{}, Content: []byte{}})
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, err := NewUpdate(tc.in, "in.pdf", Options{})
			if err != nil {
				t.Fatal(err)
			}
			var d *Document
			if !tc.noDoc {
				if d, err = u.Document(); err != nil {
					t.Fatal(err)
				}
			}
			tc.change(t, u, d)
			got, _ := resultAndRead(t, u, "out.pdf")
			if u.parsedWhole {
				t.Fatal("the output was parsed whole")
			}
			if p := &u.plan.pages; p.taken != tc.taken {
				t.Errorf("pages taken from the input's Document: %v (%q), want %v", p.taken, p.why, tc.taken)
			}
			// (capture's pages hold real numbers: the writer cannot vouch
			// for their bytes, and Result parses them. A page that looks
			// like a set is left as written.)
			if p := &u.plan.pages; p.taken && !bytes.Equal(tc.in, capture) && !bytes.Equal(tc.in, setLike) && p.left != len(p.ids) {
				t.Errorf("%d pages left as read in the table, want the %d SetID gave an /ID", p.left, len(p.ids))
			}
			if p := &u.plan.pages; bytes.Equal(tc.in, setLike) && (p.left != 0 || len(got.Sets) != 1 || !got.Sets[0].Orphan) {
				t.Errorf("%d pages left as read, %d sets, want none left and the page read as an orphan set", p.left, len(got.Sets))
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
