package main

import (
	"bytes"
	"fmt"
	"html"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
)

// A site is a generated local site of n pages: an index (/) linking to
// pages /p/1.html … /p/(n-1).html. Every page has a shared style sheet,
// an image of its own (a 360×240 PNG, about 80 KB), headings, about 6 KB
// of text in paragraphs and a list, and links (to the index, to the
// pages before and after it, and to an anchor of its own). Everything is
// generated from the page's number, so every run serves the same bytes.
type site struct {
	n      int
	images map[int][]byte
}

func newSite(n int) *site {
	s := &site{n: n, images: map[int][]byte{}}
	for i := 0; i < n; i++ {
		s.images[i] = picture(i)
	}
	return s
}

// URLs are the site's pages, in the order webcap captures them
// (breadth-first from the index: the index, then its links in order).
func (s *site) URLs(base string) []string {
	urls := []string{base + "/"}
	for i := 1; i < s.n; i++ {
		urls = append(urls, fmt.Sprintf("%s/p/%d.html", base, i))
	}
	return urls
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch p := r.URL.Path; {
	case p == "/":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(s.page(0))
	case p == "/style.css":
		w.Header().Set("Content-Type", "text/css")
		w.Write([]byte(style))
	case strings.HasPrefix(p, "/p/") && strings.HasSuffix(p, ".html"):
		i, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(p, "/p/"), ".html"))
		if err != nil || i < 1 || i >= s.n {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(s.page(i))
	case strings.HasPrefix(p, "/img/") && strings.HasSuffix(p, ".png"):
		i, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(p, "/img/"), ".png"))
		if err != nil || s.images[i] == nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "image/png")
		w.Write(s.images[i])
	default:
		http.NotFound(w, r)
	}
}

const style = `body { font-family: serif; margin: 2em auto; max-width: 42em; line-height: 1.45; color: #222; }
header { border-bottom: 2px solid #36c; margin-bottom: 1em; }
h1 { font-size: 1.8em; color: #036; } h2 { font-size: 1.3em; margin-top: 1.5em; }
nav a { margin-right: 1em; } a { color: #36c; }
figure { margin: 1em 0; } figure img { width: 360px; height: 240px; border: 1px solid #999; }
figcaption { font-style: italic; font-size: .9em; }
.note { background: #eef; padding: .5em 1em; border-left: 4px solid #36c; }
footer { margin-top: 2em; font-size: .8em; color: #666; }
`

var words = strings.Fields(`archive capture record page browser print document source identifier
content set image style sheet link anchor section paragraph reader court regulator newsroom
exhibit evidence witness statement schedule report annual budget council minutes agenda
meeting notice public policy amendment article chapter appendix figure table summary`)

func (s *site) page(i int) []byte {
	rng := rand.New(rand.NewPCG(uint64(i), 29))
	sentence := func() string {
		n := 8 + rng.IntN(12)
		ws := make([]string, n)
		for k := range ws {
			ws[k] = words[rng.IntN(len(words))]
		}
		ws[0] = strings.ToUpper(ws[0][:1]) + ws[0][1:]
		return strings.Join(ws, " ") + "."
	}
	para := func() string {
		var b strings.Builder
		for range 4 + rng.IntN(3) {
			b.WriteString(sentence())
			b.WriteByte(' ')
		}
		return html.EscapeString(b.String())
	}
	title := "Index of the site"
	if i > 0 {
		title = fmt.Sprintf("Page %d: %s", i, words[i%len(words)])
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "<!doctype html>\n<html lang=en><head><meta charset=utf-8><title>%s</title>\n<link rel=stylesheet href=/style.css></head>\n<body>\n", title)
	fmt.Fprintf(&b, "<header><h1>%s</h1><nav><a href=/>Index</a>", title)
	if i > 1 {
		fmt.Fprintf(&b, "<a href=/p/%d.html>Previous</a>", i-1)
	}
	if i+1 < s.n {
		fmt.Fprintf(&b, "<a href=/p/%d.html>Next</a>", i+1)
	}
	b.WriteString("<a href=#notes>Notes</a></nav></header>\n")
	if i == 0 {
		b.WriteString("<h2>Pages</h2><ul>\n")
		for k := 1; k < s.n; k++ {
			fmt.Fprintf(&b, "<li><a href=/p/%d.html>Page %d</a></li>\n", k, k)
		}
		b.WriteString("</ul>\n")
	}
	fmt.Fprintf(&b, "<figure><img src=/img/%d.png alt=\"Figure %d\" width=360 height=240><figcaption>Figure %d. %s</figcaption></figure>\n", i, i, i, html.EscapeString(sentence()))
	for k := range 3 {
		fmt.Fprintf(&b, "<h2>Section %d</h2>\n<p>%s</p>\n<p>%s</p>\n", k+1, para(), para())
	}
	b.WriteString("<ul>\n")
	for range 5 {
		fmt.Fprintf(&b, "<li>%s</li>\n", html.EscapeString(sentence()))
	}
	fmt.Fprintf(&b, "</ul>\n<h2 id=notes>Notes</h2>\n<p class=note>%s</p>\n<footer>Generated page %d of %d.</footer>\n</body></html>\n", para(), i, s.n)
	return b.Bytes()
}

// picture is page i's image: bands of colour with noise, so that it
// compresses as a photograph's PNG would (about 80 KB).
func picture(i int) []byte {
	rng := rand.New(rand.NewPCG(uint64(i), 7))
	img := image.NewRGBA(image.Rect(0, 0, 360, 240))
	for y := range 240 {
		for x := range 360 {
			n := uint8(rng.IntN(24))
			img.Set(x, y, color.RGBA{uint8(x*255/360) + n, uint8(y*255/240) + n, uint8(i*37) + n, 255})
		}
	}
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}
