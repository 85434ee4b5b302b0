// Command genbuild writes a generated capture to build, for the "webcap
// build" benchmark (issue 17): an N-page PDF without Web Capture, a build
// manifest with one page set per page, and the captured sources the
// manifest reads, as a wget mirror:
//
//	genbuild -sets 10000 -dir DIR
//	webcap build DIR/manifest.json -o out.pdf
//
// DIR/input.pdf has a classic cross-reference table; each page has a small
// text content stream, and every 50th page also shows an image XObject.
// DIR/manifest.json names input.pdf and sources/ relative to itself (so
// build works from any directory) and has, per page, a distinct URL on one
// of a few hosts (some with a query, some ending in '/'), a content type
// (HTML, some plain text), a capture time, a title and the command that
// fetched it; every 10th set has a redirect chain. The HTML pages use their
// host's style sheet and logo, which are in the mirror too; eight image sets
// name the logos and the pages' image XObjects. The output is the same for
// the same N.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/record"
)

// hosts are the sites the pages come from; page i is on hosts[i%len(hosts)].
var hosts = []string{"www.example.com", "news.example.org", "blog.example.net", "docs.example.com"}

// images is how many distinct images (and image sets) there are; page i
// shows image (i/imageEvery)%images when i%imageEvery == 0.
const (
	images     = 8
	imageEvery = 50
)

func main() {
	n := flag.Int("sets", 10000, "number of pages and page sets")
	dir := flag.String("dir", "build", "directory to write input.pdf, manifest.json and sources/ in")
	flag.Parse()
	if *n < 1 {
		log.Fatal("genbuild: -sets must be at least 1")
	}
	if err := generate(*n, *dir); err != nil {
		log.Fatal(err)
	}
}

