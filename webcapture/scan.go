package webcapture

import (
	"bytes"
	"strings"

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
		s.text = collapse(string(doc))
		return s
	}
	return scanHTML(doc, refs, text)
}

// scanHTML is the one loop over doc's tokens (doc is UTF-8) for both
// HTMLReferences (refs) and PageText (text).
func scanHTML(doc []byte, refs, text bool) (s pageScan) {
	z := html.NewTokenizer(bytes.NewReader(doc))
	var b strings.Builder
	baseSeen := false
	skip := 0 // inside script or style
	for {
		switch tt := z.Next(); tt {
		case html.ErrorToken:
			if text {
				s.text = collapse(b.String())
			}
			return s
		case html.TextToken:
			if text && skip == 0 {
				b.Write(z.Text())
				b.WriteByte(' ')
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
				s.refs = tagRefs(z, string(name), s.refs, &s.base, &baseSeen)
			}
		}
	}
}

// tagRefs appends the references of the start tag el whose attributes z
// is at (referenceAttrs), and takes the document's base URL from the
// first <base href>.
func tagRefs(z *html.Tokenizer, el string, refs []Reference, base *string, baseSeen *bool) []Reference {
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
		if h, ok := attrs["href"]; ok && !*baseSeen {
			*base, *baseSeen = strings.TrimSpace(h), true
		}
		return refs
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
	return refs
}
