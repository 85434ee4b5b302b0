package capture

import (
	"context"
	"crypto/md5"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/pdfio"
)

// A site's link to a PDF file is captured as the file's own pages, not
// as the browser's viewer: its page set holds the file's 2 pages (their
// text the file's), its /CT is application/pdf and its ID the MD5 of the
// bytes the server sent; an encrypted file and a garbage one are skips
// of kind pdf that say why.
func TestCaptureLinkedPDF(t *testing.T) {
	b := newBrowser(t)
	report := pdfbuild.Report(2, "Annual report")
	files := map[string][]byte{
		"/files/annual-report.pdf": report,
		"/files/locked.pdf":        encrypted(t, report),
		"/files/broken.pdf":        []byte("%PDF-1.7\nnot a PDF file at all\n%%EOF\n"),
	}
	var mu sync.Mutex
	sent := map[string][]byte{}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!DOCTYPE html><html><head><title>Reports</title></head><body><ul>` +
			`<li><a href="files/annual-report.pdf">annual report</a><li><a href="files/locked.pdf">locked</a>` +
			`<li><a href="files/broken.pdf">broken</a></ul></body></html>`))
	})
	mux.HandleFunc("/files/", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		body, ok := files[r.URL.Path]
		sent[r.URL.Path] = body
		mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/pdf")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	opts := testOptions(Options{Levels: 2, Allow: Loopback})
	res, err := Capture(ctx, b, []string{srv.URL + "/"}, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"locked.pdf", "broken.pdf"} {
		found := false
		for _, s := range res.Skips {
			if strings.HasSuffix(s.URL, "/files/"+name) {
				found = true
				if s.Kind != SkipPDF || !strings.Contains(s.Reason, map[string]string{"locked.pdf": "encrypted", "broken.pdf": "cannot be copied"}[name]) {
					t.Errorf("%s: skip %+v, want kind %s with its reason", name, s, SkipPDF)
				}
				t.Logf("%s: %s", name, s.Reason)
			}
		}
		if !found {
			t.Errorf("%s not skipped: %+v", name, res.Skips)
		}
	}
	u := srv.URL + "/files/annual-report.pdf"
	mu.Lock()
	got := sent["/files/annual-report.pdf"]
	mu.Unlock()
	checkReportSet(t, res.PDF, u, report, got)

	// refresh fetches the file again and compares its MD5: unchanged;
	// then, the file changed, its set's pages are replaced by the new
	// file's.
	r, err := Refresh(ctx, b, res.PDF, "capture.pdf", RefreshOptions{Options: opts, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range r.Changes {
		if c.URL == u && c.Status != StatusUnchanged {
			t.Errorf("refresh right after the capture: %+v", c)
		}
	}
	report3 := pdfbuild.Report(3, "Annual report 2027")
	mu.Lock()
	files["/files/annual-report.pdf"] = report3
	mu.Unlock()
	if r, err = Refresh(ctx, b, res.PDF, "capture.pdf", RefreshOptions{Options: opts}); err != nil {
		t.Fatal(err)
	}
	if r.Replaced != 1 {
		t.Errorf("refresh of the changed file replaced %d sets, want 1: %+v", r.Replaced, r.Changes)
	}
	mu.Lock()
	got = sent["/files/annual-report.pdf"]
	mu.Unlock()
	checkReportSet(t, r.PDF, u, report3, got)
}

// checkReportSet checks that capture, audit clean and qpdf clean, has a
// page set of URL u whose pages are the file report's (their text), its
// /CT application/pdf, its ID the MD5 of sent, the bytes the server sent.
func checkReportSet(t *testing.T, capture []byte, u string, report, sent []byte) {
	t.Helper()
	d, err := pdfio.ReadBytes(capture, "capture.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	noAuditErrors(t, d)
	n := strings.Count(string(pdfTextOf(t, report)), "\f")
	pageNum := map[int]int{}
	for _, p := range d.Pages {
		pageNum[p.Ref.Num] = p.Number
	}
	var first, last int
	for _, cs := range d.Sets {
		if !cs.IsPageSet() || cs.Sources[0].URLs.URL != u {
			continue
		}
		if want := md5.Sum(sent); cs.ID == nil || string(*cs.ID) != string(want[:]) {
			t.Errorf("the report's ID is not the MD5 of the %d bytes sent", len(sent))
		}
		if cs.ContentType == nil || *cs.ContentType != "application/pdf" {
			t.Errorf("the report's /CT %v, want application/pdf", cs.ContentType)
		}
		if len(cs.Objects) != n {
			t.Fatalf("the report's set has %d pages, want %d", len(cs.Objects), n)
		}
		first, last = pageNum[cs.Objects[0].Num], pageNum[cs.Objects[n-1].Num]
	}
	if first == 0 || last != first+n-1 {
		t.Fatalf("no page set of the report on %d pages (pages %d-%d)", n, first, last)
	}
	dir := t.TempDir()
	out, src := filepath.Join(dir, "capture.pdf"), filepath.Join(dir, "report.pdf")
	os.WriteFile(out, capture, 0o644)
	os.WriteFile(src, report, 0o644)
	if b, err := exec.Command("qpdf", "--check", out).CombinedOutput(); err != nil {
		t.Errorf("qpdf --check: %v\n%s", err, b)
	}
	got, err := exec.Command("pdftotext", "-f", strconv.Itoa(first), "-l", strconv.Itoa(last), out, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := pdfTextOf(t, report); string(got) != string(want) {
		t.Errorf("the report's pages' text %q, the file's %q", got, want)
	}
}

// pdfTextOf is pdftotext's text of pdf.
func pdfTextOf(t *testing.T, pdf []byte) []byte {
	t.Helper()
	f := filepath.Join(t.TempDir(), "f.pdf")
	os.WriteFile(f, pdf, 0o644)
	b, err := exec.Command("pdftotext", f, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	return b
}
