package cli

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webcap/webcap/capture"
	pb "github.com/webcap/webcap/internal/pdfbuild"
)

// source is one source of the identifier corpus: its bytes, the type the
// server declares, and the auxiliary files its identifier covers, in
// order of first reference.
type source struct {
	body []byte
	ct   string
	aux  []string
}

// sourceCorpus is one source of each kind whose rule a tool could get
// wrong: HTML, XHTML (application/xhtml+xml, a page), HTML after a UTF-8
// byte-order mark, plain text that shows markup (a file, not a page),
// SVG (an image net/http's sniffer takes for text), GIF, PNG, JPEG, AVIF
// (which net/http's sniffer misses), a PDF, and a page of frames (its
// frames' documents are its auxiliary files).
func sourceCorpus(t *testing.T) map[string]source {
	t.Helper()
	var pngBuf, jpgBuf bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 5, 4))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7)
	}
	png.Encode(&pngBuf, img)
	jpeg.Encode(&jpgBuf, img, nil)
	avif, err := os.ReadFile("../../testdata/sources/px.avif")
	if err != nil {
		t.Fatal(err)
	}
	b := pb.New()
	root, _ := b.PageTree(1, nil)
	b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", root))
	return map[string]source{
		"/c/html.html": {[]byte(`<!DOCTYPE html><html><head><title>HTML</title></head><body><img src="img/a.gif"><p>A page.</p></body></html>`),
			"text/html; charset=utf-8", []string{"/c/img/a.gif"}},
		"/c/xhtml.xhtml": {[]byte(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">` +
			`<html xmlns="http://www.w3.org/1999/xhtml"><head><title>XHTML</title></head><body><p><img src="img/b.png" alt="b"/> An XHTML page.</p></body></html>`),
			"application/xhtml+xml", []string{"/c/img/b.png"}},
		"/c/bom.html": {[]byte("\xef\xbb\xbf<!DOCTYPE html><html><head><title>BOM</title></head><body><img src=\"img/c.jpg\"><p>After a byte-order mark.</p></body></html>"),
			"text/html; charset=utf-8", []string{"/c/img/c.jpg"}},
		"/c/text.txt":    {[]byte("Plain text that shows markup: <img src=\"img/a.gif\"> is not an image here.\n"), "text/plain; charset=utf-8", nil},
		"/c/pic.svg":     {[]byte(`<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="teal"/></svg>`), "image/svg+xml", nil},
		"/c/img/a.gif":   {[]byte(gifBytes), "image/gif", nil},
		"/c/img/b.png":   {pngBuf.Bytes(), "image/png", nil},
		"/c/img/c.jpg":   {jpgBuf.Bytes(), "image/jpeg", nil},
		"/c/img/d.avif":  {avif, "image/avif", nil},
		"/c/doc.pdf":     {b.Bytes(), "application/pdf", nil},
		"/c/frames.html": {[]byte(`<!DOCTYPE html><html><head><title>Frames</title></head><frameset cols="50%,50%"><frame src="html.html"><frame src="text.txt"></frameset></html>`), "text/html", []string{"/c/html.html", "/c/text.txt"}},
	}
}

// want is a source's identifier by its definition, from the bytes: MD5 of
// the source, then of each auxiliary file's MD5.
func (s source) want(corpus map[string]source) string {
	h := md5.New()
	h.Write(s.body)
	for _, a := range s.aux {
		sum := md5.Sum(corpus[a].body)
		h.Write(sum[:])
	}
	return strings.ToUpper(hex.EncodeToString(h.Sum(nil)))
}

