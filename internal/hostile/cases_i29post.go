package hostile

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"time"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// Issue 29, refresh's part. A page's script that POSTs while the page
// renders is not sent again by refresh unless --resubmit: each such
// request is answered in the browser (an empty 204) and named on a "not
// sent" line, at most 100 of them, the rest counted, however many the
// page makes. And a refresh of a loopback site without --allow-private
// names the address guard, not robots.txt: --ignore-robots would fetch
// nothing more.

// postSite serves a page whose script makes n POSTs at once, and writes
// in.pdf, a capture of it (a command to re-run); posts counts what
// reaches the server.
func postSite(n int, posts *atomic.Int64) func(dir string) ([]string, func(), error) {
	return func(dir string) ([]string, func(), error) {
		posts.Store(0)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodGet && r.Method != http.MethodHead {
				posts.Add(1)
				return
			}
			if r.URL.Path != "/" {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!doctype html><title>Subscribe</title><p>Subscribing</p><script>
for (let i = 0; i < %d; i++) fetch("/api/subscribe?n=" + i, {method: "POST", body: "email=a@example.com"}).catch(() => {})
</script>`, n)
		}))
		if err := Write(dir, "in.pdf", pdfbuild.CredentialsAt(srv.URL+"/", "Subscribe")); err != nil {
			srv.Close()
			return nil, nil, err
		}
		return []string{"refresh", "--allow-private", "--ignore-robots", "-o", "out.pdf", "in.pdf"}, srv.Close, nil
	}
}

// noPosts is a Check that no POST reached the server.
func noPosts(posts *atomic.Int64) func(dir string) error {
	return func(string) error {
		if n := posts.Load(); n != 0 {
			return fmt.Errorf("%d POSTs reached the server", n)
		}
		return nil
	}
}

func init() {
	var one, flood atomic.Int64
	Register(Case{
		Name:    "refresh-script-post",
		Part:    Scope,
		Browser: true,
		Setup:   postSite(1, &one),
		Exit:    0,
		Stdout:  []string{`^not sent +POST http://127\.0\.0\.1:\d+/api/subscribe\?n=0 \(by http://127\.0\.0\.1:\d+/\): a page's request, sent only with --resubmit$`},
		Check:   noPosts(&one),
		Before:  "the page's POST sent again, nothing said: 1 POST reached the server, exit 0, 1.00 s CPU, 216 MB (WEBCAP_HOSTILE_BEFORE=/work/webcap-old, webcap refresh --allow-private --ignore-robots -o out.pdf in.pdf)",
	}, Case{
		Name:      "refresh-script-post-flood",
		Part:      Bounds,
		Browser:   true,
		Setup:     postSite(10_000, &flood),
		Exit:      0,
		Stdout:    []string{`^not sent +POST http://127\.0\.0\.1:\d+/api/subscribe\?n=0 `, `^not sent +\d+ more, not listed$`},
		Check:     noPosts(&flood),
		MaxOutput: 64 << 10,
		MaxTree:   3 << 30,
		// Each request is one DevTools round trip (about 1.5 ms of CPU):
		// 15 s measured; the default 20 s is too close on a shared machine.
		MaxCPU: 40 * time.Second,
		Before: "all 10,000 POSTs reached the server, the page unreachable: took longer than 30s (the page time limit), nothing written, exit 1, 13.73 s CPU, 364 MB (tree 973 MB) (WEBCAP_HOSTILE_BEFORE=/work/webcap-old, same command)",
	}, Case{
		Name:    "refresh-loopback-names-allow-private",
		Part:    Scope,
		Browser: true,
		Setup: func(dir string) ([]string, func(), error) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprint(w, "<!doctype html><title>Site</title><p>Hello")
			}))
			u := srv.URL + "/"
			if err := Write(dir, "site.pdf", pdfbuild.CredentialsAt(u, "Site")); err != nil {
				srv.Close()
				return nil, nil, err
			}
			return []string{"refresh", "site.pdf", "-o", "out.pdf"}, srv.Close, nil
		},
		Exit:      1, // nothing written: no page could be checked
		Stdout:    []string{`^unchecked +http://127\.0\.0\.1:\d+/: 127\.0\.0\.1 is a loopback address: refused \(.*allow it with --allow-private\)`},
		Stderr:    []string{`nothing written`},
		NotStdout: []string{`ignore-robots`},
		NotStderr: []string{`ignore-robots`},
		Before:    "unchecked: \"robots.txt of http://127.0.0.1:PORT could not be read (dial tcp …: 127.0.0.1 is a loopback address: refused (…; allow it with --allow-private)): RFC 9309 §2.3.1.4 assumes everything is forbidden (--ignore-robots to fetch it anyway)\", exit 1, 0.57 s CPU, 206 MB (WEBCAP_HOSTILE_BEFORE=/work/webcap-old, webcap refresh site.pdf -o out.pdf)",
	})
}
