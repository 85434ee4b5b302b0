package webcapture_test

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/webcap/webcap/webcapture"
)

func TestStreamedIDs(t *testing.T) {
	data := bytes.Repeat([]byte("GIF89a\x00\x01"), 100000)
	want := webcapture.ID(md5.Sum(data))
	for _, f := range []func(r *bytes.Reader) (webcapture.ID, error){
		func(r *bytes.Reader) (webcapture.ID, error) { return webcapture.ImageSetID(r) },
		func(r *bytes.Reader) (webcapture.ID, error) { return webcapture.PDFSourceID(r) },
	} {
		if got, err := f(bytes.NewReader(data)); err != nil || got != want {
			t.Errorf("ID = %v, %v; want %v", got, err, want)
		}
	}
}

func TestHTMLReferences(t *testing.T) {
	doc := `<html><head><base href="http://cdn.example.com/x/"><style>body{background:url(no.png)}</style></head>
<body background="bg.gif">
<img src="a.gif"><IMG SRC='b.gif' srcset="b-1x.gif 1x, b,2x.gif 2x,b-3x.gif">
<picture><source srcset="p.webp 100w, p2.webp (max-width: 1x, y) 200w"></picture>
<input type="text" src="no.gif"><input type="IMAGE" src="btn.gif">
<object data="movie.swf"></object><embed src="clip.mid">
<iframe src="frame.html"></iframe><frame src="f2.html">
<table background="t.gif"><td background="td.gif">x</td></table>
<a href="no.html">link</a><script src="no.js"></script><img src="  ">
<base href="http://ignored.example.com/">
</body></html>`
	base, refs := webcapture.HTMLReferences([]byte(doc))
	if base != "http://cdn.example.com/x/" {
		t.Errorf("base = %q", base)
	}
	var got []string
	for _, r := range refs {
		got = append(got, r.Element+"."+r.Attr+"="+r.Raw)
	}
	want := []string{"body.background=bg.gif", "img.src=a.gif", "img.src=b.gif", "img.srcset=b-1x.gif",
		"img.srcset=b,2x.gif", "img.srcset=b-3x.gif", "source.srcset=p.webp", "source.srcset=p2.webp",
		"input.src=btn.gif", "object.data=movie.swf", "embed.src=clip.mid", "iframe.src=frame.html",
		"frame.src=f2.html", "table.background=t.gif", "td.background=td.gif"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("references:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// md5Of is the identifier by its definition: MD5(page ‖ aux ids).
func md5Of(page string, ids ...[]byte) webcapture.ID {
	h := md5.New()
	h.Write([]byte(page))
	for _, id := range ids {
		h.Write(id)
	}
	var out webcapture.ID
	h.Sum(out[:0])
	return out
}

func TestPageSetID(t *testing.T) {
	logo, photo, frame := []byte("GIF89a logo"), []byte("\xFF\xD8\xFF photo"), []byte("<html>framed</html>")
	src := webcapture.MapSource{
		"http://www.example.com/img/logo.gif": logo,
		"http://www.example.com/photo.jpg":    photo,
		"http://www.example.com/frame.html":   frame,
	}
	page := `<html><body>
<img src="img/logo.gif"><img src="photo.jpg">
<img src="./img/../img/logo.gif"><img src="HTTP://WWW.Example.COM:80/img/logo.gif#top">
<iframe src="/frame.html"></iframe><img src="data:image/gif;base64,R0lG"><img src="#x">
</body></html>`
	sum := func(b []byte) []byte { s := md5.Sum(b); return s[:] }
	for _, e := range []webcapture.AuxEncoding{webcapture.AuxRaw, webcapture.AuxHexUpper, webcapture.AuxHexLower} {
		enc := func(b []byte) []byte {
			switch e {
			case webcapture.AuxHexUpper:
				return []byte(strings.ToUpper(hex.EncodeToString(b)))
			case webcapture.AuxHexLower:
				return []byte(hex.EncodeToString(b))
			}
			return b
		}
		res, err := webcapture.PageSetID([]byte(page), webcapture.PageSetOptions{
			URL: "http://www.example.com/index.html", Aux: src, AuxEncoding: e})
		if err != nil {
			t.Fatal(err)
		}
		want := md5Of(page, enc(sum(logo)), enc(sum(photo)), enc(sum(frame)))
		if res.ID != want || !res.Complete {
			t.Errorf("%s: ID %v complete %v, want %v", e, res.ID, res.Complete, want)
		}
		if len(res.Aux) != 3 || res.Aux[0].URL != "http://www.example.com/img/logo.gif" || res.Aux[2].First.Element != "iframe" {
			t.Errorf("%s: aux = %+v", e, res.Aux)
		}
		if len(res.Skipped) != 2 {
			t.Errorf("%s: skipped = %+v", e, res.Skipped)
		}
	}
	// <base href> wins over the page URL; a missing file leaves the ID
	// incomplete and says which.
	res, _ := webcapture.PageSetID([]byte(`<base href="http://www.example.com/img/"><img src="logo.gif"><img src="gone.png">`),
		webcapture.PageSetOptions{URL: "http://elsewhere.example/", Aux: src})
	if res.Complete || len(res.Aux) != 2 || !res.Aux[0].Found || res.Aux[1].Found || res.Aux[1].URL != "http://www.example.com/img/gone.png" || res.Aux[1].Err == "" {
		t.Errorf("base + missing: %+v", res)
	}
	if want := md5Of(`<base href="http://www.example.com/img/"><img src="logo.gif"><img src="gone.png">`, sum(logo)); res.ID != want {
		t.Errorf("incomplete ID %v, want the hash of what was found %v", res.ID, want)
	}
	// No page URL: relative references cannot be resolved.
	res, _ = webcapture.PageSetID([]byte(`<img src="logo.gif">`), webcapture.PageSetOptions{Aux: src})
	if res.Complete || len(res.Aux) != 1 || !strings.Contains(res.Aux[0].Err, "no page URL") {
		t.Errorf("no URL: %+v", res)
	}
	// A page with no references is the MD5 of its bytes.
	res, _ = webcapture.PageSetID([]byte("plain text"), webcapture.PageSetOptions{})
	if res.ID != webcapture.ID(md5.Sum([]byte("plain text"))) || !res.Complete {
		t.Errorf("no references: %+v", res)
	}
}

func TestTextID(t *testing.T) {
	a := `<html><head><title>T</title><style>p{x:1}</style><script>var s="<p>no</p>";</script></head>
<body><h1>Caf&eacute; &amp; bar</h1><p class=x>Hello,
   <b>world</b>!</p><!-- comment --></body></html>`
	b := `<HTML><BODY>  <div><span>T</span></div><h2 id=y>Café &#38; bar</h2>
<p>Hello, <i>world</i>!</p></BODY></HTML>`
	c := `<html><body><h1>Café &amp; bar</h1><p>Hello, world?</p></body></html>`
	idA, textA := webcapture.TextID([]byte(a), "")
	idB, textB := webcapture.TextID([]byte(b), "text/html")
	idC, _ := webcapture.TextID([]byte(c), "")
	if textA != "T Café & bar Hello, world !" {
		t.Errorf("text = %q", textA)
	}
	if idA != idB || textA != textB {
		t.Errorf("markup-only change changed the TID: %q vs %q", textA, textB)
	}
	if idA == idC {
		t.Error("a text change left the TID as it was")
	}
	// The declared charset decides the text: é in windows-1252 and in UTF-8.
	latin := []byte("<html><head><meta charset=windows-1252></head><body>caf\xe9</body></html>")
	utf := []byte("<html><head><meta charset=utf-8></head><body>café</body></html>")
	l, lt := webcapture.TextID(latin, "")
	u, _ := webcapture.TextID(utf, "")
	if l != u || lt != "café" {
		t.Errorf("charset: %q; ids equal %v", lt, l == u)
	}
	if _, txt := webcapture.TextID([]byte("  a <b>  c\n"), "text/plain"); txt != "a <b> c" {
		t.Errorf("text/plain = %q", txt)
	}
}

// The examples of PDF 1.7 §10.9.2 and a worked example.
func TestUniqueNames(t *testing.T) {
	for _, r := range []struct{ in, want string }{
		{"alpha.beta", `alpha\pbeta`},
		{"alpha\x00beta", `alpha\0beta`},
		{`alpha\beta`, `alpha\\beta`},
	} {
		if got := string(webcapture.EscapeID([]byte(r.in))); got != r.want {
			t.Errorf("EscapeID(%q) = %q, want %q", r.in, got, r.want)
		}
	}
	id := webcapture.RawID("\x00\x2e\x5c\x41")
	if got := string(webcapture.EscapeID([]byte(id))); got != "\x5c\x30\x5c\x70\x5c\x5c\x41" {
		t.Errorf("escape pass = % X", got)
	}
	if got := webcapture.FieldName("name", id); got != "nameFMDAFMHAFMFMEB" {
		t.Errorf("FieldName = %q", got)
	}
	if got := webcapture.DestinationName("deal", id); got != "deal\\0\\p\\\\A" {
		t.Errorf("DestinationName = %q", got)
	}
	for _, c := range webcapture.FieldName("", webcapture.RawID("\xff\x00\x7f.\\")) {
		if c < 'A' || c > 'P' {
			t.Errorf("field suffix holds %q", c)
		}
	}
}
