package hostile

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// The capture's scope and address policy (issue 18, "Capture scope
// holes"): a capture of a loopback site (the start URL at 127.0.0.1:A, so
// loopback addresses are allowed for it) whose pages try to reach an
// "internal service" on another loopback port (127.0.0.1:B, also named
// localhost:B) by a redirect, an image, an iframe or fetch(); a redirect
// to what robots.txt forbids; links carrying user:password@; a robots.txt
// that never ends. The internal service counts every request it gets:
// the verdict is that it got none, whatever the PDF says.

// innerText is what the internal service answers: it must be in no PDF.
const innerText = "INNER-SERVICE-SECRET"

// scopeSite is the site a scope case captures and the internal service it
// must not reach. It is started by a case's Setup; cleanup stops it.
type scopeSite struct {
	site, inner *httptest.Server
	release     chan struct{} // closed when the case ends: handlers that block return

	mu         sync.Mutex
	innerPaths []string          // the paths the internal service was asked for
	hits       map[string]int    // the site's paths, as requested
	pages      map[string]string // the site's pages, by path ({inner}: the internal service's port, {site}: the site's host:port)
}

func newScopeSite(pages map[string]string) *scopeSite {
	s := &scopeSite{release: make(chan struct{}), hits: map[string]int{}, pages: pages}
	s.inner = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.innerPaths = append(s.innerPaths, r.URL.Path)
		s.mu.Unlock()
		w.Header().Set("Access-Control-Allow-Origin", "*") // fetch() may read it
		switch {
		case strings.HasSuffix(r.URL.Path, ".gif"):
			w.Header().Set("Content-Type", "image/gif")
			w.Write(gif1x1)
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, "<!doctype html><title>Inner</title><h1>%s</h1>", innerText)
		}
	}))
	s.site = httptest.NewServer(http.HandlerFunc(s.serveSite))
	return s
}

// port is the internal service's port.
func (s *scopeSite) port() string {
	_, p, _ := strings.Cut(strings.TrimPrefix(s.inner.URL, "http://"), ":")
	return p
}

func (s *scopeSite) serveSite(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.hits[r.URL.Path]++
	s.mu.Unlock()
	switch r.URL.Path {
	case "/robots.txt":
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
		return
	}
	if to, ok := strings.CutPrefix(r.URL.Path, "/to/"); ok {
		// /to/HOST:PORT/PATH redirects there; /to/inner/PATH to the
		// internal service by the name localhost.
		if rest, ok := strings.CutPrefix(to, "inner/"); ok {
			to = "localhost:" + s.port() + "/" + rest
		}
		if strings.HasPrefix(to, "private/") {
			http.Redirect(w, r, "/"+to, http.StatusFound)
			return
		}
		http.Redirect(w, r, "http://"+to, http.StatusFound)
		return
	}
	page, ok := s.pages[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprint(w, strings.NewReplacer("{inner}", s.port(), "{site}", strings.TrimPrefix(s.site.URL, "http://")).Replace(page))
}

// close stops both servers, releasing what blocks.
func (s *scopeSite) close() {
	close(s.release)
	s.site.Close()
	s.inner.Close()
}

// untouched is a Check that the internal service got no request, and
// that the PDF's text (pdftotext's) has nothing of it.
func (s *scopeSite) untouched(pdf string) func(dir string) error {
	return func(dir string) error {
		s.mu.Lock()
		got := append([]string(nil), s.innerPaths...)
		s.mu.Unlock()
		if len(got) > 0 {
			return fmt.Errorf("the internal service was asked for %q", got)
		}
		text, err := pdfText(filepath.Join(dir, pdf))
		if err != nil {
			return err
		}
		if strings.Contains(text, innerText) {
			return fmt.Errorf("%s holds the internal service's text %q", pdf, innerText)
		}
		return nil
	}
}

// notRequested is a Check that the site was never asked for path.
func (s *scopeSite) notRequested(path string) func(dir string) error {
	return func(string) error {
		s.mu.Lock()
		n := s.hits[path]
		s.mu.Unlock()
		if n > 0 {
			return fmt.Errorf("%s was requested %d times", path, n)
		}
		return nil
	}
}

// pdfText is the text of a PDF, as poppler's pdftotext reads it.
func pdfText(file string) (string, error) {
	out, err := exec.Command("pdftotext", file, "-").Output()
	if err != nil {
		return "", fmt.Errorf("pdftotext %s: %w", file, err)
	}
	return string(out), nil
}

// noneInObjects is a Check that none of words is in any object of a PDF
// (its dictionaries and strings, annotations and actions included), as
// qpdf --json shows them.
func noneInObjects(pdf string, words ...string) func(dir string) error {
	return func(dir string) error {
		out, err := exec.Command("qpdf", "--json", "--json-key=qpdf", filepath.Join(dir, pdf)).Output()
		if err != nil {
			return fmt.Errorf("qpdf --json %s: %w", pdf, err)
		}
		if !bytes.Contains(out, []byte("/URI")) {
			return fmt.Errorf("%s has no URI action: the case shows nothing", pdf)
		}
		for _, w := range words {
			if bytes.Contains(out, []byte(w)) {
				return fmt.Errorf("%s holds %q", pdf, w)
			}
		}
		return nil
	}
}

// scopeCase is a Case capturing path of a new scopeSite with args (before
// the URL); check makes its Check from the site.
func scopeCase(c Case, pages map[string]string, path string, check func(s *scopeSite) func(string) error, args ...string) Case {
	var s *scopeSite
	c.Part, c.Browser = Scope, true
	c.Setup = func(dir string) ([]string, func(), error) {
		s = newScopeSite(pages)
		return append(append([]string{"capture", "--json", "-o", "out.pdf"}, args...), s.site.URL+path), s.close, nil
	}
	c.Check = func(dir string) error { return check(s)(dir) }
	return c
}

// gif1x1 is a 1×1 GIF.
var gif1x1 = []byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")

// stallRobots is a server whose robots.txt sends its header and a line,
// then nothing until the case ends; its page answers at once.
func stallRobots(dir string) ([]string, func(), error) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "User-agent: *\n")
			w.(http.Flusher).Flush()
			select {
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<!doctype html><title>Stall</title><p>A page whose robots.txt never ends.</p>")
	}))
	args := []string{"capture", "--json", "--page-timeout", "3s", "--timeout", "40s", "-o", "out.pdf", srv.URL + "/"}
	return args, func() { close(release); srv.Close() }, nil
}

