package hostile

import (
	"bytes"
	"fmt"
	"time"
)

// Issue 30, the lazy reader's object streams and sections (pdfio/lazy.go):
// the header of an object stream read by the lazy reader itself, an
// object found in its stream through a table of each stream's objects,
// and a section's entries made in one allocation for the whole section.
// An object stream that lies about itself, an entry past its stream's
// objects, object streams inside each other, an entry into a stream's
// data, a subsection that claims more entries than the file holds and a
// file whose startxref pdfcpu does not take must each read no worse than through pdfcpu's ReadContext: the same
// verdict as the session-start binary, in bounded time and memory.

// objStm is a capture (lazyObjects) whose content set (5) is in an
// object stream (6), with a cross-reference stream: head is the stream's
// header of numbers and offsets, dict what its dictionary says besides
// its /Type and /Length (/N, /First), and entries the type, field 2 and
// field 3 of objects 5 to 7 (nil: 5 is object 0 of 6, 6 is at its
// offset, 7 is a second object stream holding nothing).
type objStm struct {
	head, dict string
	entries    map[int][3]int
	noEOF      bool // the file ends after startxref's offset, without %%EOF
}

func (s objStm) bytes() []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offs := map[int]int{}
	for i := 1; i <= 4; i++ {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i, lazyObjects[i])
	}
	body := s.head + lazyObjects[5]
	offs[6] = b.Len()
	fmt.Fprintf(&b, "6 0 obj\n<< /Type /ObjStm %s /Length %d >>\nstream\n%s\nendstream\nendobj\n", s.dict, len(body), body)
	other := "9 0 null"
	offs[7] = b.Len()
	fmt.Fprintf(&b, "7 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Length %d >>\nstream\n%s\nendstream\nendobj\n", len(other), other)
	xref := b.Len()
	var e xrefRows
	e.add(0, 0, 65535)
	for i := 1; i <= 4; i++ {
		e.add(1, uint32(offs[i]), 0)
	}
	for i := 5; i <= 7; i++ {
		f, ok := s.entries[i]
		switch {
		case ok:
			e.add(byte(f[0]), uint32(f[1]), uint16(f[2]))
		case i == 5:
			e.add(2, 6, 0)
		default:
			e.add(1, uint32(offs[i]), 0)
		}
	}
	e.add(1, uint32(xref), 0)
	fmt.Fprintf(&b, "8 0 obj\n<< /Type /XRef /Size 9 /W [1 4 2] /Root 1 0 R /Length %d >>\nstream\n", e.Len())
	b.Write(e.Bytes())
	fmt.Fprintf(&b, "\nendstream\nendobj\nstartxref\n%d", xref)
	if !s.noEOF {
		b.WriteString("\n%%EOF\n")
	}
	return b.Bytes()
}

// intoStream is the capture with a classic table and a content stream (6)
// whose data holds the text of an object 4 other than the file's: object
// 4's entry points into the stream's data, at that text.
func intoStream() []byte {
	objs := map[int]string{}
	for n, o := range lazyObjects {
		objs[n] = o
	}
	fake := "4 0 obj\n<< /Names [<FFEEDDCCBBAA99887766554433221100> 5 0 R] >>\nendobj\n"
	objs[6] = fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(fake), fake)
	return lazyClassic(objs, func(offs map[int]int) map[int]int {
		// (lazyClassic writes "6 0 obj\n" and the dictionary's line first)
		offs[4] = offs[6] + len("6 0 obj\n") + len(fmt.Sprintf("<< /Length %d >>\nstream\n", len(fake)))
		return offs
	}, nil)
}

// countLies is the capture with a classic table whose one subsection
// says it holds 999,999,999 entries.
func countLies() []byte {
	b := lazyClassic(lazyObjects, nil, nil)
	return bytes.Replace(b, []byte("xref\n0 6\n"), []byte("xref\n0 999999999\n"), 1)
}

