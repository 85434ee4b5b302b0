package pdfbuild

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// The manifest's shape (record.Manifest's JSON, which this package cannot
// import: record's tests import it).
type (
	buildManifest struct {
		Input     string          `json:"input"`
		Sources   string          `json:"sources"`
		Commands  []buildCommand  `json:"commands"`
		PageSets  []buildPageSet  `json:"pageSets"`
		ImageSets []buildImageSet `json:"imageSets,omitempty"`
	}
	buildCommand struct {
		Name     string `json:"name"`
		URL      string `json:"url"`
		Levels   *int64 `json:"levels,omitempty"`
		SameSite bool   `json:"sameSite,omitempty"`
	}
	buildPageSet struct {
		Pages       string     `json:"pages"`
		URL         string     `json:"url"`
		Redirects   [][]string `json:"redirects,omitempty"`
		ContentType string     `json:"contentType,omitempty"`
		Captured    string     `json:"captured,omitempty"`
		Title       string     `json:"title,omitempty"`
		Command     string     `json:"command,omitempty"`
	}
	buildImageSet struct {
		URL      string       `json:"url"`
		Captured string       `json:"captured,omitempty"`
		Images   []buildImage `json:"images"`
	}
	buildImage struct {
		Page int    `json:"page,omitempty"`
		Name string `json:"name,omitempty"`
	}
)

// buildHosts are the sites the pages come from: page i is on
// buildHosts[i%len(buildHosts)].
var buildHosts = []string{"www.example.com", "news.example.org", "blog.example.net", "docs.example.com"}

// buildImages is how many distinct images (and image sets) there are; page i
// shows image (i/buildImageEvery)%buildImages when i%buildImageEvery == 0.
const (
	buildImages     = 8
	buildImageEvery = 50
)

