package webcapture

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// A pageScan is what one pass of the HTML tokenizer over a page found:
// the references its identifier hashes (HTMLReferences) and its text
// (PageText). A build computes both for every page; scanning once, over
// one decoding of the page (ToUTF8), halves the tokenizing and the
// charset sniffing (each allocates a tokenizer of its own).
type pageScan struct {
	base string
	refs []Reference
	text string
}

// scanPage decodes page to UTF-8 (ToUTF8, by contentType) once and
// returns what refs and text ask for: the references as HTMLReferences
// finds them, the text as PageText extracts it.
func scanPage(page []byte, contentType string, refs, text bool) pageScan {
	doc := ToUTF8(page, contentType)
	if text && !isHTML(doc, contentType) {
		var s pageScan
		if refs {
			s = scanHTML(doc, true, false)
		}
		var c collapser
		c.b.Grow(len(doc)) // (the text is at most the page, but for U+FFFD's)
		c.write(doc)
		s.text = c.b.String()
		return s
	}
	return scanHTML(doc, refs, text)
}

// scanHTML is the one loop over doc's tokens (doc is UTF-8) for both
// HTMLReferences (refs) and PageText (text): scanFast's, or where it is
// not sure, x/net/html's Tokenizer's (scanTokens).
func scanHTML(doc []byte, refs, text bool) pageScan {
	if s, ok := scanFast(doc, refs, text); ok {
		return s
	}
	return scanTokens(doc, refs, text)
}

// scanTokens is scanHTML with x/net/html's Tokenizer, for every page.
func scanTokens(doc []byte, refs, text bool) (s pageScan) {
	z := html.NewTokenizer(bytes.NewReader(doc))
	var c collapser
	if text {
		c.b.Grow(len(doc)) // (the text is at most the page, but for U+FFFD's: one buffer, not eight made growing)
	}
	baseSeen := false
	skip := 0 // inside script or style
	for {
		switch tt := z.Next(); tt {
		case html.ErrorToken:
			if text {
				s.text = c.b.String()
			}
			return s
		case html.TextToken:
			if text && skip == 0 {
				c.write(z.Text())
				c.space = true // (PageText's rule: text tokens are words apart)
			}
		case html.EndTagToken:
			if name, _ := z.TagName(); text && isRawText(name) && skip > 0 {
				skip--
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			if text && tt == html.StartTagToken && isRawText(name) {
				skip++
			}
			if refs && hasAttr {
				s.refs = tagRefs(z, name, s.refs, &s.base, &baseSeen)
			}
		}
	}
}

// A collapser is collapse as the text comes: every run of white space
// one space, none at either end, without the text first gathered whole.
type collapser struct {
	b     strings.Builder
	space bool // white space since the last word
}

func (c *collapser) write(t []byte) {
	for len(t) > 0 {
		if b := t[0]; b < utf8.RuneSelf { // (ASCII: a byte at a time; unicode.IsSpace's ASCII spaces)
			t = t[1:]
			if asciiSpace[b] {
				c.space = true
				continue
			}
			if c.space && c.b.Len() > 0 {
				c.b.WriteByte(' ')
			}
			c.space = false
			c.b.WriteByte(b)
			continue
		}
		r, n := utf8.DecodeRune(t) // (invalid UTF-8: U+FFFD, as collapse's range does)
		t = t[n:]
		if unicode.IsSpace(r) {
			c.space = true
			continue
		}
		if c.space && c.b.Len() > 0 {
			c.b.WriteByte(' ')
		}
		c.space = false
		c.b.WriteRune(r)
	}
}

// asciiSpace are the ASCII bytes unicode.IsSpace takes for space: '\t',
// '\n', '\v', '\f', '\r' and ' ' (TestASCIISpace).
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// An attr is one attribute of a tag, the first of its name.
type attr struct{ key, val string }

// tagRefs appends the references of the start tag el whose attributes z
// is at (referenceAttrs, and background on any element), and takes the
// document's base URL from the first <base href>. Only the attributes
// that can be references are copied out of the tokenizer.
func tagRefs(z *html.Tokenizer, name []byte, refs []Reference, base *string, baseSeen *bool) []Reference {
	el := string(name)
	wanted, isBase := referenceAttrs[el], el == "base"
	var small [8]attr
	attrs := small[:0]
	seen := func(k []byte) bool {
		for _, a := range attrs {
			if a.key == string(k) {
				return true
			}
		}
		return false
	}
	for more := true; more; {
		var k, v []byte
		k, v, more = z.TagAttr()
		// Every attribute that can matter is kept, the first of a name only
		// (the others cannot be one of these: HTML keeps the first).
		if string(k) == "background" || has(wanted, string(k)) || isBase && string(k) == "href" || el == "input" && string(k) == "type" {
			if !seen(k) {
				attrs = append(attrs, attr{string(k), string(v)})
			}
		}
	}
	return attrRefs(el, attrs, refs, base, baseSeen)
}

// attrRefs is tagRefs from the attributes that can matter of the start
// tag el, the first of each name, in order.
func attrRefs(el string, attrs []attr, refs []Reference, base *string, baseSeen *bool) []Reference {
	wanted, isBase := referenceAttrs[el], el == "base"
	get := func(k string) (string, bool) {
		for _, a := range attrs {
			if a.key == k {
				return a.val, true
			}
		}
		return "", false
	}
	if isBase {
		if h, ok := get("href"); ok && !*baseSeen {
			*base, *baseSeen = strings.TrimSpace(h), true
		}
		return refs
	}
	image := true
	if el == "input" {
		t, _ := get("type")
		image = strings.EqualFold(strings.TrimSpace(t), "image")
	}
	for _, a := range attrs {
		switch {
		case a.key == "background":
			refs = appendRef(refs, el, a.key, a.val)
		case a.key == "type" || a.key == "src" && !image:
		case has(wanted, a.key) && a.key == "srcset":
			for _, u := range srcsetURLs(a.val) {
				refs = appendRef(refs, el, a.key, u)
			}
		case has(wanted, a.key):
			refs = appendRef(refs, el, a.key, a.val)
		}
	}
	return refs
}
