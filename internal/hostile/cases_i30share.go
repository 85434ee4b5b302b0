package hostile

import (
	"bytes"
	"fmt"
	"time"
)

// Issue 30, reading within the answer (pdfio/objshare.go): a read's
// parser keeps one value for the equal arrays and dictionaries inside
// objects and for equal stream dictionaries, and strings without a copy.
// A file of many pages whose every /Resources, /MediaBox and content
// stream dictionary are equal is read in less memory than before; one
// whose every such value differs (nothing to share, every slot of the
// share replaced) reads in no more than before, with the same answer.

// samePages is a classic file of n pages, each with a /Resources
// dictionary, a /MediaBox and a content stream; distinct: each page's
// differ (a font of its own, a box of its own, a stream of its own
// length), else they are all equal.
func samePages(n int, distinct bool) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offs := make([]int, 3+2*n)
	obj := func(num int, format string, args ...any) {
		offs[num] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n", num)
		fmt.Fprintf(&b, format, args...)
		b.WriteString("\nendobj\n")
	}
	obj(1, "<< /Type /Catalog /Pages 2 0 R >>")
	var kids bytes.Buffer
	for i := range n {
		fmt.Fprintf(&kids, "%d 0 R ", 3+2*i)
	}
	obj(2, "<< /Type /Pages /Count %d /Kids [%s] >>", n, kids.String())
	for i := range n {
		font, box, text := "F1", 792, "BT ET"
		if distinct {
			font, box, text = fmt.Sprintf("F%d", i), 792+i%1000, fmt.Sprintf("BT %d ET", i)
		}
		obj(3+2*i, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 %d] /Resources << /Font << /%s << /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Name /%s >> >> /ProcSet [/PDF /Text] >> /Contents %d 0 R >>",
			box, font, font, 4+2*i)
		obj(4+2*i, "<< /Length %d >>\nstream\n%s\nendstream", len(text), text)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offs))
	for _, off := range offs[1:] {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offs), xref)
	return b.Bytes()
}

func init() {
	const pages = 40000
	Register(
		Case{
			Name:   "read-equal-page-values-info",
			Part:   Bounds,
			Setup:  lazyFile("same.pdf", func() []byte { return samePages(pages, false) }, "info", "--json", "same.pdf"),
			Exit:   0,
			Stdout: []string{`"pages":40000`},
			// (Now 0.28-0.33 s CPU, 80-81 MiB.)
			MaxCPU: 5 * time.Second, MaxRSS: 112 << 20,
			Before: "exit 0 in 0.51-0.57 s CPU, 148-150 MiB (/work/webcap-old info --json same.pdf, a 13 MB file of 40,000 pages with equal /Resources, /MediaBox and content stream dictionaries)",
		},
		Case{
			Name:   "read-distinct-page-values-info",
			Part:   Bounds,
			Setup:  lazyFile("distinct.pdf", func() []byte { return samePages(pages, true) }, "info", "--json", "distinct.pdf"),
			Exit:   0,
			Stdout: []string{`"pages":40000`},
			// (Now 0.54-0.57 s CPU, 131-133 MiB.)
			MaxCPU: 5 * time.Second, MaxRSS: 150 << 20,
			Before: "exit 0 in 0.51-0.58 s CPU, 149-150 MiB (/work/webcap-old info --json distinct.pdf: the same file with each page's /Resources, /MediaBox and stream dictionary its own)",
		},
	)
}
