package hostile

import (
	"bufio"
	"crypto/md5"
	"fmt"
	"os"
	"sort"
)

// writeLargeCapture writes to path a sound capture of n pages, each its
// own page set, with IDS and URLS trees of 64-entry leaves: the shape of
// pdfbuild.Big (without content streams or object streams), written as it
// is made. pdfbuild.Big builds the file in memory, 17 times its size,
// which would raise the high-water mark of the test process's resident
// set; and Linux counts that mark in the peak a child's rusage reports
// (a child started with CLONE_VM inherits it at exec), so every case
// measured after it would seem to take as much. This writer holds only
// the keys and the offsets.
func writeLargeCapture(path string, n int) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	w := &pdfWriter{w: bufio.NewWriterSize(f, 1<<16)}
	w.printf("%%PDF-1.6\n%%\xe2\xe3\xcf\xd3\n")
	// Objects: 1 the page tree, 2 the catalog, 3 the Names dictionary,
	// then a page and its set per page, then the trees' leaves and roots.
	const pages, catalog, names, first = 1, 2, 3, 4
	type entry struct {
		key string // the tree key, as written (hex or literal)
		set int
	}
	ids := make([]entry, 0, n)
	urls := make([]entry, 0, n)
	for i := range n {
		sum := md5.Sum([]byte(fmt.Sprintf("page %d", i)))
		id := fmt.Sprintf("<%X>", sum)
		page, set := first+2*i, first+2*i+1
		w.object(page, "<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /ID %s /PZ 1.33 >>", pages, id)
		url := fmt.Sprintf("(http://www.example.com/site/page%07d.html)", i)
		w.object(set, "<< /S /SPS /ID %s /O [%d 0 R] /SI << /AU %s /TS (D:20150402085105Z) >> /CT (text/html) /TS (D:20150402085105Z) /T (Page %d) >>",
			id, page, url, i)
		ids = append(ids, entry{id, set})
		urls = append(urls, entry{url, set})
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i].key < ids[j].key }) // same-length upper-case hex: byte order
	next := first + 2*n
	tree := func(es []entry) int {
		var kids []int
		for lo := 0; lo < len(es); lo += 64 {
			leaf := es[lo:min(lo+64, len(es))]
			w.printObj(next, "<< /Limits [%s %s] /Names [", leaf[0].key, leaf[len(leaf)-1].key)
			for _, e := range leaf {
				w.printf("%s %d 0 R ", e.key, e.set)
			}
			w.printf("] >>\nendobj\n")
			kids = append(kids, next)
			next++
		}
		w.printObj(next, "<< /Kids [")
		for _, k := range kids {
			w.printf("%d 0 R ", k)
		}
		w.printf("] >>\nendobj\n")
		next++
		return next - 1
	}
	idsRoot, urlsRoot := tree(ids), tree(urls)
	w.object(names, "<< /IDS %d 0 R /URLS %d 0 R >>", idsRoot, urlsRoot)
	w.object(catalog, "<< /Type /Catalog /Pages %d 0 R /Names %d 0 R /SpiderInfo << /V 1.25 >> >>", pages, names)
	w.printObj(pages, "<< /Type /Pages /Count %d /Kids [", n)
	for i := range n {
		w.printf("%d 0 R ", first+2*i)
	}
	w.printf("] >>\nendobj\n")
	xref := w.n
	w.printf("xref\n0 %d\n0000000000 65535 f\r\n", next)
	for num := 1; num < next; num++ {
		w.printf("%010d 00000 n\r\n", w.offsets[num])
	}
	w.printf("trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n", next, catalog, xref)
	if w.err != nil {
		return w.err
	}
	return w.w.Flush()
}

// pdfWriter writes a PDF's objects and keeps their offsets.
type pdfWriter struct {
	w       *bufio.Writer
	n       int64
	offsets map[int]int64
	err     error
}

func (w *pdfWriter) printf(format string, args ...any) {
	if w.err != nil {
		return
	}
	k, err := fmt.Fprintf(w.w, format, args...)
	w.n += int64(k)
	w.err = err
}

// printObj begins object num, and writes the start of its value.
func (w *pdfWriter) printObj(num int, format string, args ...any) {
	if w.offsets == nil {
		w.offsets = map[int]int64{}
	}
	w.offsets[num] = w.n
	w.printf("%d 0 obj\n", num)
	w.printf(format, args...)
}

// object writes object num whole.
func (w *pdfWriter) object(num int, format string, args ...any) {
	w.printObj(num, format, args...)
	w.printf("\nendobj\n")
}
