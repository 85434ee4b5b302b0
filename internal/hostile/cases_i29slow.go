package hostile

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
)

// Issue 29's slow and endless pages.
//
// capture-slow-image: a page that arrives at once whose one image never
// does (its handler blocks until the case ends). Before, the page waited
// for its load event past --page-timeout and was lost whole ("no page
// could be captured ... took longer than"); now the image is left out at
// half the page's time, named missing, and the page is printed without it.

// slowImageSite serves a page whose image never answers until release
// is closed.
func slowImageSite(release <-chan struct{}) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/index.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><title>Slow</title><p>Slow image page.</p><img src="/slow.gif">`)
	})
	mux.HandleFunc("/slow.gif", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	return mux
}

// nonEmpty is a Check that the case's file name exists and is not empty.
func nonEmpty(name string) func(dir string) error {
	return func(dir string) error {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		if fi.Size() == 0 {
			return fmt.Errorf("%s is empty", name)
		}
		return nil
	}
}

// released returns a channel and the cleanup that closes it once, then
// stops srv.
func released() (chan struct{}, func(srv *httptest.Server) func()) {
	ch := make(chan struct{})
	var once sync.Once
	return ch, func(srv *httptest.Server) func() {
		return func() {
			once.Do(func() { close(ch) })
			srv.CloseClientConnections()
			srv.Close()
		}
	}
}

func init() {
	Register(Case{Name: "capture-slow-image", Part: Bounds, Browser: true,
		Setup: func(dir string) ([]string, func(), error) {
			ch, stop := released()
			srv := httptest.NewServer(slowImageSite(ch))
			return []string{"capture", "--wait-idle", "50ms", "--page-timeout", "5s", srv.URL + "/index.html", "-o", "out.pdf"}, stop(srv), nil
		},
		Exit:    0,
		Stdout:  []string{`(?m)^left out  http://127\.0\.0\.1:\d+/slow\.gif: did not arrive within 2\.5s`, `1 page captured`},
		Check:   nonEmpty("out.pdf"),
		MaxCPU:  60e9,
		MaxRSS:  1 << 30,
		MaxTree: 3 << 30,
		Before:  "exit 1, 1.45 s CPU, 218 MB (tree 261 MB): no page could be captured (1 skipped); .../index.html: took longer than 5s (the page time limit); no out.pdf"})
}
