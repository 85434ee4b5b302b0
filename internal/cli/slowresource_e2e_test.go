package cli

import (
	"crypto/md5"
	"encoding/hex"
	"image/color"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"slices"
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

// TestCaptureDeferredImages is issue 29's deferred content: a page whose
// script inserts an image after 1 s and another after 3 s. Its timers run
// on virtual time once it has settled (--settle, 5 s of page time by
// default), so both images are printed (pdfimages counts them) without
// the capture waiting 3 s for them: its time is logged, not bounded.
func TestCaptureDeferredImages(t *testing.T) {
	browserSuite(t)
	pdfimages, err := exec.LookPath("pdfimages")
	if err != nil {
		t.Skip("pdfimages (poppler-utils) is not installed")
	}
	page := []byte(`<!DOCTYPE html><html><head><title>Chart</title></head><body><p id="msg">Loading chart…</p><script>
function add(src, w) { const i = document.createElement("img"); i.src = src; i.width = w; document.body.appendChild(i); }
setTimeout(() => { add("/one.gif", 40); document.getElementById("msg").textContent = "Chart one."; }, 1000);
setTimeout(() => add("/three.gif", 50), 3000);
</script></body></html>`)
	images := map[string][]byte{"/one.gif": gifOf(t, 4, 3, color.RGBA{200, 0, 0, 255}), "/three.gif": gifOf(t, 5, 3, color.RGBA{0, 0, 200, 255})}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if img := images[r.URL.Path]; img != nil {
			w.Header().Set("Content-Type", "image/gif")
			w.Write(img)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	}))
	t.Cleanup(srv.Close)
	pdf := filepath.Join(t.TempDir(), "chart.pdf")
	var sum struct {
		Pages []struct {
			Missing []capture.Skip `json:"missing"`
		} `json:"captured"`
	}
	start := time.Now()
	code := runJSON(t, &sum, "capture", "--json", "--wait-idle", "50ms", srv.URL+"/index.html", "-o", pdf)
	t.Logf("captured in %v (the page's timers ran 5 s of page time)", time.Since(start))
	if code != 0 || len(sum.Pages) != 1 {
		t.Fatalf("capture: exit %d, %d pages, want 0 and 1", code, len(sum.Pages))
	}
	out, err := exec.Command(pdfimages, "-list", pdf).CombinedOutput()
	if err != nil {
		t.Fatalf("pdfimages: %v\n%s", err, out)
	}
	var sizes []string
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) > 4 && f[2] == "image" {
			sizes = append(sizes, f[3]+"x"+f[4])
		}
	}
	slices.Sort(sizes)
	if want := []string{"4x3", "5x3"}; !slices.Equal(sizes, want) {
		t.Errorf("images printed %v, want %v (inserted after 1 s and 3 s):\n%s", sizes, want, out)
	}
	if text, err := exec.Command("pdftotext", pdf, "-").CombinedOutput(); err == nil && !strings.Contains(string(text), "Chart one.") {
		t.Errorf("the text the script set after 1 s is not printed:\n%s", text)
	}
}
