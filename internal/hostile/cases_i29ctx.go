package hostile

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
)

// Issue 29's items 3 and 4: pages rendered apart, and timers run on
// virtual time.
//
// capture-timer-loop: a page whose script sets timers forever (a
// setInterval of 0 and a chain of setTimeout 0, each counting into the
// page). Its timers now run on virtual time once it has settled
// (--settle): the budget of page time bounds them, and the page is printed
// within --page-timeout.
//
// capture-state-flood: a page whose answer sets 180 cookies and whose
// script sets 10,000 more and fills localStorage to its quota, then a
// page that says how many cookies its request carried and what its
// localStorage holds. Before, the second page (same tab, same browser
// context) received the first's cookies; now each page is rendered in an
// empty context: "Cookies received: 0".
//
// capture-session-jobs: --session with --jobs 4 on a site whose
// profile.html says whether its request carried account.html's cookie.
// Before, --session did not exist (a usage error); now the crawl is one
// visit in queue order, one page at a time: profile.html, after
// account.html, is signed in.

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

// stateFloodSite serves /index.html linking /flood.html then
// /after.html.
func stateFloodSite() http.Handler {
	mux := http.NewServeMux()
	page := func(w http.ResponseWriter, body string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<!doctype html><title>t</title>"+body)
	}
	mux.HandleFunc("/index.html", func(w http.ResponseWriter, r *http.Request) {
		page(w, `<a href="/flood.html">flood</a> <a href="/after.html">after</a>`)
	})
	mux.HandleFunc("/flood.html", func(w http.ResponseWriter, r *http.Request) {
		for i := range 180 {
			w.Header().Add("Set-Cookie", fmt.Sprintf("s%d=%s; Path=/", i, strings.Repeat("v", 100)))
		}
		page(w, `<p>Flood.</p><script>
for (let i = 0; i < 10000; i++) document.cookie = "j" + i + "=" + "x".repeat(50) + "; path=/";
try { for (let i = 0; ; i++) localStorage.setItem("k" + i, "y".repeat(100000)); } catch (e) {}
</script>`)
	})
	mux.HandleFunc("/after.html", func(w http.ResponseWriter, r *http.Request) {
		page(w, fmt.Sprintf(`<p>Cookies received: %d.</p><p id="l"></p><script>document.getElementById("l").textContent = "Stored: " + localStorage.length + ".";</script>`, len(r.Cookies())))
	})
	return mux
}

// accountSite serves /index.html linking account.html (which sets a
// cookie), then profile.html (which says whether it was sent), then a
// few other pages.
func accountSite() http.Handler {
	mux := http.NewServeMux()
	page := func(w http.ResponseWriter, body string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<!doctype html><title>t</title>"+body)
	}
	mux.HandleFunc("/index.html", func(w http.ResponseWriter, r *http.Request) {
		page(w, `<a href="/account.html">account</a> <a href="/profile.html">profile</a> <a href="/a.html">a</a> <a href="/b.html">b</a>`)
	})
	mux.HandleFunc("/account.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Set-Cookie", "user=u12345; Path=/")
		page(w, `<p>Account.</p>`)
	})
	mux.HandleFunc("/profile.html", func(w http.ResponseWriter, r *http.Request) {
		who := "Not signed in"
		if c, err := r.Cookie("user"); err == nil {
			who = "Signed in as " + c.Value
		}
		page(w, "<p>"+who+".</p>")
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { page(w, "<p>Other.</p>") })
	return mux
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
	Register(Case{Name: "capture-state-flood", Part: Bounds, Browser: true, Needs: []string{"pdftotext"},
		Setup:   serve(stateFloodSite(), "capture", "--levels", "2", "--jobs", "1", "--wait-idle", "100ms", "{url}/index.html", "-o", "out.pdf"),
		Exit:    0,
		Stdout:  []string{`3 pages captured`},
		Check:   pdfTextHas("out.pdf", 3, 3, "Cookies received: 0.\nStored: 0."),
		MaxCPU:  60e9,
		MaxRSS:  1 << 30,
		MaxTree: 3 << 30,
		Before:  "exit 0, 1.17 s CPU, 221 MB (tree 279 MB): after.html, rendered after flood.html in its tab, received 165 of its cookies and read 52 localStorage items (\"Cookies received: 165. Stored: 52.\"); now 0 and 0 (each page in an empty context), 1.4-2.2 s CPU"})
	Register(Case{Name: "capture-session-jobs", Part: Bounds, Browser: true, Needs: []string{"pdftotext"},
		Setup:   serve(accountSite(), "capture", "--session", "--jobs", "4", "--levels", "2", "--wait-idle", "100ms", "{url}/index.html", "-o", "out.pdf"),
		Exit:    0,
		Stdout:  []string{`5 pages captured`},
		Check:   pdfTextHas("out.pdf", 3, 3, "Signed in as u12345."),
		MaxCPU:  60e9,
		MaxRSS:  1 << 30,
		MaxTree: 3 << 30,
		Before:  "exit 2, 0.02 s CPU, 62 MB: unknown flag --session (each tab shared the browser's one context, so profile.html was signed in or not as the tabs' timing had it)"})
}