func init() {
	one := "5 0 "
	set := fmt.Sprintf("%d", len(one))
	Register(
		Case{
			Name: "lazy-objstm-n-lies-info",
			Part: Bounds,
			// The object stream says /N 5; its header lists one object.
			Setup:  lazyFile("n.pdf", objStm{head: one, dict: "/N 5 /First " + set}.bytes, "info", "--json", "n.pdf"),
			Exit:   0,
			Stdout: []string{`Original title`},
			MaxCPU: 2 * time.Second, MaxRSS: 200 << 20,
			Before: "exit 0, the set read (\"Original title\") in 0.01 s CPU, 21 MB (/work/webcap-old info --json n.pdf)",
		},
		Case{
			Name: "lazy-objstm-first-lies-audit",
			Part: Bounds,
			// /First is past the end of the stream's data.
			Setup: lazyFile("first.pdf", objStm{head: one, dict: "/N 1 /First 5000"}.bytes, "audit", "--in-process", "first.pdf"),
			// pdfcpu's verdict, as before (the lazy reader gives up).
			Exit:   4,
			Stdout: []string{`^first\.pdf: unreadable: cannot be parsed: object stream obj#6: parse objects: decode object stream prolog: unexpected EOF`},
			MaxCPU: 2 * time.Second, MaxRSS: 200 << 20,
			Before: "exit 4, \"first.pdf: unreadable: cannot be parsed: object stream obj#6: parse objects: decode object stream prolog: unexpected EOF\" in 0.01 s CPU, 22 MB (/work/webcap-old audit --in-process first.pdf)",
		},
		Case{
			Name: "lazy-objstm-index-past-end-info",
			Part: Bounds,
			// Object 5's entry: object 7 of a stream that holds one.
			Setup: lazyFile("index.pdf", objStm{head: one, dict: "/N 1 /First " + set,
				entries: map[int][3]int{5: {2, 6, 7}}}.bytes, "info", "--json", "index.pdf"),
			// pdfcpu's verdict, as before (the lazy reader gives up).
			Exit:   4,
			Stdout: []string{`"message":"index\.pdf: cannot be parsed: decompressXRefTableEntry: problem dereferencing object stream 6: IndexedObject\(7\): object not available","kind":"invalid"`},
			MaxCPU: 2 * time.Second, MaxRSS: 200 << 20,
			Before: "exit 4, \"index.pdf: cannot be parsed: decompressXRefTableEntry: problem dereferencing object stream 6: IndexedObject(7): object not available\" in 0.01 s CPU, 21 MB (/work/webcap-old info --json index.pdf)",
		},
		Case{
			Name: "lazy-objstm-cycle-info",
			Part: Bounds,
			// Object streams 6 and 7 each say they are in the other.
			Setup: lazyFile("cycle.pdf", objStm{head: one, dict: "/N 1 /First " + set,
				entries: map[int][3]int{6: {2, 7, 0}, 7: {2, 6, 0}}}.bytes, "info", "cycle.pdf"),
			// pdfcpu's verdict, as before: the lazy reader gives up on
			// an object stream whose entry is compressed, and pdfcpu
			// panics on it (recovered: an internal error's exit 4).
			Exit:   4,
			Stderr: []string{`^webcap: info: cycle\.pdf: cannot be parsed: pdfcpu panicked`},
			MaxCPU: 2 * time.Second, MaxRSS: 200 << 20,
			Before: "exit 4, \"cycle.pdf: cannot be parsed: pdfcpu panicked: runtime error: invalid memory address or nil pointer dereference\" in 0.01 s CPU, 21 MB (/work/webcap-old info cycle.pdf)",
		},
		Case{
			Name: "lazy-startxref-without-eof-info",
			Part: Bounds,
			// The file ends "startxref\nN": pdfcpu, wanting %%EOF, does
			// not take N and rebuilds the table from the objects it
			// finds, where the set in the object stream is not; the
			// lazy reader read the set through the cross-reference
			// stream at N, a Document that was not ReadContext's
			// (FuzzLazyParse). It now leaves such a file to pdfcpu.
			Setup: lazyFile("noeof.pdf", objStm{head: one, dict: "/N 1 /First " + set, noEOF: true}.bytes,
				"info", "--json", "noeof.pdf"),
			Exit:      0,
			Stdout:    []string{`"message":"IDS/Names\[1\] refers to object 5 0 R, which (does not exist|cannot be located)`},
			NotStdout: []string{`Original title`},
			MaxCPU:    2 * time.Second, MaxRSS: 200 << 20,
			Before: "exit 0, the set read through the cross-reference stream (\"Original title\", no defect), unlike ReadContext's read, in 0.01 s CPU, 21 MB (/work/webcap-old info --json noeof.pdf)",
		},
		Case{
			Name: "lazy-offset-into-stream-audit",
			Part: Bounds,
			// Object 4's entry points into a content stream's data, at
			// the text of another object 4 (another IDS key).
			Setup: lazyFile("into.pdf", intoStream, "audit", "--in-process", "into.pdf"),
			// Read where the entry says, as pdfcpu reads it: the other
			// key, which the set's /ID contradicts.
			Exit:   1,
			Stdout: []string{`^into\.pdf: error WC-IDS-KEY object 5 0 R /ID: IDS key <FFEEDDCCBBAA99887766554433221100> holds a content set whose /ID is <00112233445566778899AABBCCDDEEFF>`},
			MaxCPU: 2 * time.Second, MaxRSS: 200 << 20,
			Before: "exit 1, WC-IDS-KEY \"IDS key <FFEEDDCCBBAA99887766554433221100> holds a content set whose /ID is <00112233445566778899AABBCCDDEEFF>\" in 0.00 s CPU, 21 MB (/work/webcap-old audit --in-process into.pdf)",
		},
		Case{
			Name: "lazy-subsection-count-lies-info",
			Part: Bounds,
			// "0 999999999": entries for 20 GB of table in a 600-byte
			// file; nothing is allocated for them.
			Setup: lazyFile("count.pdf", countLies, "info", "count.pdf"),
			// pdfcpu's verdict, as before (the lazy reader gives up
			// before it allocates).
			Exit:   4,
			Stderr: []string{`^webcap: info: count\.pdf: cannot be parsed: xref table: incomplete xref subsection`},
			MaxCPU: 2 * time.Second, MaxRSS: 200 << 20,
			Before: "exit 4, \"count.pdf: cannot be parsed: xref table: incomplete xref subsection\" in 0.00 s CPU, 21 MB (/work/webcap-old info count.pdf)",
		},
	)
}
