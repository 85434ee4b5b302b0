package capture

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/webcap/webcap/internal/browsertest"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// newBrowser starts Chromium, or skips the test with the reason.
func newBrowser(t testing.TB) *Browser {
	t.Helper()
	path := browsertest.Chromium(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	b, err := NewBrowser(ctx, path, BrowserOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

// testOptions are opts with a short quiet time for pages to settle: the
// test pages fetch nothing late, and wait for their images anyway.
func testOptions(opts Options) Options {
	opts.IdleQuiet = 50 * time.Millisecond
	return opts
}

var gif = []byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")

const index = `<!DOCTYPE html><html><head><meta charset="iso-8859-1"><title>Caf` + "\xe9" + `</title></head>
<body><h1>Caf` + "\xe9" + ` <img src="logo.gif"></h1><p><a href="two.html">two</a> <a href="/elsewhere/x.html#frag">x</a></p></body></html>`

func TestRender(t *testing.T) {
	b := newBrowser(t)
	mux := http.NewServeMux()
	mux.Handle("/start", http.RedirectHandler("/a/", http.StatusMovedPermanently))
	mux.Handle("/a/", http.RedirectHandler("/a/index.html", http.StatusFound))
	mux.HandleFunc("/a/index.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=iso-8859-1")
		w.Header().Set("Cache-Control", "max-age=60")
		w.Write([]byte(index))
	})
	mux.HandleFunc("/a/logo.gif", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/gif")
		w.Write(gif)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p, err := b.Render(ctx, srv.URL+"/start", RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p.URL != srv.URL+"/a/index.html" {
		t.Errorf("URL %s", p.URL)
	}
	if want := []string{srv.URL + "/start", srv.URL + "/a/", srv.URL + "/a/index.html"}; len(p.Chains) != 1 || !equal(p.Chains[0], want) {
		t.Errorf("chains %v, want [%v]", p.Chains, want)
	}
	if !bytes.Equal(p.Document.Body, []byte(index)) {
		t.Errorf("document bytes differ from what was served (a charset decoded?):\n%q", p.Document.Body)
	}
	if _, ok := Expiry(p.Document.Header, p.Document.Fetched); !ok {
		t.Error("no expiry from Cache-Control")
	}
	var logo *Response
	for _, r := range p.Responses {
		if r.URL == srv.URL+"/a/logo.gif" {
			logo = r
		}
	}
	if logo == nil || !bytes.Equal(logo.Body, gif) || logo.Type != "Image" {
		t.Errorf("logo response: %+v", logo)
	}
	if p.Title != "Café" {
		t.Errorf("title %q", p.Title)
	}
	if want := []string{srv.URL + "/a/two.html", srv.URL + "/elsewhere/x.html#frag"}; !equal(p.Links, want) {
		t.Errorf("links %v, want %v", p.Links, want)
	}
	if !bytes.HasPrefix(p.PDF, []byte("%PDF-")) {
		t.Errorf("not a PDF: %.20q", p.PDF)
	}
}

func TestFindChromium(t *testing.T) {
	if _, err := FindChromium("/nonexistent/chromium"); err == nil {
		t.Error("a missing --chromium path was accepted")
	}
	t.Setenv("PATH", t.TempDir())
	if _, err := FindChromium(""); !errors.Is(err, ErrNoChromium) {
		t.Errorf("empty PATH: %v", err)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A reused tab keeps pages apart: each page's responses are its own, and
// one tab serves page after page, when its pages have no timers to run on
// virtual time; a tab whose page ran on it (a timer due in 1 s) is not
// reused (its clock cannot be made real again).
func TestRenderReusesTabs(t *testing.T) {
	b := newBrowser(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".gif") {
			w.Header().Set("Content-Type", "image/gif")
			w.Write(gif)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<title>%s</title><img src="%s.gif">`, r.URL.Path, r.URL.Path)
		if r.URL.Path == "/timers" {
			fmt.Fprint(w, `<script>setTimeout(() => document.title = "later", 1000)</script>`)
		}
	}))
	defer srv.Close()
	for i := range 6 {
		path := fmt.Sprintf("/p%d", i)
		p, err := b.Render(context.Background(), srv.URL+path, RenderOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range p.Responses {
			got = append(got, strings.TrimPrefix(r.URL, srv.URL))
		}
		if want := []string{path, path + ".gif"}; !slices.Equal(got, want) || p.Title != path {
			t.Errorf("page %s: responses %q, title %q; want %q", path, got, p.Title, want)
		}
	}
	b.settled()
	b.mu.Lock()
	idle := len(b.idle)
	b.mu.Unlock()
	if idle != 1 {
		t.Errorf("%d idle tabs after rendering one page at a time, want 1", idle)
	}
	if p, err := b.Render(context.Background(), srv.URL+"/timers", RenderOptions{}); err != nil || p.Title != "later" {
		t.Fatalf("a page whose timer is due in 1 s: %v, title %q, want later", err, p.Title)
	}
	b.settled()
	b.mu.Lock()
	idle = len(b.idle)
	b.mu.Unlock()
	if idle != 0 {
		t.Errorf("%d idle tabs after a page on virtual time, want 0", idle)
	}
}

// Chromium is restarted every RestartEvery pages, between pages: a crawl
// of 7 pages with a restart every 3 captures them all, in two restarts.
func TestRestartEvery(t *testing.T) {
	b, err := NewBrowser(context.Background(), browsertest.Chromium(t), BrowserOptions{RestartEvery: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscanf(r.URL.Path, "/p%d", &n)
		w.Header().Set("Content-Type", "text/html")
		if n < 6 {
			fmt.Fprintf(w, `<title>%d</title><a href="/p%d">next</a>`, n, n+1)
		} else {
			fmt.Fprintf(w, `<title>%d</title>`, n)
		}
	}))
	defer srv.Close()
	res, err := Capture(context.Background(), b, []string{srv.URL + "/p0"}, testOptions(Options{Levels: 10, IgnoreRobots: true, Jobs: 1}))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pages) != 7 || b.restarts != 2 {
		t.Errorf("%d pages, %d restarts; want 7 pages, 2 restarts", len(res.Pages), b.restarts)
	}
}

// Media: a page is printed with CSS media print by default, screen when
// asked (the text pdftotext finds says which).
func TestRenderMedia(t *testing.T) {
	b := newBrowser(t)
	pdftotext, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("pdftotext (poppler-utils) is not installed")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<style>@media print { .screen { display: none } } @media screen { .print { display: none } }</style>` +
			`<p class="print">PRINTMEDIA</p><p class="screen">SCREENMEDIA</p>`))
	}))
	defer srv.Close()
	for _, media := range []string{"print", "screen"} {
		p, err := b.Render(context.Background(), srv.URL+"/", RenderOptions{Media: media, IdleQuiet: 50 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(t.TempDir(), media+".pdf")
		os.WriteFile(f, p.PDF, 0o644)
		out, err := exec.Command(pdftotext, f, "-").Output()
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(string(out)); got != strings.ToUpper(media)+"MEDIA" {
			t.Errorf("media %s: the PDF says %q", media, got)
		}
	}
}
