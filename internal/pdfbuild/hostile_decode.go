package pdfbuild

import (
	"bytes"
	"crypto/md5"
	"fmt"
	"regexp"
	"sort"
	"strconv"
)

// sharedCommandParams is a capture whose SpiderInfo lists 400 commands,
// every one posting the same /P stream: 60 KB in the file that inflate
// to 60 MiB. A reader that inflates it once per command, and keeps each
// copy, holds 400 of them.
func sharedCommandParams() []byte {
	b := New()
	pagesRoot, _ := b.PageTree(1, nil)
	p := b.Add(&Stream{Dict: D("Filter", Name("FlateDecode")), Data: bomb(nil, 60<<20, 'a', nil)})
	cmds := make(Array, 0, 400)
	for i := range 400 {
		cmds = append(cmds, b.Add(D("URL", Lit(fmt.Sprintf("http://www.example.com/form%03d", i)), "P", p)))
	}
	b.Root = b.Add(D("Type", Name("Catalog"), "Pages", pagesRoot, "SpiderInfo", D("V", 1.25, "C", cmds)))
	return b.Bytes()
}

// hugeObjectStreams is a capture of 16 page sets, each the one object of
// an object stream that inflates to 500 MiB (white space, then the set):
// under pdfcpu's default limit of 512 MiB a stream, 8 GiB in all, from a
// file of 8 MB.
func hugeObjectStreams() []byte { return ObjectStreamsOf(16, 500<<20) }

// ObjectStreamsOf builds the "huge-object-streams" sample with n object
// streams of pad bytes of white space each (the tests' smaller ones).
func ObjectStreamsOf(n int, pad int64) []byte { return objectStreams(n, pad, 0) }

// hugeXRefStream is a capture of one page set whose cross-reference
// stream inflates to 500 MiB: its entries, then zeros (free entries past
// its /Size), from a file of 500 KB.
func hugeXRefStream() []byte { return objectStreams(1, 16, 500<<20) }

// objectStreams is ObjectStreamsOf with xrefPad zero bytes after the
// cross-reference stream's entries (deflated when there are any).
func objectStreams(n int, pad, xrefPad int64) []byte {
	var w bytes.Buffer
	w.WriteString("%PDF-1.7\n%\xE2\xE3\xCF\xD3\n")
	const (
		catalog, pages, ids, page = 1, 2, 3, 4
		firstSet                  = 10
	)
	firstStm := firstSet + n
	size := firstStm + n + 1 // and the cross-reference stream
	offsets := make([]int, size)
	obj := func(num int, v any) {
		offsets[num] = w.Len()
		fmt.Fprintf(&w, "%d 0 obj\n", num)
		writeValue(&w, v)
		w.WriteString("\nendobj\n")
	}
	order := make([]int, n) // sets by key: a well-formed tree
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return setID(order[a]) < setID(order[b]) })
	names := Array{}
	for _, i := range order {
		names = append(names, Hex(setID(i)), Ref(firstSet+i))
	}
	obj(catalog, D("Type", Name("Catalog"), "Pages", Ref(pages), "Names", D("IDS", Ref(ids)), "SpiderInfo", D("V", 1.25)))
	obj(pages, D("Type", Name("Pages"), "Kids", Array{Ref(page)}, "Count", 1))
	obj(ids, D("Names", names))
	obj(page, D("Type", Name("Page"), "Parent", Ref(pages), "MediaBox", Array{0, 0, 612, 792}))
	for i := range n {
		var set bytes.Buffer
		writeValue(&set, D("S", Name("SPS"), "ID", Hex(setID(i)), "O", Array{Ref(page)},
			"SI", D("AU", Lit(fmt.Sprintf("http://www.example.com/%02d.html", i)))))
		prolog := []byte(fmt.Sprintf("%d %d\n", firstSet+i, pad))
		obj(firstStm+i, &Stream{Dict: D("Type", Name("ObjStm"), "N", 1, "First", len(prolog), "Filter", Name("FlateDecode")),
			Data: bomb(prolog, pad, ' ', set.Bytes())})
	}
	xref := size - 1
	offsets[xref] = w.Len()
	var data bytes.Buffer
	for num := range size {
		switch {
		case num >= firstSet && num < firstStm:
			data.Write([]byte{2, 0, 0, byte(firstStm + num - firstSet), 0})
		case offsets[num] > 0:
			data.Write([]byte{1, byte(offsets[num] >> 16), byte(offsets[num] >> 8), byte(offsets[num]), 0})
		default:
			data.Write([]byte{0, 0, 0, 0, 0})
		}
	}
	fmt.Fprintf(&w, "%d 0 obj\n", xref)
	xs := &Stream{Dict: D("Type", Name("XRef"), "W", Array{1, 3, 1}, "Size", size, "Root", Ref(catalog)), Data: data.Bytes()}
	if xrefPad > 0 {
		xs = &Stream{Dict: D("Type", Name("XRef"), "W", Array{1, 3, 1}, "Size", size, "Root", Ref(catalog), "Filter", Name("FlateDecode")),
			Data: bomb(data.Bytes(), xrefPad, 0, nil)}
	}
	writeValue(&w, xs)
	fmt.Fprintf(&w, "\nendobj\nstartxref\n%d\n%%%%EOF\n", offsets[xref])
	return w.Bytes()
}

func setID(i int) string {
	s := md5.Sum([]byte(fmt.Sprintf("set %d", i)))
	return string(s[:])
}

