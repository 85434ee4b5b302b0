package cli

import (
	"context"
	"fmt"
	"image/color"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// sessionSite is issue 29's site of pages that depend on each other's
// state: account.html sets a cookie (Set-Cookie), profile.html says
// "Signed in as u12345" when its request carries it and "Not signed in"
// otherwise, post.html's script POSTs to /api/subscribe, every page
// counts its visits in localStorage and prints the count, and later.html
// inserts an image after 1 s. It counts the POSTs it receives.
type sessionSite struct {
	srv   *httptest.Server
	mu    sync.Mutex
	posts int
}

func newSessionSite(t *testing.T) *sessionSite {
	s := &sessionSite{}
	gif := gifOf(t, 4, 3, color.RGBA{200, 0, 0, 255})
	pages := []string{"account.html", "profile.html", "post.html", "later.html"}
	for i := range 10 {
		pages = append(pages, fmt.Sprintf("p%d.html", i))
	}
	const visits = `<p id="v"></p><script>const n = Number(localStorage.getItem("visits") || 0) + 1; localStorage.setItem("visits", n); sessionStorage.setItem("seen", n); document.getElementById("v").textContent = "Visits: " + n;</script>`
	page := func(w http.ResponseWriter, title, body string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!DOCTYPE html><html><head><title>%s</title></head><body><h1>%s</h1>%s%s</body></html>", title, title, body, visits)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/index.html", func(w http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		for _, p := range pages {
			fmt.Fprintf(&b, `<a href="%s">%s</a> `, p, p)
		}
		page(w, "Home", b.String())
	})
	mux.HandleFunc("/account.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Set-Cookie", "user=u12345; Path=/")
		page(w, "Account", "<p>Your account.</p>")
	})
	mux.HandleFunc("/profile.html", func(w http.ResponseWriter, r *http.Request) {
		who := "Not signed in"
		if c, err := r.Cookie("user"); err == nil {
			who = "Signed in as " + c.Value
		}
		page(w, "Profile", "<p>"+who+"</p>")
	})
	mux.HandleFunc("/post.html", func(w http.ResponseWriter, r *http.Request) {
		page(w, "Subscribe", `<p>Subscribing.</p><script>fetch("/api/subscribe", {method: "POST", body: "email=a@example.com"});</script>`)
	})
	mux.HandleFunc("/api/subscribe", func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			s.mu.Lock()
			s.posts++
			s.mu.Unlock()
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("/later.html", func(w http.ResponseWriter, r *http.Request) {
		page(w, "Later", `<p id="msg">Loading chart…</p><script>setTimeout(() => { const i = document.createElement("img"); i.src = "/chart.gif"; i.width = 40; document.body.appendChild(i); document.getElementById("msg").textContent = "Chart shown."; }, 1000);</script>`)
	})
	mux.HandleFunc("/chart.gif", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/gif")
		w.Write(gif)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		page(w, strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/"), ".html"), "<p>Some text.</p>")
	})
	s.srv = httptest.NewServer(mux)
	t.Cleanup(s.srv.Close)
	return s
}

func (s *sessionSite) postCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.posts
}

// sessionCapture is what the test reads of a capture: each page set's
// identifier and the text of its pages (pdftotext), by URL.
type sessionCapture struct {
	ids, text map[string]string
}

func readSessionCapture(t *testing.T, pdf string) sessionCapture {
	t.Helper()
	var info infoJSON
	if code := runJSON(t, &info, "info", "--json", pdf); code != 0 {
		t.Fatalf("info %s: exit %d", pdf, code)
	}
	c := sessionCapture{ids: map[string]string{}, text: map[string]string{}}
	for _, cs := range info.ContentSets {
		if cs.Subtype != "SPS" || cs.ID == nil || len(cs.Pages) == 0 {
			continue
		}
		u := cs.Sources[0].URL
		c.ids[u] = *cs.ID
		first, last := cs.Pages[0], cs.Pages[len(cs.Pages)-1]
		out, err := exec.Command("pdftotext", "-f", fmt.Sprint(first), "-l", fmt.Sprint(last), pdf, "-").CombinedOutput()
		if err != nil {
			t.Fatalf("pdftotext: %v\n%s", err, out)
		}
		c.text[u] = string(out)
	}
	return c
}

