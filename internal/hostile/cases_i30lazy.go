package hostile

import (
	"bytes"
	"fmt"
	"time"
)

// Issue 30, the lazy reader (pdfio/lazy.go): the file's own structure
// read from its bytes, each object parsed where the cross-reference data
// puts it. Whatever is odd there must read no worse than through
// pdfcpu's ReadContext and its repairs: these files each lead the lazy
// reader to give up and fall back, or (two sections) to read what pdfcpu
// reads, and their verdict is the one the session-start binary gave.

// lazyObjects are the objects of a one-page capture: a catalog with
// SpiderInfo and an IDS tree, the page tree, the page, its content set.
var lazyObjects = map[int]string{
	1: "<< /Type /Catalog /Pages 2 0 R /Names << /IDS 4 0 R >> /SpiderInfo << /V 1.25 >> >>",
	2: "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
	3: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /ID <00112233445566778899AABBCCDDEEFF> >>",
	4: "<< /Names [<00112233445566778899AABBCCDDEEFF> 5 0 R] >>",
	5: "<< /Type /SpiderContentSet /S /SPS /ID <00112233445566778899AABBCCDDEEFF> /O [3 0 R] " +
		"/SI << /AU (http://example.com/) /TS (D:20260101000000Z) >> /CT (text/html) /T (Original title) >>",
}

// lazyClassic writes objs with a classic table; at changes an object's
// entry (its offset, given the offsets of all), after the objects are
// written. extra, when not empty, is appended as an update: its objects,
// a table of them alone, and a trailer with /Prev.
func lazyClassic(objs map[int]string, at func(offs map[int]int) map[int]int, extra map[int]string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	n := len(objs)
	offs := map[int]int{}
	for i := 1; i <= n; i++ {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i, objs[i])
	}
	if at != nil {
		offs = at(offs)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", n+1)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%010d 00000 n \n", offs[i])
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", n+1, xref)
	if len(extra) == 0 {
		return b.Bytes()
	}
	upd := map[int]int{}
	for num, o := range extra {
		upd[num] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", num, o)
	}
	x2 := b.Len()
	b.WriteString("xref\n")
	for num := range n + 1 {
		if off, ok := upd[num]; ok {
			fmt.Fprintf(&b, "%d 1\n%010d 00000 n \n", num, off)
		}
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R /Prev %d >>\nstartxref\n%d\n%%%%EOF\n", n+1, xref, x2)
	return b.Bytes()
}

// lazyObjStmSelf writes the capture with a cross-reference stream and the
// content set in an object stream (6) whose own entry says it is object 0
// of itself: an object stream referenced from itself.
func lazyObjStmSelf() []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offs := map[int]int{}
	for i := 1; i <= 4; i++ {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i, lazyObjects[i])
	}
	head := "5 0 "
	body := head + lazyObjects[5]
	offs[6] = b.Len()
	fmt.Fprintf(&b, "6 0 obj\n<< /Type /ObjStm /N 1 /First %d /Length %d >>\nstream\n%s\nendstream\nendobj\n", len(head), len(body), body)
	xref := b.Len()
	var entries xrefRows
	entries.add(0, 0, 65535)
	for i := 1; i <= 4; i++ {
		entries.add(1, uint32(offs[i]), 0)
	}
	entries.add(2, 6, 0) // 5: object 0 of stream 6
	entries.add(2, 6, 0) // 6: object 0 of itself
	entries.add(1, uint32(xref), 0)
	fmt.Fprintf(&b, "7 0 obj\n<< /Type /XRef /Size 8 /W [1 4 2] /Root 1 0 R /Length %d >>\nstream\n", entries.Len())
	b.Write(entries.Bytes())
	fmt.Fprintf(&b, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", xref)
	return b.Bytes()
}

// lazyFile is a Setup writing b as name and running webcap with args.
func lazyFile(name string, b func() []byte, args ...string) func(dir string) ([]string, func(), error) {
	return func(dir string) ([]string, func(), error) {
		return args, nil, Write(dir, name, b())
	}
}

