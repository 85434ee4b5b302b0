package hostile

import (
	"fmt"
	"net/http"
	"net/http/httptest"
)

// Issue 29's items 3 and 4: pages rendered apart, and timers run on
// virtual time.
//
// capture-timer-loop: a page whose script sets timers forever (a
// setInterval of 0 and a chain of setTimeout 0, each counting into the
// page). Its timers now run on virtual time once it has settled
// (--settle): the budget of page time bounds them, and the page is printed
// within --page-timeout.

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
