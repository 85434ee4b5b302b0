package cli

import (
	"crypto/md5"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webcap/webcap/capture"
)

// TestCaptureSlowImage is issue 29's slow image: a page that arrives at
// once whose one image never does (its handler blocks until the test
// ends). The page is printed within --page-timeout without the image,
// which is named missing because it did not arrive in time; the page's
// identifier is the MD5 of the served page alone (a missing auxiliary
// file is left out of it, as for a 404), and capture exits 0, as for any
// page with a file left out.
func TestCaptureSlowImage(t *testing.T) {
	browserSuite(t)
	page := []byte(`<!DOCTYPE html><html><head><title>Slow</title></head><body><p>Slow image page.</p><img src="/slow.gif"></body></html>`)
	block := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/index.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	})
	mux.HandleFunc("/slow.gif", func(w http.ResponseWriter, r *http.Request) {
		<-block // never answers while the test runs
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(block) }) // before srv.Close, which waits for the handler
	dir := t.TempDir()
	pdf := filepath.Join(dir, "slow.pdf")
	var sum struct {
		Pages []struct {
			URL     string         `json:"url"`
			ID      string         `json:"id"`
			Missing []capture.Skip `json:"missing"`
		} `json:"captured"`
		Skips []capture.Skip `json:"skipped"`
	}
	start := time.Now()
	code := runJSON(t, &sum, "capture", "--json", "--wait-idle", "50ms", "--page-timeout", "5s", srv.URL+"/index.html", "-o", pdf)
	t.Logf("captured in %v", time.Since(start))
	if code != 0 {
		t.Fatalf("capture: exit %d, want 0: %+v", code, sum)
	}
	if len(sum.Pages) != 1 {
		t.Fatalf("%d pages captured, want 1 (skips: %+v)", len(sum.Pages), sum.Skips)
	}
	pg := sum.Pages[0]
	if len(pg.Missing) != 1 || pg.Missing[0].URL != srv.URL+"/slow.gif" || pg.Missing[0].Kind != "timeout" ||
		!strings.Contains(pg.Missing[0].Reason, "did not arrive within 2.5s") {
		t.Errorf("missing %+v, want /slow.gif: did not arrive within 2.5s", pg.Missing)
	}
	sumPage := md5.Sum(page)
	if want := hex.EncodeToString(sumPage[:]); !strings.EqualFold(pg.ID, want) {
		t.Errorf("page ID %s, want %s (the MD5 of the served page, its missing image left out)", pg.ID, want)
	}
	pdftotext, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("pdftotext (poppler-utils) is not installed")
	}
	out, err := exec.Command(pdftotext, pdf, "-").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Slow image page.") {
		t.Errorf("pdftotext: %v: the page's text is not in the PDF:\n%s", err, out)
	}
}