func init() {
	Register(
		Case{
			Name:  "lazy-objstm-self-info",
			Part:  Bounds,
			Setup: lazyFile("self.pdf", lazyObjStmSelf, "info", "self.pdf"),
			Exit:  4,
			// pdfcpu's verdict, as before: the lazy reader gives up on
			// an object stream whose own entry is compressed, and
			// pdfcpu's ReadContext panics on it (recovered by pdfio:
			// "cannot be parsed", an internal error's exit 4).
			Stderr: []string{`^webcap: info: self\.pdf: cannot be parsed: pdfcpu panicked`},
			MaxCPU: 2 * time.Second, MaxRSS: 200 << 20,
			Before: "exit 4 \"self.pdf: cannot be parsed: pdfcpu panicked: runtime error: invalid memory address or nil pointer dereference\" in 0.01 s CPU, 21 MB (/work/webcap-old info self.pdf)",
		},
		Case{
			Name: "lazy-xref-into-object-audit",
			Part: Bounds,
			// Object 4's entry points 10 bytes into object 3.
			Setup: lazyFile("mid.pdf", func() []byte {
				return lazyClassic(lazyObjects, func(offs map[int]int) map[int]int { offs[4] = offs[3] + 10; return offs }, nil)
			}, "audit", "--in-process", "mid.pdf"),
			Exit:   1,
			Stdout: []string{`^mid\.pdf: error WC-PDF-OFFSET object 4 0 R: not well-formed: the cross-reference data puts object 4 0 R at offset \d+, where no "4 0 obj" begins; it was found at offset \d+, and read from there`},
			MaxCPU: 2 * time.Second, MaxRSS: 200 << 20,
			Before: "exit 1, WC-PDF-OFFSET \"puts object 4 0 R at offset 181, where no \\\"4 0 obj\\\" begins; it was found at offset 281\" in 0.01 s CPU, 22 MB (/work/webcap-old audit --in-process mid.pdf)",
		},
		Case{
			Name: "lazy-offset-past-end-audit",
			Part: Bounds,
			// Object 5's entry points a megabyte past the end.
			Setup: lazyFile("past.pdf", func() []byte {
				return lazyClassic(lazyObjects, func(offs map[int]int) map[int]int { offs[5] = 1 << 20; return offs }, nil)
			}, "audit", "--in-process", "past.pdf"),
			Exit:   1,
			Stdout: []string{`^past\.pdf: error WC-PDF-OFFSET object 5 0 R: not well-formed: the cross-reference data puts object 5 0 R at offset 1048576, where no "5 0 obj" begins; it was found at offset \d+, and read from there`},
			MaxCPU: 2 * time.Second, MaxRSS: 200 << 20,
			Before: "exit 1, WC-PDF-OFFSET \"puts object 5 0 R at offset 1048576, where no \\\"5 0 obj\\\" begins; it was found at offset 352\" in 0.01 s CPU, 22 MB (/work/webcap-old audit --in-process past.pdf)",
		},
		Case{
			Name: "lazy-object-in-two-sections-info",
			Part: Bounds,
			// An update gives object 5 (the content set) a new title: the
			// newest section's entry is the one read.
			Setup: lazyFile("two.pdf", func() []byte {
				set := bytes.ReplaceAll([]byte(lazyObjects[5]), []byte("Original title"), []byte("Updated title"))
				return lazyClassic(lazyObjects, nil, map[int]string{5: string(set)})
			}, "info", "--json", "two.pdf"),
			Exit:      0,
			Stdout:    []string{`Updated title`},
			NotStdout: []string{`Original title`},
			MaxCPU:    2 * time.Second, MaxRSS: 200 << 20,
			Before: "exit 0, title \"Updated title\" (the newest section's object 5) in 0.01 s CPU, 21 MB (/work/webcap-old info --json two.pdf)",
		},
	)
}
