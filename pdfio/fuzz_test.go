package pdfio

import (
	"errors"
	"testing"
	"time"

	pb "github.com/webcap/webcap/internal/pdfbuild"
)

// FuzzRead: any bytes give a Document or an *Error — never a panic, never a
// hang past the deadline — and every defect says where and what.
func FuzzRead(f *testing.F) {
	for _, name := range pb.Samples() {
		b, _ := pb.Sample(name)
		f.Add(b)
	}
	f.Add(capture(variants[4], trickyKeys[:3], 1)) // object streams, deep tree
	f.Add(tree(func(b *pb.Builder, cs pb.Ref) pb.Ref {
		self := b.Reserve()
		b.Set(self, pb.D("Kids", pb.Array{self}))
		return self
	}))
	f.Add([]byte("%PDF-1.7\n"))
	f.Add(outlineSeed()) // an outline and a structure tree, as Acrobat writes them
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		d, err := ReadBytes(data, "fuzz.pdf", Options{Timeout: 5 * time.Second, MaxTreeNodes: 10000})
		if time.Since(start) > 20*time.Second {
			t.Fatalf("read took %v", time.Since(start))
		}
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || pe.File != "fuzz.pdf" {
				t.Fatalf("error %v is not an *Error naming the file", err)
			}
			return
		}
		for _, df := range d.Defects {
			if df.Kind == "" || df.Message == "" || df.Path == "" {
				t.Fatalf("defect without kind, message or path: %+v", df)
			}
		}
		for _, cs := range d.Sets {
			d.PageNumbers(cs)
		}
	})
}

// FuzzAppendPages: printed pages (untagged, and tagged as Chromium tags
// them) appended to any file, with their bookmarks, either fail with an
// error or give a file that reads with the pages added, each tagged page
// with a key of its own; the printed file read with ReadPrinted never
// panics either.
func FuzzAppendPages(f *testing.F) {
	for _, name := range pb.Samples() {
		b, _ := pb.Sample(name)
		f.Add(b)
	}
	orig, _ := nestedFile()
	f.Add(orig)
	f.Add(printedFile())
	f.Add(outlineSeed())
	tagged := taggedPrinted("en", "A", "b", "c")
	f.Add(tagged)
	printed := printedFile()
	f.Fuzz(func(t *testing.T, data []byte) {
		ReadPrinted(data, "fuzz.pdf", Options{Timeout: 5 * time.Second})
		u, err := NewUpdate(data, "fuzz.pdf", Options{Timeout: 5 * time.Second, MaxTreeNodes: 10000})
		if err != nil {
			return
		}
		d, err := u.Document()
		if err != nil {
			return
		}
		if _, _, err := u.AppendPages(printed, "printed.pdf"); err != nil {
			return
		}
		refs, pr, err := u.AppendPages(tagged, "tagged.pdf")
		if err != nil {
			return
		}
		u.AddBookmarks([]*OutlineItem{{Title: "example.com", Kids: []*OutlineItem{{Title: "A", Page: refs[0], SE: pr.Article}}}})
		out, err := u.Bytes()
		if err != nil {
			return
		}
		d2, err := ReadBytes(out, "out.pdf", Options{Timeout: 5 * time.Second, MaxTreeNodes: 10000})
		if err != nil {
			t.Fatalf("the appended file does not read: %v", err)
		}
		if len(d.Defects) == 0 && len(d2.Pages) != len(d.Pages)+4 {
			t.Fatalf("%d pages after appending 4 to %d", len(d2.Pages), len(d.Pages))
		}
		if !pr.Article.IsZero() {
			keys := map[int64]bool{}
			for _, p := range d2.Pages[len(d2.Pages)-4:] {
				if p.StructParents == nil {
					t.Fatalf("appended page %d has no /StructParents", p.Number)
				}
				if keys[*p.StructParents] {
					t.Fatalf("appended pages share /StructParents %d", *p.StructParents)
				}
				keys[*p.StructParents] = true
			}
		}
	})
}

// outlineSeed is webCaptureShape's file.
func outlineSeed() []byte {
	b := pb.New()
	root, pages := b.PageTree(3, func(i int) pb.Dict { return pb.D("StructParents", i) })
	cat, _, _ := webCaptureShape(b, pages)
	b.Root = b.Add(append(pb.D("Type", pb.Name("Catalog"), "Pages", root), cat...))
	return b.Bytes()
}