func generate(n int, dir string) error {
	src := filepath.Join(dir, "sources")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "input.pdf"), inputPDF(n), 0o644); err != nil {
		return err
	}
	m := &record.Manifest{Input: "input.pdf", Sources: "sources"}
	for _, h := range hosts {
		l := int64(3)
		m.Commands = append(m.Commands, record.Command{Name: h, URL: "https://" + h + "/", Levels: &l, SameSite: true})
		if err := write(src, h, "static/site.css", []byte(css(h))); err != nil {
			return err
		}
	}
	for j := range images {
		if err := write(src, hosts[j%len(hosts)], fmt.Sprintf("static/logo%d.png", j), imageData(j)); err != nil {
			return err
		}
	}
	base := time.Date(2026, 11, 21, 10, 30, 0, 0, time.UTC)
	for i := range n {
		h, path, html := page(i)
		u := "https://" + h + path
		ct := "text/plain"
		body := fmt.Sprintf("Plain text capture %d.\nThe quick brown fox jumps over the lazy dog.\n", i)
		if html {
			ct, body = "text/html", htmlPage(i, h)
		}
		if err := write(src, h, path, []byte(body)); err != nil {
			return err
		}
		ps := record.PageSet{Pages: fmt.Sprint(i + 1), URL: u, ContentType: ct,
			Captured: base.Add(time.Duration(i) * time.Second).Format(time.RFC3339), Title: title(i), Command: h}
		switch i % 20 {
		case 0:
			ps.Redirects = [][]string{{"http://" + h + path}}
		case 10:
			ps.Redirects = [][]string{{fmt.Sprintf("http://%s/go/%d", h, i), "http://" + h + path}}
		}
		m.PageSets = append(m.PageSets, ps)
	}
	for j := range images {
		first := j * imageEvery
		if first >= n {
			break
		}
		is := record.ImageSet{URL: fmt.Sprintf("https://%s/static/logo%d.png", hosts[j%len(hosts)], j),
			Captured: base.Format(time.RFC3339), Images: []record.Image{{Page: first + 1, Name: "Im0"}}}
		m.ImageSets = append(m.ImageSets, is)
	}
	f, err := os.Create(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// page returns page i's host, URL path and whether it is HTML.
func page(i int) (host, path string, html bool) {
	host = hosts[i%len(hosts)]
	sec := fmt.Sprintf("/section-%03d", i/4%250)
	switch {
	case i%10 == 3:
		return host, fmt.Sprintf("%s/notes-%06d.txt", sec, i), false
	case i%10 == 7:
		return host, fmt.Sprintf("%s/article/%06d/", sec, i), true
	case i%10 == 9:
		return host, fmt.Sprintf("%s/view?id=%d&lang=en", sec, i), true
	default:
		return host, fmt.Sprintf("%s/story-%06d-the-quick-brown-fox.html", sec, i), true
	}
}

func title(i int) string {
	return fmt.Sprintf("Story %d: the quick brown fox jumps over the lazy dog", i)
}

func htmlPage(i int, host string) string {
	img := ""
	if i%imageEvery == 0 {
		j := i / imageEvery % images
		img = fmt.Sprintf("<p><img src=\"https://%s/static/logo%d.png\" alt=\"logo %d\"></p>\n", hosts[j%len(hosts)], j, j)
	}
	return fmt.Sprintf(`<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<title>%s</title>
<link rel="stylesheet" href="/static/site.css">
</head>
<body>
<h1>%s</h1>
%s<p>Captured from %s for the build benchmark. The quick brown fox jumps over the lazy dog.</p>
</body>
</html>
`, title(i), title(i), img, host)
}

func css(host string) string {
	return fmt.Sprintf("/* %s */\nbody { font-family: serif; margin: 2em; }\nh1 { font-size: 150%%; }\n", host)
}

// imageData is image j's captured bytes (not a real PNG: the identifier is
// an MD5 of the bytes, whatever they are).
func imageData(j int) []byte {
	b := []byte(fmt.Sprintf("\x89PNG\r\n\x1a\nlogo %d\n", j))
	for k := range 64 {
		b = append(b, byte(j*31+k))
	}
	return b
}

func write(root, host, path string, data []byte) error {
	p := filepath.Join(root, host, filepath.FromSlash(path))
	if path[len(path)-1] == '/' {
		p = filepath.Join(p, "index.html")
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o644)
}

// inputPDF is the n-page PDF to build into: classic xref, a shared font,
// a text content stream per page and an 8x8 gray image XObject on every
// imageEvery-th page.
func inputPDF(n int) []byte {
	b := pdfbuild.New()
	b.Version = "1.6"
	font := b.Add(pdfbuild.D("Type", pdfbuild.Name("Font"), "Subtype", pdfbuild.Name("Type1"), "BaseFont", pdfbuild.Name("Helvetica")))
	var xobj [images]pdfbuild.Ref
	for j := range images {
		data := make([]byte, 64)
		for k := range data {
			data[k] = byte(j*31 + k*4)
		}
		xobj[j] = b.Add(&pdfbuild.Stream{Dict: pdfbuild.D("Type", pdfbuild.Name("XObject"), "Subtype", pdfbuild.Name("Image"),
			"Width", 8, "Height", 8, "ColorSpace", pdfbuild.Name("DeviceGray"), "BitsPerComponent", 8), Data: data})
	}
	root := b.Reserve()
	kids := make(pdfbuild.Array, 0, n)
	for i := range n {
		text := fmt.Sprintf("BT /F1 12 Tf 72 720 Td (%s) Tj ET", title(i))
		res := pdfbuild.D("Font", pdfbuild.D("F1", font))
		if i%imageEvery == 0 {
			text += " q 96 0 0 96 72 560 cm /Im0 Do Q"
			res = append(res, pdfbuild.Entry{Key: "XObject", Value: pdfbuild.D("Im0", xobj[i/imageEvery%images])})
		}
		content := b.Add(&pdfbuild.Stream{Dict: pdfbuild.D(), Data: []byte(text)})
		kids = append(kids, b.Add(pdfbuild.D("Type", pdfbuild.Name("Page"), "Parent", root, "MediaBox", pdfbuild.Array{0, 0, 612, 792},
			"Contents", content, "Resources", res)))
	}
	b.Set(root, pdfbuild.D("Type", pdfbuild.Name("Pages"), "Kids", kids, "Count", n))
	b.Root = b.Add(pdfbuild.D("Type", pdfbuild.Name("Catalog"), "Pages", root))
	return b.Bytes()
}
