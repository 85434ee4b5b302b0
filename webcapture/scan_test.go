package webcapture

import (
	"bytes"
	"crypto/md5"
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// The pages the one-pass scan is checked on: markup the text skips (script,
// style, comments, attributes), every kind of reference, a base URL, a
// declared charset, plain text, and broken markup.
var scanPages = []struct{ name, page, ct string }{
	{"page", `<!DOCTYPE html><html><head><meta charset="utf-8"><title>T &amp; t</title><base href="/d/"><style>p{}</style></head>
<body background="bg.png"><script>var x = "<img src=no.gif>";</script><p>Caf&eacute; <b>au</b> lait</p>
<img src="a.gif" srcset="b.gif 2x, c.gif 3x"><input type=image src=btn.png><input src=no.png>
<picture><source srcset="d.webp"></picture><object data="o.swf"></object><embed src=e.svg><iframe src=f.html></iframe>
<!-- <img src=comment.gif> --><base href="/ignored/"><img src="data:image/gif;base64,R0lG"><img src="#x"></body></html>`, ""},
	{"declared", "<p>caf\xe9 <img src=x.gif></p>", "text/html; charset=iso-8859-1"},
	{"latin-1 by meta", "<meta http-equiv=content-type content='text/html; charset=latin1'><p>caf\xe9</p>", ""},
	{"xhtml", `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><img src="x.png"/>Hi</body></html>`, "application/xhtml+xml"},
	{"not html by type", "<p>a <img src=x.gif> b</p>\n", "text/plain"},
	{"not html by bytes", "plain words <img src=x.gif>\n\tand more", ""},
	{"self-closing script", "<p>a<script/>b</p><style>c</style>d</script>e", ""},
	{"unclosed", "<html><body><p>x<img src='a.gif'", ""},
	{"empty", "", ""},
	{"attributes twice", `<img SRC=a.gif src=b.gif srcset="c.gif 1x" background=d.png><input type=IMAGE type=text src=e.png><input src=f.png type=" image "><base background=g.png href=h/ href=i/><td background=j.png background=k.png><a href=l.html>`, ""},
	{"white space", "<p>\u00a0a\u3000b\u0085c\xe2\x82</p>\xe2<p>\xa0d \t\n</p>", "text/html"},
	{"text white space", " a\u00a0\xffb\u2028 ", "text/plain"},
}

// TestScanPage: the one pass gives what HTMLReferences and PageText gave
// when each tokenized the page on its own (oldHTMLReferences, oldPageText:
// their code before the pass was shared).
func TestScanPage(t *testing.T) {
	for _, tc := range scanPages {
		t.Run(tc.name, func(t *testing.T) { checkScan(t, []byte(tc.page), tc.ct) })
	}
}

// TestScanFastSure: scanFast reads the pages it is meant for (ordinary
// markup, without a NUL or cut markup), and leaves the others to the
// Tokenizer.
func TestScanFastSure(t *testing.T) {
	for _, tc := range fastPages {
		if _, ok := scanFast([]byte(tc.page), true, true); ok != tc.sure {
			t.Errorf("scanFast(%q) sure = %v, want %v", tc.page, ok, tc.sure)
		}
	}
}

var fastPages = []struct {
	page string
	sure bool
}{
	{scanPages[0].page, true},
	{scanPages[1].page, true},
	{scanPages[9].page, true},
	{"<p>a<script/>b</p><style>c</style>d</script>e", true},
	{"<title>a &amp; b</title><p>c &lt; d<br/><img src='x.gif' / >", true},
	{"<!doctype html><!----><!--->--><?pi?></><//x><!bogus>t", true},
	{"<html><body><p>x<img src='a.gif'", false},
	{"<p>a\x00b</p>", false},
	{"<title>never closed", false},
	{"<!-- <!-- <!--", false},
	{"<script>a<!--b</script>c", false},
	{"<img src='a&amp;b.gif'>", false},
	{"<plaintext>a</plaintext>", false},
	{"<p>a<", false},
}

func FuzzScanPage(f *testing.F) {
	for _, tc := range scanPages {
		f.Add([]byte(tc.page), tc.ct)
	}
	for _, tc := range fastPages {
		f.Add([]byte(tc.page), "")
	}
	f.Fuzz(func(t *testing.T, page []byte, ct string) { checkScan(t, page, ct) })
}

func checkScan(t *testing.T, page []byte, ct string) {
	t.Helper()
	orig := bytes.Clone(page)
	s := scanPage(page, ct, true, true)
	base, refs := oldHTMLReferences(ToUTF8(page, ct))
	text := oldPageText(page, ct)
	if s.base != base || !reflect.DeepEqual(s.refs, refs) {
		t.Errorf("scanPage(%q, %q) references = %q, %+v; want %q, %+v", page, ct, s.base, s.refs, base, refs)
	}
	if s.text != text || PageText(page, ct) != text {
		t.Errorf("scanPage(%q, %q) text = %q; want %q", page, ct, s.text, text)
	}
	if b, r := HTMLReferences(ToUTF8(page, ct)); b != base || !reflect.DeepEqual(r, refs) {
		t.Errorf("HTMLReferences(%q) = %q, %+v; want %q, %+v", page, b, r, base, refs)
	}
	// scanFast, where it is sure, gives what the Tokenizer's loop gives.
	doc := ToUTF8(page, ct)
	for _, mode := range [][2]bool{{true, true}, {true, false}, {false, true}} {
		if fast, ok := scanFast(doc, mode[0], mode[1]); ok {
			if tok := scanTokens(doc, mode[0], mode[1]); !reflect.DeepEqual(fast, tok) {
				t.Errorf("scanFast(%q, %v) = %+v; the Tokenizer's: %+v", doc, mode, fast, tok)
			}
		}
	}
	if !bytes.Equal(page, orig) {
		t.Errorf("scanPage changed its input")
	}
	// SourceID with Text: the identifier it gives without, and the text
	// identifier TextID gives.
	opts := SourceOptions{ContentType: ct, URL: "http://h/p/q.html", Aux: MapSource{"http://h/d/a.gif": []byte("GIF")}}
	plain, err1 := SourceID(page, opts)
	opts.Text = true
	both, err2 := SourceID(page, opts)
	if err1 != nil || err2 != nil || plain.ID != both.ID || !reflect.DeepEqual(plain.Page, both.Page) {
		t.Fatalf("SourceID(%q, %q) with Text = %+v, %v; without, %+v, %v", page, ct, both, err2, plain, err1)
	}
	mt := ct
	if mt == "" {
		mt = both.MediaType
	}
	if HasText(both.Kind, both.MediaType) || strings.HasPrefix(strings.ToLower(mt), "text/") {
		id, text := TextID(page, mt)
		if both.TextID == nil || *both.TextID != id || both.Text != text || id != md5.Sum([]byte(text)) {
			t.Errorf("SourceID(%q, %q) text = %v, %q; want %X, %q", page, ct, both.TextID, both.Text, id, text)
		}
	} else if both.TextID != nil {
		t.Errorf("SourceID(%q, %q) has a text identifier: %X", page, ct, *both.TextID)
	}
}

func oldHTMLReferences(doc []byte) (base string, refs []Reference) {
	z := html.NewTokenizer(bytes.NewReader(doc))
	baseSeen := false
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return base, refs
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		name, hasAttr := z.TagName()
		if !hasAttr {
			continue
		}
		el := string(name)
		attrs := map[string]string{}
		var order []string
		for more := true; more; {
			var k, v []byte
			k, v, more = z.TagAttr()
			if _, dup := attrs[string(k)]; !dup {
				attrs[string(k)] = string(v)
				order = append(order, string(k))
			}
		}
		if el == "base" {
			if h, ok := attrs["href"]; ok && !baseSeen {
				base, baseSeen = strings.TrimSpace(h), true
			}
			continue
		}
		if el == "input" && !strings.EqualFold(strings.TrimSpace(attrs["type"]), "image") {
			delete(attrs, "src")
		}
		wanted := referenceAttrs[el]
		for _, a := range order {
			v := attrs[a]
			switch {
			case a == "background":
				refs = appendRef(refs, el, a, v)
			case has(wanted, a) && a == "srcset":
				for _, u := range srcsetURLs(v) {
					refs = appendRef(refs, el, a, u)
				}
			case has(wanted, a):
				refs = appendRef(refs, el, a, v)
			}
		}
	}
}

func oldPageText(page []byte, contentType string) string {
	doc := ToUTF8(page, contentType)
	var b strings.Builder
	if isHTML(doc, contentType) {
		z := html.NewTokenizer(bytes.NewReader(doc))
		skip := 0 // inside script or style
		for {
			switch z.Next() {
			case html.ErrorToken:
				return collapse(b.String())
			case html.TextToken:
				if skip == 0 {
					b.Write(z.Text())
					b.WriteByte(' ')
				}
			case html.StartTagToken:
				if name, _ := z.TagName(); isRawText(name) {
					skip++
				}
			case html.EndTagToken:
				if name, _ := z.TagName(); isRawText(name) && skip > 0 {
					skip--
				}
			}
		}
	}
	b.Write(doc)
	return collapse(b.String())
}

// collapse (the code before collapser) turns every run of white space into one space and trims.
func collapse(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// asciiSpace is unicode.IsSpace on ASCII.
func TestASCIISpace(t *testing.T) {
	for b := 0; b < utf8.RuneSelf; b++ {
		if got, want := asciiSpace[b], unicode.IsSpace(rune(b)); got != want {
			t.Errorf("asciiSpace[%#x] = %v, want %v", b, got, want)
		}
	}
}
