package cli

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webcap/webcap/capture"
)

func TestCaptureCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site.pdf")
	for _, tc := range []struct {
		args []string
		want int
		msg  string
	}{
		{[]string{"capture", "http://a/"}, 2, "say where to write"},
		{[]string{"capture", "--levels", "0", "http://a/", "-o", out}, 2, "--levels 0"},
		{[]string{"capture", "--profile", "x", "http://a/", "-o", out}, 2, "--profile"},
		{[]string{"capture", "--chromium", "/nonexistent/chromium", "http://a/", "-o", out}, 3, "/nonexistent/chromium"},
	} {
		ios, _, stdout, stderr := Test()
		if code := Main(context.Background(), tc.args, ios); code != tc.want || !strings.Contains(stderr.String(), tc.msg) {
			t.Errorf("webcap %q: exit %d, want %d; stderr %q stdout %q", tc.args, code, tc.want, stderr, stdout)
		}
	}

	if _, err := capture.FindChromium(os.Getenv("WEBCAP_CHROMIUM")); err != nil {
		t.Skipf("skipping the capture itself: %v", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/":
			w.Write([]byte(`<title>One</title><a href="/two">two</a>`))
		case "/two":
			w.Write([]byte(`<title>Two</title><a href="/">one</a>`))
		default:
			http.NotFound(w, r)
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	ios, _, stdout, stderr := Test()
	if code := Main(context.Background(), []string{"capture", "--levels", "2", "--same-site", srv.URL + "/", "-o", out}, ios); code != 0 {
		t.Fatalf("capture: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{"ID ", srv.URL + "/two", "2 pages captured", "2 links made internal", "audits with no error"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr.String(), "capture: 2 done, 0 queued, ") {
		t.Errorf("no progress on stderr:\n%s", stderr)
	}
	ios, _, stdout, _ = Test()
	if code := Main(context.Background(), []string{"audit", "--in-process", out}, ios); code != 0 {
		t.Errorf("audit of the capture: exit %d\n%s", code, stdout)
	}
}