// BuildCase writes a generated case for "webcap build" into dir: an
// n-page PDF without Web Capture (input.pdf: a classic cross-reference
// table, a text content stream per page, an image XObject on every 50th
// page), a build manifest with one page set per page (manifest.json) and
// the captured sources it reads, as a wget mirror (sources/). The
// manifest's paths are relative to it, so the build works from any
// directory. Each page set has a distinct URL on one of four hosts (some
// with a query, some ending in '/'), a content type (HTML, every tenth
// plain text), a capture time, a title and the command that fetched it;
// every tenth has a redirect chain. The HTML pages use their host's style
// sheet and, every 50th, a logo, which the mirror holds; eight image sets
// name the logos and the pages' image XObjects. The same n gives the same
// bytes. It is for benchmarks (bench/cmd/genbuild, record's
// BenchmarkBuildCase10k): made at run time, never committed.
func BuildCase(n int, dir string) error {
	src := filepath.Join(dir, "sources")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "input.pdf"), caseInput(n), 0o644); err != nil {
		return err
	}
	m := &buildManifest{Input: "input.pdf", Sources: "sources"}
	for _, h := range buildHosts {
		l := int64(3)
		m.Commands = append(m.Commands, buildCommand{Name: h, URL: "https://" + h + "/", Levels: &l, SameSite: true})
		if err := caseWrite(src, h, "static/site.css", []byte(caseCSS(h))); err != nil {
			return err
		}
	}
	for j := range buildImages {
		if err := caseWrite(src, buildHosts[j%len(buildHosts)], fmt.Sprintf("static/logo%d.png", j), caseImage(j)); err != nil {
			return err
		}
	}
	base := time.Date(2026, 11, 21, 10, 30, 0, 0, time.UTC)
	for i := range n {
		h, path, html := casePage(i)
		u := "https://" + h + path
		ct := "text/plain"
		body := fmt.Sprintf("Plain text capture %d.\nThe quick brown fox jumps over the lazy dog.\n", i)
		if html {
			ct, body = "text/html", caseHTML(i, h)
		}
		if err := caseWrite(src, h, path, []byte(body)); err != nil {
			return err
		}
		ps := buildPageSet{Pages: fmt.Sprint(i + 1), URL: u, ContentType: ct,
			Captured: base.Add(time.Duration(i) * time.Second).Format(time.RFC3339), Title: caseTitle(i), Command: h}
		switch i % 20 {
		case 0:
			ps.Redirects = [][]string{{"http://" + h + path}}
		case 10:
			ps.Redirects = [][]string{{fmt.Sprintf("http://%s/go/%d", h, i), "http://" + h + path}}
		}
		m.PageSets = append(m.PageSets, ps)
	}
	for j := range buildImages {
		first := j * buildImageEvery
		if first >= n {
			break
		}
		is := buildImageSet{URL: fmt.Sprintf("https://%s/static/logo%d.png", buildHosts[j%len(buildHosts)], j),
			Captured: base.Format(time.RFC3339), Images: []buildImage{{Page: first + 1, Name: "Im0"}}}
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

// casePage returns page i's host, URL path and whether it is HTML.
func casePage(i int) (host, path string, html bool) {
	host = buildHosts[i%len(buildHosts)]
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

func caseTitle(i int) string {
	return fmt.Sprintf("Story %d: the quick brown fox jumps over the lazy dog", i)
}

func caseHTML(i int, host string) string {
	img := ""
	if i%buildImageEvery == 0 {
		j := i / buildImageEvery % buildImages
		img = fmt.Sprintf("<p><img src=\"https://%s/static/logo%d.png\" alt=\"logo %d\"></p>\n", buildHosts[j%len(buildHosts)], j, j)
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
`, caseTitle(i), caseTitle(i), img, host)
}

func caseCSS(host string) string {
	return fmt.Sprintf("/* %s */\nbody { font-family: serif; margin: 2em; }\nh1 { font-size: 150%%; }\n", host)
}

// caseImage is image j's captured bytes (not a real PNG: the identifier is
// an MD5 of the bytes, whatever they are).
func caseImage(j int) []byte {
	b := []byte(fmt.Sprintf("\x89PNG\r\n\x1a\nlogo %d\n", j))
	for k := range 64 {
		b = append(b, byte(j*31+k))
	}
	return b
}

func caseWrite(root, host, path string, data []byte) error {
	p := filepath.Join(root, host, filepath.FromSlash(path))
	if path[len(path)-1] == '/' {
		p = filepath.Join(p, "index.html")
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o644)
}

// caseInput is the n-page PDF to build into: classic xref, a shared font,
// a text content stream per page and an 8x8 gray image XObject on every
// buildImageEvery-th page.
func caseInput(n int) []byte {
	b := New()
	b.Version = "1.6"
	font := b.Add(D("Type", Name("Font"), "Subtype", Name("Type1"), "BaseFont", Name("Helvetica")))
	var xobj [buildImages]Ref
	for j := range buildImages {
		data := make([]byte, 64)
		for k := range data {
			data[k] = byte(j*31 + k*4)
		}
		xobj[j] = b.Add(&Stream{Dict: D("Type", Name("XObject"), "Subtype", Name("Image"),
			"Width", 8, "Height", 8, "ColorSpace", Name("DeviceGray"), "BitsPerComponent", 8), Data: data})
	}
	root := b.Reserve()
	kids := make(Array, 0, n)
	for i := range n {
		text := fmt.Sprintf("BT /F1 12 Tf 72 720 Td (%s) Tj ET", caseTitle(i))
		res := D("Font", D("F1", font))
		if i%buildImageEvery == 0 {
			text += " q 96 0 0 96 72 560 cm /Im0 Do Q"
			res = append(res, Entry{Key: "XObject", Value: D("Im0", xobj[i/buildImageEvery%buildImages])})
		}
		content := b.Add(&Stream{Dict: D(), Data: []byte(text)})
		kids = append(kids, b.Add(D("Type", Name("Page"), "Parent", root, "MediaBox", Array{0, 0, 612, 792},
			"Contents", content, "Resources", res)))
	}
	b.Set(root, D("Type", Name("Pages"), "Kids", kids, "Count", n))
	b.Root = b.Add(D("Type", Name("Catalog"), "Pages", root))
	return b.Bytes()
}
