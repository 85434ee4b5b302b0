// Package realsite serves issue 29's realistic site, generated: 30 page
// sets (29 HTML pages and a linked 2-page PDF file) and a 404, a nav menu
// and a logo on every page, a style sheet with a background image and a
// web font, srcset, <td background>, lazy images below the fold, images a
// script inserts after 1 s and 3 s, an iframe, a 301→302 chain, a
// windows-1252 page, Japanese and Greek titles, a handbook that prints as
// 12 pages, a GET form, a page that sets a cookie and one that reads it, a
// page whose script POSTs, a page whose one image never answers, gzip
// (/news/) and chunked (/handbook.html, /products/) answers.
//
// It records the bytes of every whole 200 answer it sends (before gzip),
// so that a test computes each page set's identifier from them (WantID),
// and counts the POSTs, the gzip and chunked answers, and the requests
// for the image that never answers. The browser suite (internal/cli) and
// the hostile suite capture it.
//
// Usage:
//
//	site, err := realsite.New()
//	srv := httptest.NewServer(site)
//	defer srv.Close()
//	defer site.Stop() // before srv.Close, which waits for the handlers
//	// webcap capture --levels 3 --allow-private srv.URL+"/index.html" ...
package realsite

import (
	"bytes"
	"compress/gzip"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/image/font/gofont/goregular"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// Pages are the paths of the site's page sets, the start page first (the
// redirect chain's set is /team.html's).
var Pages = []string{
	"/index.html",
	"/news/index.html", "/news/1.html", "/news/2.html", "/news/3.html", "/news/4.html", "/news/5.html", "/news/6.html", "/news/7.html", "/news/8.html",
	"/products/index.html", "/products/a.html", "/products/b.html", "/products/c.html",
	"/handbook.html", "/about.html", "/contact.html", "/gallery.html", "/chart.html", "/frame.html",
	"/reports.html", PDF, "/team.html", "/legacy.html", "/ja.html", "/el.html",
	"/account.html", Profile, "/subscribe.html", Slow,
}

// Paths of note.
const (
	PDF     = "/files/annual-report.pdf" // the linked PDF file, 2 pages
	Profile = "/profile.html"            // "Signed in as u12345" with account.html's cookie, else "Not signed in"
	Slow    = "/slow.html"               // its one image, Never, never answers
	Never   = "/img/never.gif"
	Missing = "/missing.html" // linked from the start page; a 404
	// ReportTitle is the linked PDF's text: "<ReportTitle>, page i of 2".
	ReportTitle = "Annual report 2026"
)

const (
	nav = `<nav><a href="/index.html">Home</a> | <a href="/news/index.html">News</a> | <a href="/products/index.html">Products</a> | <a href="/handbook.html">Handbook</a> | <a href="/about.html">About</a> | <a href="/contact.html">Contact</a></nav>`
	css = "@font-face { font-family: SiteFont; src: url(/fonts/site.ttf) format(\"truetype\"); }\nbody { font-family: SiteFont, serif; }\nheader { background-image: url(/img/banner.gif); height: 40px; }\nh2.ch { break-before: page; }\n"
)

// Site is the site and what it sent.
type Site struct {
	mux   *http.ServeMux
	files map[string][]byte   // path -> body (Profile's is made per request)
	aux   map[string][]string // page path -> its auxiliary files, in order of first reference
	types map[string]string   // path -> Content-Type

	mu       sync.Mutex
	sent     map[string][][16]byte // path -> the MD5 of each distinct body sent since Reset
	bodies   map[string][]byte     // path -> the last body sent
	counts   Counts
	stop     chan struct{} // closed by Stop
	stopOnce sync.Once
}

// Counts are what the site counted since New.
type Counts struct {
	Posts    int // POST /api/subscribe (subscribe.html's script)
	Gzipped  int // answers sent with Content-Encoding: gzip
	Chunked  int // answers sent in chunks (flushed, no Content-Length)
	Never    int // requests for Never
	NeverEnd int // of which the client gave up
}

// New builds the site.
func New() (*Site, error) {
	s := &Site{files: map[string][]byte{}, aux: map[string][]string{}, types: map[string]string{},
		sent: map[string][][16]byte{}, bodies: map[string][]byte{}, stop: make(chan struct{})}
	if err := s.images(); err != nil {
		return nil, err
	}
	s.files["/css/site.css"], s.types["/css/site.css"] = []byte(css), "text/css"
	s.files["/fonts/site.ttf"], s.types["/fonts/site.ttf"] = goregular.TTF, "font/ttf"
	s.files[PDF], s.types[PDF] = pdfbuild.Report(2, ReportTitle), "application/pdf"
	s.files["/frames/widget.html"] = []byte(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>Widget</title></head><body><p>Widget text inside the frame.</p></body></html>`)
	s.files["/js/chart.js"], s.types["/js/chart.js"] = []byte(`function add(src, w, h, text) {
  var i = document.createElement("img"); i.src = src; i.width = w; i.height = h; i.alt = "chart";
  document.getElementById("chart").appendChild(i);
  document.getElementById("status").textContent = text;
}
setTimeout(function () { add("/img/chart1.gif", 61, 41, "Chart part one drawn."); }, 1000);
setTimeout(function () { add("/img/chart3.gif", 63, 43, "Chart complete."); }, 3000);
`), "text/javascript"
	s.pages()

	s.mux = http.NewServeMux()
	s.mux.Handle("/old", http.RedirectHandler("/moved", http.StatusMovedPermanently))
	s.mux.Handle("/moved", http.RedirectHandler("/team.html", http.StatusFound))
	s.mux.HandleFunc("/api/subscribe", func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			s.mu.Lock()
			s.counts.Posts++
			s.mu.Unlock()
		}
		w.WriteHeader(http.StatusNoContent)
	})
	s.mux.HandleFunc(Never, func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.counts.Never++
		s.mu.Unlock()
		select { // no answer, until the client gives up (or Stop)
		case <-r.Context().Done():
			s.mu.Lock()
			s.counts.NeverEnd++
			s.mu.Unlock()
		case <-s.stop:
		}
	})
	s.mux.HandleFunc("/", s.serve)
	return s, nil
}

// images makes the site's GIFs, each of a size of its own (pdfimages
// finds each by its size).
func (s *Site) images() error {
	for _, im := range []struct {
		path string
		w, h int
		c    color.RGBA
	}{
		{"/img/logo.gif", 30, 12, color.RGBA{200, 30, 30, 255}},
		{"/img/banner.gif", 8, 40, color.RGBA{220, 220, 250, 255}},
		{"/img/hero-480.gif", 48, 20, color.RGBA{10, 120, 10, 255}},
		{"/img/hero-960.gif", 96, 40, color.RGBA{10, 140, 10, 255}},
		{"/img/tile.gif", 10, 10, color.RGBA{240, 200, 120, 255}},
		{"/img/g1.gif", 33, 22, color.RGBA{90, 20, 160, 255}},
		{"/img/g1-2x.gif", 66, 44, color.RGBA{90, 20, 170, 255}},
		{"/img/lazy1.gif", 40, 30, color.RGBA{0, 0, 200, 255}},
		{"/img/lazy2.gif", 44, 33, color.RGBA{0, 90, 200, 255}},
		{"/img/chart1.gif", 61, 41, color.RGBA{200, 90, 0, 255}},
		{"/img/chart3.gif", 63, 43, color.RGBA{200, 0, 90, 255}},
	} {
		if err := s.gif(im.path, im.w, im.h, im.c); err != nil {
			return err
		}
	}
	for i := 1; i <= 8; i++ {
		if err := s.gif(fmt.Sprintf("/img/news%d.gif", i), 20+i, 14, color.RGBA{uint8(25 * i), 60, 60, 255}); err != nil {
			return err
		}
	}
	return nil
}

// gif adds a w x h GIF of one colour at path.
func (s *Site) gif(path string, w, h int, c color.RGBA) error {
	img := image.NewPaletted(image.Rect(0, 0, w, h), color.Palette{c, color.White})
	var buf bytes.Buffer
	if err := gif.Encode(&buf, img, nil); err != nil {
		return fmt.Errorf("realsite: %s: %w", path, err)
	}
	s.files[path], s.types[path] = buf.Bytes(), "image/gif"
	return nil
}

// page adds an HTML page in UTF-8 with the site's head, logo and nav; aux
// are the files body references, in order (the logo's first).
func (s *Site) page(path, lang, title, body string, aux ...string) {
	var b strings.Builder
	fmt.Fprintf(&b, `<!DOCTYPE html><html lang="%s"><head><meta charset="utf-8"><title>%s</title><link rel="stylesheet" href="/css/site.css"></head>`, lang, title)
	fmt.Fprintf(&b, `<body><header><img src="/img/logo.gif" width="30" height="12" alt="Example Co."></header>%s<main><h1>%s</h1>%s</main><footer>© 2026 Example Co.</footer></body></html>`, nav, title, body)
	s.files[path] = []byte(b.String())
	s.aux[path] = append([]string{"/img/logo.gif"}, aux...)
}

// pages adds the HTML pages.
func (s *Site) pages() {
	s.page("/index.html", "en", "Example Co.",
		`<p><img src="/img/hero-480.gif" srcset="/img/hero-480.gif 480w, /img/hero-960.gif 960w" sizes="480px" alt="hero"></p>`+
			`<table><tr><td background="/img/tile.gif" width="200" height="40">Welcome to Example Co.</td></tr></table>`+
			`<ul><li><a href="gallery.html">Gallery</a><li><a href="chart.html">Chart</a><li><a href="frame.html">Widget</a>`+
			`<li><a href="reports.html">Reports</a><li><a href="/old">Our team</a><li><a href="missing.html">Archive</a>`+
			`<li><a href="legacy.html">Legacy</a><li><a href="ja.html">日本語</a><li><a href="el.html">Ελληνικά</a>`+
			`<li><a href="account.html">Account</a><li><a href="profile.html">Profile</a><li><a href="subscribe.html">Newsletter</a>`+
			`<li><a href="slow.html">Slow</a></ul>`,
		"/img/hero-480.gif", "/img/hero-960.gif", "/img/tile.gif")
	var news strings.Builder
	for i := 1; i <= 8; i++ {
		fmt.Fprintf(&news, `<li><a href="%d.html">Story %d</a>`, i, i)
		s.page(fmt.Sprintf("/news/%d.html", i), "en", fmt.Sprintf("Story %d", i),
			fmt.Sprintf(`<p><img src="/img/news%d.gif" alt=""></p><p>The text of story %d, sent with gzip.</p>`, i, i)+strings.Repeat("<p>Lorem ipsum dolor sit amet. </p>", 10),
			fmt.Sprintf("/img/news%d.gif", i))
	}
	s.page("/news/index.html", "en", "News", "<ul>"+news.String()+"</ul>")
	s.page("/products/index.html", "en", "Products", `<ul><li><a href="a.html">Product A</a><li><a href="b.html">Product B</a><li><a href="c.html">Product C</a></ul>`)
	for _, p := range []string{"a", "b", "c"} {
		s.page("/products/"+p+".html", "en", "Product "+strings.ToUpper(p), fmt.Sprintf("<p>Product %s, sent in chunks.</p>", strings.ToUpper(p))+strings.Repeat("<p>Specification line. </p>", 200))
	}
	var hb strings.Builder
	for i := 1; i <= 12; i++ {
		class := ""
		if i > 1 {
			class = ` class="ch"` // a page break before it
		}
		fmt.Fprintf(&hb, `<h2%s>Chapter %d</h2><p>Handbook chapter %d text.</p>`, class, i, i)
	}
	s.page("/handbook.html", "en", "Handbook", hb.String())
	s.page("/about.html", "en", "About", `<p>About Example Co.</p>`)
	s.page("/contact.html", "en", "Contact", `<form action="/search" method="get"><input name="q" value=""><input type="submit" value="Search"></form>`)
	s.page("/gallery.html", "en", "Gallery",
		`<p><img src="/img/g1.gif" srcset="/img/g1.gif 1x, /img/g1-2x.gif 2x" alt="g1"></p>`+
			`<table><tr><td background="/img/tile.gif" width="100" height="30">tiled</td></tr></table>`+
			`<div style="height:5000px">Scroll down.</div>`+
			`<img loading="lazy" src="/img/lazy1.gif" width="40" height="30" alt="lazy one"><div style="height:3000px"></div>`+
			`<img loading="lazy" src="/img/lazy2.gif" width="44" height="33" alt="lazy two">`,
		"/img/g1.gif", "/img/g1-2x.gif", "/img/tile.gif", "/img/lazy1.gif", "/img/lazy2.gif")
	// The script's images are not in the markup: not in the identifier.
	s.page("/chart.html", "en", "Chart", `<p id="status">Loading chart…</p><div id="chart"></div><script src="/js/chart.js"></script>`)
	s.page("/frame.html", "en", "Widget", `<iframe src="/frames/widget.html" width="400" height="120"></iframe>`, "/frames/widget.html")
	s.page("/reports.html", "en", "Reports", `<p><a href="`+PDF+`">Annual report 2026 (PDF)</a></p>`)
	s.page("/team.html", "en", "Team", `<p>Our team, reached through a 301 and a 302.</p>`)
	s.page("/ja.html", "ja", "会社案内", `<p>私たちについて。</p>`)
	s.page("/el.html", "el", "Σχετικά με εμάς", `<p>Καλώς ήρθατε.</p>`)
	s.page("/account.html", "en", "Account", `<p>Account page: it sets the session cookie.</p>`)
	s.page("/subscribe.html", "en", "Newsletter", `<p>Subscribe to our newsletter.</p><script>fetch("/api/subscribe", {method: "POST", body: "email=reader%40example.com"});</script>`)
	// Never is never sent: it is left out of the page's identifier.
	s.page(Slow, "en", "Slow", `<p>A page whose image never arrives.</p><img src="`+Never+`" width="50" height="50" alt="never">`)
	s.page(Profile, "en", "Profile", "")
	// windows-1252: “quoted”, é and € are bytes 0x93, 0x94, 0xE9, 0x80.
	s.files["/legacy.html"] = []byte("<!DOCTYPE html><html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1252\"><title>Legacy</title></head><body>" +
		nav + "<h1>Legacy</h1><p>Caf\xe9 \x93quoted\x94 costs 5 \x80.</p><img src=\"/img/logo.gif\" alt=\"\"></body></html>")
	s.types["/legacy.html"] = "text/html; charset=windows-1252"
	s.aux["/legacy.html"] = []string{"/img/logo.gif"}
}

// ServeHTTP serves the site.
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// Stop makes the handlers of Never return: call it before the server's
// Close, which waits for them.
func (s *Site) Stop() { s.stopOnce.Do(func() { close(s.stop) }) }

// File is the body served at path (Profile's without its line).
func (s *Site) File(path string) []byte { return s.files[path] }

// serve answers a file: Profile by the session cookie, /news/ with gzip
// when asked, /handbook.html and /products/ in chunks.
func (s *Site) serve(w http.ResponseWriter, r *http.Request) {
	body, ok := s.files[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	if r.URL.Path == Profile {
		who := "Not signed in"
		if c, err := r.Cookie("session"); err == nil {
			who = "Signed in as " + c.Value
		}
		body = bytes.Replace(body, []byte("</h1>"), []byte("</h1><p>"+who+"</p>"), 1)
	}
	ct := s.types[r.URL.Path]
	if ct == "" {
		ct = "text/html; charset=utf-8"
	}
	w.Header().Set("Content-Type", ct)
	if r.URL.Path == "/account.html" {
		http.SetCookie(w, &http.Cookie{Name: "session", Value: "u12345", Path: "/"})
	}
	s.record(r.URL.Path, body)
	switch {
	case strings.HasPrefix(r.URL.Path, "/news/") && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip"):
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(body)
		zw.Close()
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Length", strconv.Itoa(z.Len()))
		w.Write(z.Bytes())
		s.count(&s.counts.Gzipped)
	case r.URL.Path == "/handbook.html" || strings.HasPrefix(r.URL.Path, "/products/"):
		// No Content-Length, a flush: Go sends it chunked.
		half := len(body) / 2
		w.Write(body[:half])
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		w.Write(body[half:])
		s.count(&s.counts.Chunked)
	default:
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	}
}

func (s *Site) count(n *int) {
	s.mu.Lock()
	*n++
	s.mu.Unlock()
}

// record notes a body sent for path.
func (s *Site) record(path string, body []byte) {
	sum := md5.Sum(body)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !slices.Contains(s.sent[path], sum) {
		s.sent[path] = append(s.sent[path], sum)
	}
	s.bodies[path] = body
}

// Reset forgets what was sent (not the counts), before a capture.
func (s *Site) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sent, s.bodies = map[string][][16]byte{}, map[string][]byte{}
}

// Counts returns what the site counted.
func (s *Site) Counts() Counts {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts
}

// WantID is path's identifier by the identifier rule (package webcapture,
// "Digital identifiers"), from the bytes sent since Reset: the MD5 of the
// body, then of each auxiliary file's MD5 (its 16 bytes), in order of
// first reference; a PDF file's, the MD5 of its bytes. It is upper-case
// hex. It says so when path or one of its files was not sent, or was sent
// with different bodies.
func (s *Site) WantID(path string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := md5.New()
	for i, p := range append([]string{path}, s.aux[path]...) {
		switch n := len(s.sent[p]); {
		case n == 0:
			return "", fmt.Errorf("%s was not sent", p)
		case n > 1:
			return "", fmt.Errorf("%s was sent with %d different bodies", p, n)
		}
		if i == 0 {
			h.Write(s.bodies[p])
		} else {
			h.Write(s.sent[p][0][:])
		}
	}
	return strings.ToUpper(hex.EncodeToString(h.Sum(nil))), nil
}