// TestBrowserOneIdentifier feeds one corpus of sources through all five
// paths that compute identifiers — webcap id (by the bytes), build (a
// manifest without content types: sniffed), capture (the server's
// Content-Type), audit --sources (the recorded /CT) and refresh — and
// requires one identifier per source, the one computed here from the
// bytes the server sent.
func TestBrowserOneIdentifier(t *testing.T) {
	browserSuite(t)
	corpus := sourceCorpus(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s, ok := corpus[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", s.ct)
		w.Write(s.body)
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	dir := t.TempDir()
	mirror := filepath.Join(dir, "mirror")
	var paths []string
	for p, s := range corpus {
		f := filepath.Join(mirror, host, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(f), 0o755)
		if err := os.WriteFile(f, s.body, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	got := map[string]map[string]string{} // path -> tool -> ID
	note := func(tool, path, id string) {
		if got[path] == nil {
			got[path] = map[string]string{}
		}
		got[path][tool] = id
	}

	// webcap id, by the bytes alone.
	for _, p := range paths {
		var j idJSON
		if code := runJSON(t, &j, "id", "--json", "--aux", mirror, filepath.Join(mirror, host, filepath.FromSlash(p))); code != 0 {
			t.Errorf("id %s: exit %d: %+v", p, code, j)
		}
		note("id", p, j.ID)
	}

	// capture, by the server's Content-Type.
	var urls []string
	for _, p := range paths {
		urls = append(urls, srv.URL+p)
	}
	file := filepath.Join(dir, "capture.pdf")
	var sum struct {
		Pages []struct {
			URL string `json:"url"`
			ID  string `json:"id"`
		} `json:"captured"`
		Skips []capture.Skip `json:"skipped"`
	}
	if code := runJSON(t, &sum, append([]string{"capture", "--json", "--ignore-robots", "--wait-idle", "50ms", "--max-pages", "100", "-o", file}, urls...)...); code != 0 {
		t.Fatalf("capture: exit %d: %+v", code, sum)
	}
	for _, pg := range sum.Pages {
		note("capture", strings.TrimPrefix(pg.URL, srv.URL), pg.ID)
	}

	// audit --sources: it recomputes each set's identifier from the mirror
	// (by the /CT the capture recorded) and says when it differs.
	ios, _, stdout, _ := Test()
	if code := Main(context.Background(), []string{"audit", "--in-process", "--sources", mirror, file}, ios); code != 0 || strings.Contains(stdout.String(), "WC-SOURCE") {
		t.Errorf("audit --sources: exit %d\n%s", code, stdout)
	}

	// build, from a manifest that declares no content type (sniffed).
	input := pb.New()
	root, _ := input.PageTree(len(paths), nil)
	input.Root = input.Add(pb.D("Type", pb.Name("Catalog"), "Pages", root))
	if err := os.WriteFile(filepath.Join(dir, "pages.pdf"), input.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	type pageSet struct {
		Pages  string `json:"pages"`
		URL    string `json:"url"`
		Source string `json:"source"`
	}
	m := struct {
		Input    string    `json:"input"`
		Sources  string    `json:"sources"`
		PageSets []pageSet `json:"pageSets"`
	}{Input: "pages.pdf", Sources: "mirror"}
	for i, p := range paths {
		m.PageSets = append(m.PageSets, pageSet{fmt.Sprint(i + 1), srv.URL + p, filepath.Join("mirror", host, filepath.FromSlash(p))})
	}
	mb, _ := json.Marshal(m)
	os.WriteFile(filepath.Join(dir, "manifest.json"), mb, 0o644)
	var built buildSummary
	if code := runJSON(t, &built, "build", "--json", filepath.Join(dir, "manifest.json"), "-o", filepath.Join(dir, "built.pdf")); code != 0 {
		t.Errorf("build: exit %d: %+v", code, built)
	}
	for _, s := range built.Sets {
		note("build", strings.TrimPrefix(s.URL, srv.URL), s.ID)
	}

	// refresh: what it computes now equals what the capture recorded.
	var rep refreshReport
	if code := runJSON(t, &rep, "refresh", "--json", "--dry-run", "--allow-private", "--ignore-robots", "--wait-idle", "50ms", file); code != 0 {
		t.Errorf("refresh --dry-run: exit %d: %+v", code, rep.Pages)
	}
	for _, c := range rep.Pages {
		if c.Status == capture.StatusUnchanged {
			note("refresh", strings.TrimPrefix(c.URL, srv.URL), c.New)
		}
	}

	for _, p := range paths {
		want := corpus[p].want(corpus)
		for _, tool := range []string{"id", "build", "capture", "refresh"} {
			if id := got[p][tool]; id != want {
				t.Errorf("%s: %s gives %q, want %s", p, tool, id, want)
			}
		}
	}
}
