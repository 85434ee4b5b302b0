package cli

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/webcap/webcap/pdfio"
)

// Ctrl-C during a capture: what was captured before is written, the
// command says it was interrupted, and exits 130. The interrupt comes
// when the server is asked for the sixth page.
func TestBrowserCaptureInterrupted(t *testing.T) {
	browserSuite(t)
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var n int
		if _, err := fmt.Sscanf(r.URL.Path, "/p%d.html", &n); err != nil {
			http.NotFound(w, r)
			return
		}
		if asked.Add(1) == 6 {
			cancel(&interrupted{sig: os.Interrupt})
			<-r.Context().Done()
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<title>Page %d</title><p>Page %d</p><a href="/p%d.html">next</a>`, n, n, n+1)
	}))
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "partial.pdf")
	ios, _, stdout, stderr := Test()
	code := Main(ctx, []string{"capture", "--levels", "20", "--wait-idle", "50ms", srv.URL + "/p0.html", "-o", out}, ios)
	if code != 130 {
		t.Errorf("exit %d, want 130\n%s%s", code, stdout, stderr)
	}
	d, err := pdfio.Open(out, pdfio.Options{})
	if err != nil {
		t.Fatalf("nothing written: %v\n%s%s", err, stdout, stderr)
	}
	if n := len(d.Pages); n < 1 || n > 5 || !strings.Contains(stderr.String(), fmt.Sprintf("capture: interrupted (interrupt): the %s captured before are in %s", plural(n, "page"), out)) {
		t.Errorf("%d pages written; stderr:\n%s", n, stderr)
	}
	if strings.Contains(stderr.String(), "webcap: interrupted") {
		t.Errorf("the interrupt is reported twice:\n%s", stderr)
	}
	if !strings.Contains(stdout.String(), "audits with no error") || !strings.Contains(stdout.String(), "interrupted") {
		t.Errorf("stdout:\n%s", stdout)
	}
}