// TestCaptureApartAndSession is issue 29's item 3: by default each page
// is rendered in an empty browser context, so --jobs 1 and --jobs 4 give
// the same identifiers and the same text (profile.html "Not signed in",
// every page its first visit); a refresh --dry-run right after finds
// nothing changed, five times, without sending the page's POST. With
// --session the crawl is one visit in queue order: profile.html, after
// account.html, is signed in, the visits count up, and refresh, reading
// Session from the command's settings, finds nothing changed either.
func TestCaptureApartAndSession(t *testing.T) {
	browserSuite(t)
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext (poppler-utils) is not installed")
	}
	s := newSessionSite(t)
	dir := t.TempDir()
	start := s.srv.URL + "/index.html"
	capture := func(name string, flags ...string) sessionCapture {
		t.Helper()
		pdf := filepath.Join(dir, name+".pdf")
		args := append([]string{"capture", "--levels", "2", "--wait-idle", "100ms", "--progress", "none"}, flags...)
		ios, _, stdout, stderr := Test()
		if code := Main(context.Background(), append(args, start, "-o", pdf), ios); code != 0 {
			t.Fatalf("capture %s: exit %d\n%s%s", name, code, stdout, stderr)
		}
		return readSessionCapture(t, pdf)
	}
	refresh := func(name string) {
		t.Helper()
		pdf := filepath.Join(dir, name+".pdf")
		before := s.postCount()
		for i := range 5 {
			ios, _, stdout, stderr := Test()
			if code := Main(context.Background(), []string{"refresh", "--dry-run", "--allow-private", "--wait-idle", "100ms", "--progress", "none", pdf}, ios); code != 0 {
				t.Errorf("refresh %s, run %d: exit %d, want 0 (nothing changed)\n%s%s", name, i+1, code, stdout, stderr)
			}
		}
		if n := s.postCount() - before; n != 0 {
			t.Errorf("refresh %s: %d POSTs reached the server, want 0 (not without --resubmit)", name, n)
		}
	}
	one, four := capture("jobs1", "--jobs", "1"), capture("jobs4", "--jobs", "4")
	if len(one.ids) != 15 {
		t.Fatalf("%d page sets captured, want 15: %v", len(one.ids), one.ids)
	}
	for u, id := range one.ids {
		if four.ids[u] != id || four.text[u] != one.text[u] {
			t.Errorf("%s: --jobs 1 gives %s %q, --jobs 4 %s %q", u, id, one.text[u], four.ids[u], four.text[u])
		}
	}
	for u, text := range one.text {
		if !strings.Contains(text, "Visits: 1") {
			t.Errorf("%s: %q, want its first visit (an empty context)", u, text)
		}
	}
	if p := one.text[s.srv.URL+"/profile.html"]; !strings.Contains(p, "Not signed in") {
		t.Errorf("profile.html: %q, want Not signed in", p)
	}
	if l := one.text[s.srv.URL+"/later.html"]; !strings.Contains(l, "Chart shown.") {
		t.Errorf("later.html: %q, want the text its script set after 1 s", l)
	}
	refresh("jobs1")
	refresh("jobs4")

	sess := capture("session", "--session", "--jobs", "4")
	if p := sess.text[s.srv.URL+"/profile.html"]; !strings.Contains(p, "Signed in as u12345") {
		t.Errorf("profile.html in the session, after account.html: %q, want Signed in as u12345", p)
	}
	if p := sess.text[s.srv.URL+"/p9.html"]; !strings.Contains(p, "Visits: 15") {
		t.Errorf("p9.html, the session's 15th page: %q, want Visits: 15", p)
	}
	refresh("session")
}
