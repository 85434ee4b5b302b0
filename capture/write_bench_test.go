package capture

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/internal/pdfcheck"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/record"
)

// linksPDF is Chromium's print of a page of 3,000 visible links
// (http://127.0.0.1:1/p0 to p2999; 5 pages, tagged, 1.9 MB).
func linksPDF(tb testing.TB) []byte {
	tb.Helper()
	f, err := os.Open(filepath.Join("testdata", "links3000.pdf.gz"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// writeLinks is a capture's write phase for n pages, each printed as pdf:
// their merge as the crawl takes them (mergeLinks), the structures, the
// internal links, and the read back of the output that the command
// audits.
func writeLinks(tb testing.TB, pdf []byte, n int) (*Result, *pdfio.Document) {
	k := mergeLinks(tb, pdf, n, Options{}.withDefaults())
	if err := k.mg.write(context.Background(), k.res, k.manifest(), k.sources, k.c, true); err != nil {
		tb.Fatal(err)
	}
	d, err := k.res.Read("capture.pdf")
	if err != nil {
		tb.Fatal(err)
	}
	return k.res, d
}

// kept is what a crawl leaves to write.
type kept struct {
	b       *Browser
	mg      *merger
	res     *Result
	starts  []Start
	items   []Item
	sources fetched
	c       *canon.Canonicalizer
}

func (k *kept) manifest() *record.Manifest {
	return manifest(k.b, k.starts, k.res.Pages, k.items, k.mg.printed, k.mg.opts)
}

// mergeLinks is what the crawl of n pages, each printed as pdf, leaves to
// write: page i is http://127.0.0.1:1/p<i>, which every page links to.
func mergeLinks(tb testing.TB, pdf []byte, n int, opts Options) *kept {
	tb.Helper()
	k := &kept{b: &Browser{Version: "1.0"}, mg: &merger{name: "capture.pdf", opts: opts, page: 1}, res: &Result{First: 1},
		starts: []Start{{URL: "http://127.0.0.1:1/p0", Levels: 2}}, sources: fetched{}}
	for i := range n {
		u := fmt.Sprintf("http://127.0.0.1:1/p%d", i)
		body := []byte("<a href=p1>p1</a>")
		pg := &Page{Requested: u, URL: u, Title: "p", PDF: pdf, Document: &Response{URL: u, Method: "GET", Status: 200,
			Header: http.Header{"Content-Type": {"text/html"}}, Body: body, Fetched: time.Unix(1e9, 0), MainDoc: true}}
		k.sources.put(u, body)
		k.mg.add(pg)
		k.res.Pages = append(k.res.Pages, pg)
		k.items = append(k.items, Item{URL: u, Level: 1 + min(i, 1)})
	}
	var err error
	if k.c, err = canon.New(opts.Profile); err != nil {
		tb.Fatal(err)
	}
	return k
}

// BenchmarkWriteLinks is the write phase of 20 pages of 3,000 visible
// links each (issue 27: 1.24 GB at its peak in a capture).
func BenchmarkWriteLinks(b *testing.B) {
	pdf := linksPDF(b)
	b.ReportAllocs()
	for b.Loop() {
		res, _ := writeLinks(b, pdf, 20)
		b.SetBytes(int64(len(res.PDF)))
	}
}

// A capture's write continues one update from the merge to the links
// (pdfio.Update.Continue), and reads its output back from it: what it
// reads is what a parse of the bytes reads, and the file is sound.
func TestWriteLinks(t *testing.T) {
	pdf := linksPDF(t)
	res, d := writeLinks(t, pdf, 3)
	if len(d.Pages) != 15 || len(d.Sets) != 3 {
		t.Fatalf("%d pages, %d sets; want 15, 3", len(d.Pages), len(d.Sets))
	}
	// Each page links to every page captured: 3 links on each of the 3.
	if res.Links != 9 {
		t.Errorf("%d links made internal, want 9", res.Links)
	}
	want, err := pdfio.ReadBytes(res.PDF, "capture.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("Result.Read differs from ReadBytes:\n got %+v\nwant %+v", d, want)
	}
	if _, err := exec.LookPath("qpdf"); err != nil {
		t.Skip("qpdf not installed")
	}
	// The URLS, IDS and /Dests trees, walked by qpdf (append and refresh
	// continue this write; TestAppend and TestRefreshWrite walk theirs).
	if trees := pdfcheck.CheckNameTrees(t, res.PDF); trees["URLS"] == nil || len(trees["URLS"].Keys) != 3 || trees["Dests"] == nil {
		t.Errorf("qpdf's walk: URLS %+v, Dests %+v; want 3 keys and a tree", trees["URLS"], trees["Dests"])
	}
	f := filepath.Join(t.TempDir(), "capture.pdf")
	if err := os.WriteFile(f, res.PDF, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("qpdf", "--check", f).CombinedOutput(); err != nil {
		t.Errorf("qpdf --check: %v\n%s", err, out)
	}
}
