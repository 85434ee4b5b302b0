package hostile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"time"
)

// Issue 30, the memory of reads: a read keeps its cross-reference entries
// in its own compact index (pdfio's centry: 32-bit generations, object
// stream numbers and indexes), in place of pdfcpu's, and keeps pdfcpu's
// where a number does not fit (compactEntries). A cross-reference
// stream's wide fields can give such numbers: a generation of 2^33 reads
// as before; an entry naming object stream 2^33, or index 2^33 of a real
// object stream, is refused by pdfcpu's parse as before.

// wideEntryFile is a page set's capture (catalog, pages, page, IDS leaf,
// set) in object stream 6, its cross-reference stream of W [1 8 8], with
// object 7 a type 2 entry of stream stm, index ind (typ 2), or the
// offset of "7 0 obj (seven) endobj", of generation gen (typ 1).
func wideEntryFile(typ byte, stm, ind, gen uint64) []byte {
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R /Names << /IDS 4 0 R >> /SpiderInfo << /V 1.25 >> >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /ID <00112233445566778899AABBCCDDEEFF> >>",
		"<< /Names [<00112233445566778899AABBCCDDEEFF> 5 0 R] >>",
		edgeSet("Wide"),
	}
	var b, head, body bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	seven := b.Len()
	b.WriteString("7 0 obj\n(seven)\nendobj\n")
	for i, o := range objs {
		fmt.Fprintf(&head, "%d %d ", i+1, body.Len())
		body.WriteString(o + "\n")
	}
	stmOff := b.Len()
	fmt.Fprintf(&b, "6 0 obj\n<< /Type /ObjStm /N %d /First %d /Length %d >>\nstream\n%s%s\nendstream\nendobj\n",
		len(objs), head.Len(), head.Len()+body.Len(), head.String(), body.String())
	xref := b.Len()
	var rows bytes.Buffer
	row := func(typ byte, f2, f3 uint64) {
		var r [17]byte
		r[0] = typ
		binary.BigEndian.PutUint64(r[1:9], f2)
		binary.BigEndian.PutUint64(r[9:17], f3)
		rows.Write(r[:])
	}
	row(0, 0, 65535)
	for i := range objs {
		row(2, 6, uint64(i))
	}
	row(1, uint64(stmOff), 0)
	if typ == 1 {
		row(1, uint64(seven), gen)
	} else {
		row(2, stm, ind)
	}
	row(1, uint64(xref), 0)
	fmt.Fprintf(&b, "8 0 obj\n<< /Type /XRef /Size 9 /W [1 8 8] /Root 1 0 R /Length %d >>\nstream\n", rows.Len())
	b.Write(rows.Bytes())
	fmt.Fprintf(&b, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", xref)
	return b.Bytes()
}

func init() {
	counts := `"counts":\{"contentSets":1,"pageSets":1,"imageSets":0,"orphans":0,"pages":1,"pagesWithID":1,"images":0,"imagesWithID":0,"defects":0\}`
	Register(
		Case{
			Name:   "xref-entry-generation-past-32-bits-info",
			Part:   Bounds,
			Setup:  lazyFile("gen.pdf", func() []byte { return wideEntryFile(1, 0, 0, 1<<33) }, "info", "--json", "gen.pdf"),
			Exit:   0,
			Stdout: []string{counts},
			MaxCPU: 2 * time.Second, MaxRSS: 64 << 20,
			Before: "exit 0, the set on page 1, no defect, in 0.01 s CPU, 21 MB (/work/webcap-old info --json gen.pdf: object 7's entry of generation 2^33); as before now, the same output (22 MB)",
		},
		Case{
			Name:   "xref-entry-stream-past-32-bits-info",
			Part:   Bounds,
			Setup:  lazyFile("stm.pdf", func() []byte { return wideEntryFile(2, 1<<33, 0, 0) }, "info", "--json", "stm.pdf"),
			Exit:   4,
			Stdout: []string{`"error":\{"message":"stm.pdf: cannot be parsed: object stream obj#8589934592: missing object stream xref entry","kind":"invalid"\}`},
			MaxCPU: 2 * time.Second, MaxRSS: 64 << 20,
			Before: "exit 4, invalid (pdfcpu: missing object stream xref entry), in 0.01 s CPU, 21 MB (/work/webcap-old info --json stm.pdf: object 7 in object stream 2^33); as before now, the same output",
		},
		Case{
			Name:   "xref-entry-index-past-32-bits-info",
			Part:   Bounds,
			Setup:  lazyFile("ind.pdf", func() []byte { return wideEntryFile(2, 6, 1<<33, 0) }, "info", "--json", "ind.pdf"),
			Exit:   4,
			Stdout: []string{`"error":\{"message":"ind.pdf: cannot be parsed: decompressXRefTableEntry: problem dereferencing object stream 6: IndexedObject\(8589934592\): object not available","kind":"invalid"\}`},
			MaxCPU: 2 * time.Second, MaxRSS: 64 << 20,
			Before: "exit 4, invalid (pdfcpu: object not available), in 0.01 s CPU, 21 MB (/work/webcap-old info --json ind.pdf: object 7 at index 2^33 of object stream 6, which holds 5); as before now, the same output",
		},
	)
}
