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
//
// capture-timer-loop: a page whose script sets timers forever (a
// setInterval of 0 and a chain of setTimeout 0, each counting into the
// page). Its timers now run on virtual time once it has settled
// (--settle): the budget of page time bounds them, and the page is printed
// within --page-timeout.

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

// timerLoopSite serves a page whose timers never end.
func timerLoopSite() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><title>Loop</title><p>Timer loop page: <span id="n">0</span> ticks.</p><script>
let n = 0;
setInterval(() => { document.getElementById("n").textContent = ++n; }, 0);
(function again() { n++; setTimeout(again, 0); })();
</script>`)
	})
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
	Register(Case{Name: "capture-timer-loop", Part: Bounds, Browser: true,
		Setup: func(dir string) ([]string, func(), error) {
			srv := httptest.NewServer(timerLoopSite())
			return []string{"capture", "--wait-idle", "50ms", "--page-timeout", "10s", srv.URL + "/index.html", "-o", "out.pdf"},
				func() { srv.CloseClientConnections(); srv.Close() }, nil
		},
		Exit:    0,
		Stdout:  []string{`1 page captured`},
		Check:   nonEmpty("out.pdf"),
		MaxCPU:  60e9,
		MaxRSS:  1 << 30,
		MaxTree: 3 << 30,
		Before:  "exit 0, 0.87 s CPU, 219 MB (tree 221 MB): its timers ran only in the real time the page took to settle (~80 ticks printed; no virtual time to bound); now ~2,500 ticks of 5 s page time, 0.95 s CPU"})
}