func init() {
	pages := map[string]string{
		// A same-site link that redirects to another host.
		"/redirect/": `<!doctype html><title>Start</title><p><a href="/to/inner/landing.html">a same-site link</a></p>`,
		// A link that redirects to what robots.txt forbids.
		"/robots/":             `<!doctype html><title>Start</title><p><a href="/to/private/secret.html">a link</a></p>`,
		"/private/secret.html": `<!doctype html><title>Private</title><p>robots.txt forbids this page.</p>`,
		// Subresources on the internal service.
		"/sub/": `<!doctype html><title>Start</title><p>Outer page.</p>
<img src="http://127.0.0.1:{inner}/pixel.gif">
<iframe src="http://127.0.0.1:{inner}/frame.html"></iframe>
<iframe src="http://localhost:{inner}/frame2.html"></iframe>
<p id="out"></p>
<script>fetch("http://127.0.0.1:{inner}/api").then(r => r.text()).then(t => { document.getElementById("out").textContent = t; }).catch(() => {});</script>`,
		// Links with user information, one to a page the capture takes.
		"/creds/": `<!doctype html><title>Start</title>
<p><a href="http://webcapuser:s3cretpw@{site}/creds/two.html">two</a></p>
<p><a href="http://alice:hunter2pw@example.invalid/x">elsewhere</a></p>`,
		"/creds/two.html": `<!doctype html><title>Two</title><p>Page two.</p>`,
	}
	Register(
		scopeCase(Case{
			Name:   "redirect-leaves-site",
			Exit:   0,
			Stdout: []string{`"kind": ?"scope"`},
			Before: "exit 0, 3.9 s, 1.1 s CPU, 220 MB: the page the same-site link redirects to (localhost:B, another host) fetched and captured as page 2",
		}, pages, "/redirect/", func(s *scopeSite) func(string) error { return s.untouched("out.pdf") },
			"--levels", "2", "--same-site"),
		scopeCase(Case{
			Name:   "redirect-into-robots",
			Exit:   0,
			Stdout: []string{`"kind": ?"robots"`},
			Before: "exit 0, 3.3 s, 1.1 s CPU, 219 MB: /private/secret.html, which robots.txt forbids, fetched and captured through a redirect",
		}, pages, "/robots/", func(s *scopeSite) func(string) error { return s.notRequested("/private/secret.html") },
			"--levels", "2"),
		scopeCase(Case{
			Name:   "subresources-on-loopback",
			Exit:   0,
			Before: "exit 0, 3.7 s, 0.9 s CPU, 217 MB: the image, both iframes (127.0.0.1:B, localhost:B) and fetch() reached the internal service (4 requests); its text is in the PDF (pdftotext)",
		}, pages, "/sub/", func(s *scopeSite) func(string) error { return s.untouched("out.pdf") },
			"--same-site"),
		scopeCase(Case{
			Name:   "credentials-in-links",
			Exit:   0,
			Stdout: []string{`"internalLinks": ?1`}, // two.html's link, its user information left out
			Before: "exit 0, 4.3 s, 1.0 s CPU, 219 MB: both user:password@ URLs in the PDF's link annotations (/URI, qpdf --json); the link to the captured page not made internal",
		}, pages, "/creds/", func(*scopeSite) func(string) error {
			return noneInObjects("out.pdf", "s3cretpw", "hunter2pw", "webcapuser", "alice:")
		}, "--levels", "2", "--same-site"),
		Case{
			Name:    "robots-never-ends",
			Part:    Scope,
			Browser: true,
			Setup:   stallRobots,
			// A robots.txt that does not arrive within --page-timeout is
			// unreachable, so everything on its origin is forbidden (RFC
			// 9309 §2.3.1.4): the start page is skipped, saying so, and no
			// page is captured (exit 1, as for every capture that captures
			// nothing). The skip is robots.txt's, not the time limit's: the
			// capture did not wait for its --timeout.
			Exit:      1,
			Stderr:    []string{`no page could be captured \(1 skipped\); http://127\.0\.0\.1:\d+/: robots\.txt of http://127\.0\.0\.1:\d+ could not be read \(timeout after 3s\): RFC 9309 §2\.3\.1\.4 assumes everything is forbidden \(--ignore-robots to fetch it anyway\)`},
			NotStderr: []string{`time limit|--timeout`},
			Check:     Absent("out.pdf"),
			Before:    "exit 1 after 40.3 s, the whole --timeout (0.7 s CPU, 210 MB): robots.txt read until the capture's time was up, then no page could be captured",
		},
	)
}
