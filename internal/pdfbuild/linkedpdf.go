package pdfbuild

import (
	"bytes"
	"fmt"
)

// Report builds a plain PDF file such as a site links to: n pages, each
// with a line of text in Helvetica ("<title>, page i of n") and a link
// annotation, and title as its document information's /Title.
func Report(n int, title string) []byte {
	b := New()
	font := b.Add(D("Type", Name("Font"), "Subtype", Name("Type1"), "BaseFont", Name("Helvetica"), "Encoding", Name("WinAnsiEncoding")))
	root := b.Reserve()
	kids := make(Array, 0, n)
	for i := range n {
		text := fmt.Sprintf("BT /F1 14 Tf 72 720 Td (%s, page %d of %d) Tj ET", title, i+1, n)
		content := b.Add(&Stream{Dict: D(), Data: []byte(text)})
		link := b.Add(D("Type", Name("Annot"), "Subtype", Name("Link"), "Rect", Array{72, 700, 300, 740}, "Border", Array{0, 0, 0},
			"A", D("S", Name("URI"), "URI", Lit(fmt.Sprintf("http://www.example.com/report/%d", i+1)))))
		kids = append(kids, b.Add(D("Type", Name("Page"), "Parent", root, "MediaBox", Array{0, 0, 612, 792},
			"Contents", content, "Resources", D("Font", D("F1", font)), "Annots", Array{link})))
	}
	b.Set(root, D("Type", Name("Pages"), "Kids", kids, "Count", n))
	b.Info = b.Add(D("Title", Lit(title), "Producer", Lit("webcap pdfbuild")))
	b.Root = b.Add(D("Type", Name("Catalog"), "Pages", root))
	return b.Bytes()
}

// DeepPages builds a file whose one page is under depth /Pages nodes,
// each the only kid of the one above.
func DeepPages(depth int) []byte {
	b := New()
	top := b.Reserve()
	parent := top
	for range depth - 1 {
		n := b.Reserve()
		b.Set(parent, D("Type", Name("Pages"), "Kids", Array{n}, "Count", 1))
		parent = n
	}
	page := b.Add(D("Type", Name("Page"), "Parent", parent, "MediaBox", Array{0, 0, 612, 792}))
	b.Set(parent, D("Type", Name("Pages"), "Kids", Array{page}, "Count", 1))
	b.Root = b.Add(D("Type", Name("Catalog"), "Pages", top))
	return b.Bytes()
}

// PageBomb builds a file whose one page's dictionary is in an object
// stream that inflates to pad bytes of white space, then the page: a few
// hundred kilobytes for pad = 500 MiB.
func PageBomb(pad int64) []byte {
	var w bytes.Buffer
	w.WriteString("%PDF-1.7\n%\xE2\xE3\xCF\xD3\n")
	const catalog, pages, page, stm, xref, size = 1, 2, 3, 4, 5, 6
	offsets := make([]int, size)
	obj := func(num int, v any) {
		offsets[num] = w.Len()
		fmt.Fprintf(&w, "%d 0 obj\n", num)
		writeValue(&w, v)
		w.WriteString("\nendobj\n")
	}
	obj(catalog, D("Type", Name("Catalog"), "Pages", Ref(pages)))
	obj(pages, D("Type", Name("Pages"), "Kids", Array{Ref(page)}, "Count", 1))
	var pg bytes.Buffer
	writeValue(&pg, D("Type", Name("Page"), "Parent", Ref(pages), "MediaBox", Array{0, 0, 612, 792}))
	prolog := []byte(fmt.Sprintf("%d %d\n", page, pad))
	obj(stm, &Stream{Dict: D("Type", Name("ObjStm"), "N", 1, "First", len(prolog), "Filter", Name("FlateDecode")),
		Data: bomb(prolog, pad, ' ', pg.Bytes())})
	offsets[xref] = w.Len()
	var data bytes.Buffer
	for num := range size {
		switch {
		case num == page:
			data.Write([]byte{2, 0, 0, stm, 0})
		case offsets[num] > 0:
			data.Write([]byte{1, byte(offsets[num] >> 16), byte(offsets[num] >> 8), byte(offsets[num]), 0})
		default:
			data.Write([]byte{0, 0, 0, 0, 0})
		}
	}
	fmt.Fprintf(&w, "%d 0 obj\n", xref)
	writeValue(&w, &Stream{Dict: D("Type", Name("XRef"), "W", Array{1, 3, 1}, "Size", size, "Root", Ref(catalog)), Data: data.Bytes()})
	fmt.Fprintf(&w, "\nendobj\nstartxref\n%d\n%%%%EOF\n", offsets[xref])
	return w.Bytes()
}