// prevLoop is the sample capture with an incremental update (its
// /SpiderInfo again, with /V 1.0 for 1.25) whose cross-reference section's /Prev leads back to the
// original's, whose /Prev leads to the update's: a loop, which qpdf reads
// (each section once) and a reader that follows /Prev blindly never
// leaves.
func prevLoop() []byte {
	base := sampleCapture()
	start := lastStartXRefOf(base)
	// The original's trailer gets a /Prev to the update's section, whose
	// offset is known once the update is laid out: written with ten
	// digits, the number does not change the length.
	base = bytes.Replace(base, []byte("trailer\n<<"), []byte("trailer\n<</Prev 0000000000 "), 1)
	var upd bytes.Buffer
	info := regexp.MustCompile(`/SpiderInfo (\d+) 0 R`).FindSubmatch(base)
	num, _ := strconv.Atoi(string(info[1]))
	old := regexp.MustCompile(fmt.Sprintf(`(?s)\n%d 0 obj\n(.*?)\nendobj`, num)).FindSubmatch(base)
	at := len(base) + upd.Len()
	fmt.Fprintf(&upd, "%d 0 obj\n%s\nendobj\n", num, bytes.Replace(old[1], []byte("/V 1.25"), []byte("/V 1.0"), 1))
	xref := len(base) + upd.Len()
	fmt.Fprintf(&upd, "xref\n0 1\n0000000000 65535 f \n%d 1\n%010d 00000 n \ntrailer\n", num, at)
	root := regexp.MustCompile(`/Root (\d+) 0 R`).FindSubmatch(base)
	size := regexp.MustCompile(`/Size (\d+)`).FindSubmatch(base)
	fmt.Fprintf(&upd, "<</Size %s /Root %s 0 R /Prev %d>>\nstartxref\n%d\n%%%%EOF\n", size[1], root[1], start, xref)
	base = bytes.Replace(base, []byte("/Prev 0000000000"), []byte(fmt.Sprintf("/Prev %010d", xref)), 1)
	return append(base, upd.Bytes()...)
}

// prevSelf is the sample capture whose one cross-reference section's
// /Prev is its own offset.
func prevSelf() []byte {
	base := sampleCapture()
	start := lastStartXRefOf(base)
	return bytes.Replace(base, []byte("trailer\n<<"), []byte(fmt.Sprintf("trailer\n<</Prev %d ", start)), 1)
}

func lastStartXRefOf(b []byte) int {
	i := bytes.LastIndex(b, []byte("startxref\n"))
	f := bytes.Fields(b[i+len("startxref\n"):])
	n, _ := strconv.Atoi(string(f[0]))
	return n
}

// HugeObject builds a capture whose URLS tree is one leaf of keys entries
// written as one object of more than 64 MiB (at 2,000,000 keys, 90 MB),
// beyond pdfcpu's buffer for an object. It is not a Hostile sample: it
// takes seconds to read, and the suites that read every hostile sample
// would take minutes.
func HugeObject(keys int) []byte {
	b := New()
	pagesRoot, pages := b.PageTree(1, nil)
	cs := b.Add(D("S", Name("SPS"), "O", Array{pages[0]}, "SI", D("AU", Lit("http://www.example.com/"))))
	var names bytes.Buffer
	names.WriteString("<</Names [")
	for i := range keys {
		fmt.Fprintf(&names, "(http://www.example.com/%08d.html) %d 0 R\n", i, cs)
	}
	names.WriteString("]>>")
	urls := b.Add(Raw(names.String()))
	b.Root = b.Add(D("Type", Name("Catalog"), "Pages", pagesRoot, "Names", D("URLS", urls), "SpiderInfo", D("V", 1.25)))
	return b.Bytes()
}

// hugeXRefSize is a one-page file whose cross-reference stream declares
// 10,000,000 entries (pdfcpu's own limit), all but the first few free: 50
// KB in the file, a table of ten million entries in a reader that makes one
// per entry.
func hugeXRefSize() []byte {
	const size = 10_000_000
	var w bytes.Buffer
	w.WriteString("%PDF-1.7\n%\xE2\xE3\xCF\xD3\n")
	offsets := []int{0}
	obj := func(v any) {
		offsets = append(offsets, w.Len())
		fmt.Fprintf(&w, "%d 0 obj\n", len(offsets)-1)
		writeValue(&w, v)
		w.WriteString("\nendobj\n")
	}
	obj(D("Type", Name("Catalog"), "Pages", Ref(2)))
	obj(D("Type", Name("Pages"), "Kids", Array{Ref(3)}, "Count", 1))
	obj(D("Type", Name("Page"), "Parent", Ref(2), "MediaBox", Array{0, 0, 612, 792}))
	xref := w.Len()
	var head bytes.Buffer
	head.Write([]byte{0, 0, 0, 0, 0})
	for _, off := range offsets[1:] {
		head.Write([]byte{1, byte(off >> 16), byte(off >> 8), byte(off), 0})
	}
	self := []byte{1, byte(xref >> 16), byte(xref >> 8), byte(xref), 0}
	free := int64(size-len(offsets)-1) * 5
	fmt.Fprintf(&w, "%d 0 obj\n", size-1)
	writeValue(&w, &Stream{Dict: D("Type", Name("XRef"), "W", Array{1, 3, 1}, "Size", size, "Root", Ref(1), "Filter", Name("FlateDecode")),
		Data: bomb(head.Bytes(), free, 0, self)})
	fmt.Fprintf(&w, "\nendobj\nstartxref\n%d\n%%%%EOF\n", xref)
	return w.Bytes()
}
