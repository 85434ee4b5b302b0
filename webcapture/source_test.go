package webcapture

import (
	"crypto/md5"
	"mime"
	"testing"
)

func TestKindOf(t *testing.T) {
	for _, tc := range []struct {
		name, data, ct string
		kind           SourceKind
		mt             string
	}{
		{"HTML", "<!DOCTYPE html><html><p>x</p></html>", "", SourcePage, "text/html"},
		{"HTML after a BOM", "\xef\xbb\xbf<!DOCTYPE html><html><p>x</p></html>", "", SourcePage, "text/html"},
		{"XHTML", `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body/></html>`, "", SourcePage, "application/xhtml+xml"},
		{"XHTML declared", `<html/>`, "application/xhtml+xml; charset=utf-8", SourcePage, "application/xhtml+xml"},
		{"plain text that shows markup", "Text: <img src=a.gif> is not an image.\n", "", SourceFile, "text/plain"},
		{"declared text wins over the bytes", "<html><img src=a.gif></html>", "text/plain", SourceFile, "text/plain"},
		{"SVG", `<svg xmlns="http://www.w3.org/2000/svg"/>`, "", SourceImage, "image/svg+xml"},
		{"GIF", "GIF89a\x01\x00\x01\x00\x00\x00\x00;", "", SourceImage, "image/gif"},
		{"AVIF", "\x00\x00\x00\x1cftypavif\x00\x00\x00\x00avifmif1miaf", "", SourceImage, "image/avif"},
		{"PDF", "%PDF-1.7\n1 0 obj", "", SourcePDF, "application/pdf"},
		{"octet-stream is no declaration", "%PDF-1.4\n", "application/octet-stream", SourcePDF, "application/pdf"},
		{"XML", `<?xml version="1.0"?><root/>`, "", SourceFile, "text/xml"},
		{"a bad declaration is none", "<!DOCTYPE html><p>x", "text/", SourcePage, "text/html"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kind, mt := KindOf([]byte(tc.data), tc.ct)
			if kind != tc.kind || mt != tc.mt {
				t.Errorf("KindOf(%.30q, %q) = %v, %q; want %v, %q", tc.data, tc.ct, kind, mt, tc.kind, tc.mt)
			}
		})
	}
}

// SourceID: a page covers its auxiliary files; anything else is the MD5 of
// its bytes, whatever markup it shows; a forced kind is obeyed.
func TestSourceID(t *testing.T) {
	gif := []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;")
	aux := MapSource{"http://h/a.gif": gif}
	page := []byte(`<html><body><img src="a.gif"></body></html>`)
	gifSum := md5.Sum(gif)
	want := md5.Sum(append(append([]byte{}, page...), gifSum[:]...))
	s, err := SourceID(page, SourceOptions{URL: "http://h/p.html", Aux: aux})
	if err != nil || s.Kind != SourcePage || s.ID != want || !s.Complete() {
		t.Errorf("page: %+v, %v; want ID %X", s, err, want)
	}
	s, _ = SourceID(page, SourceOptions{ContentType: "text/plain", URL: "http://h/p.html", Aux: aux})
	if s.Kind != SourceFile || s.ID != md5.Sum(page) || s.Page != nil {
		t.Errorf("as text/plain: %+v", s)
	}
	s, _ = SourceID(page, SourceOptions{Kind: SourceImage})
	if s.Kind != SourceImage || s.ID != md5.Sum(page) || s.MediaType != "" {
		t.Errorf("forced image: %+v", s)
	}
	s, _ = SourceID(page, SourceOptions{URL: "http://h/p.html"})
	if s.Complete() || s.Page.Aux[0].Found {
		t.Errorf("without its image: %+v", s)
	}
}

// mediaType is mime.ParseMediaType's media type, error or not.
func TestMediaType(t *testing.T) {
	for _, ct := range []string{"text/html", "text/plain", "application/xhtml+xml", "image/svg+xml", "application/vnd.ms-excel",
		"x/y.z-1", "Text/HTML", "text/html; charset=utf-8", " text/html", "text/html ", "text/", "/html", "text", "", "/",
		"text//html", "text/html/x", "a/b@c", "a/b;", "text/html\x00", "tëxt/html", "*/*", "text/*"} {
		want, _, werr := mime.ParseMediaType(ct)
		got, err := mediaType(ct)
		if got != want || (err == nil) != (werr == nil) {
			t.Errorf("mediaType(%q) = %q, %v; want %q, %v", ct, got, err, want, werr)
		}
	}
}

func FuzzMediaType(f *testing.F) {
	f.Add("text/html")
	f.Add("a/b+c.d-e")
	f.Fuzz(func(t *testing.T, ct string) {
		want, _, werr := mime.ParseMediaType(ct)
		got, err := mediaType(ct)
		if got != want || (err == nil) != (werr == nil) {
			t.Errorf("mediaType(%q) = %q, %v; want %q, %v", ct, got, err, want, werr)
		}
	})
}
