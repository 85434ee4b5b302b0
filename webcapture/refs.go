package webcapture

import (
	"bytes"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
)

// A Reference is one reference from an HTML page to an auxiliary file.
type Reference struct {
	Element string // the element ("img")
	Attr    string // the attribute ("src", "srcset", "background")
	Raw     string // the URL as written (for srcset, one candidate)
}

// referenceAttrs are the references that make a page's appearance, and so
// feed its page set identifier (PDF 1.7 §10.9.2: "auxiliary data files it
// references"): what a capture embeds into the pages it draws.
//
//   - img src and srcset, and source srcset (inside picture): images;
//   - input type=image src: an image drawn as a button;
//   - object data and embed src: embedded objects;
//   - frame src and iframe src: framed documents;
//   - background, on any element (body, table, tr, td, th): a background
//     image.
//
// Left out: links (a href), scripts and style sheets (they change how a page
// looks but are not "files it references" for its content in the PDF text's
// sense, and Acrobat's identifiers cannot be reproduced for them anyway),
// and URLs inside CSS.
var referenceAttrs = map[string][]string{
	"img":    {"src", "srcset"},
	"source": {"srcset"},
	"input":  {"src"}, // only type=image
	"object": {"data"},
	"embed":  {"src"},
	"frame":  {"src"},
	"iframe": {"src"},
}

// ToUTF8 decodes an HTML document to UTF-8 by the encoding it declares (a
// byte-order mark, the Content-Type header value given, a <meta> charset in
// its first 1024 bytes), defaulting as browsers do (windows-1252).
func ToUTF8(doc []byte, contentType string) []byte {
	if asciiKept(doc, contentType) {
		return doc
	}
	enc, name, _ := charset.DetermineEncoding(doc, contentType)
	// Decoding changes nothing in valid UTF-8 (a byte-order mark is kept)
	// nor, from windows-1252, in ASCII: doc is returned as it is, without
	// the copy (a build of 100,000 pages decodes each page twice).
	if name == "utf-8" && utf8.Valid(doc) || name == "windows-1252" && ascii(doc) {
		return doc
	}
	out, err := io.ReadAll(enc.NewDecoder().Reader(bytes.NewReader(doc)))
	if err != nil {
		return doc
	}
	return out
}

// asciiKept says that doc is ASCII and that ToUTF8 leaves it as it is,
// without DetermineEncoding's prescan (a tokenizer with a 4 KB buffer and
// a pass over the page's start: a build of 100,000 pages made 400 MB of
// garbage with it). doc being ASCII, it has no byte-order mark; contentType
// must name no charset (the word nowhere in it, in any case); what a
// <meta> in the first 1024 bytes (where the prescan looks) may declare is
// then the answer, else windows-1252. The encodings that change ASCII are
// UTF-16 (which the prescan takes as UTF-8 anyway), ISO-2022-JP and the
// replacement encoding (ISO-2022-KR, ISO-2022-CN, HZ-GB-2312), whose
// labels all hold "2022", "hz-gb" or "replacement": the first 1024 bytes
// must hold none of them (in any case), nor a '&' (a character reference
// in an attribute could spell one). Every other encoding decodes ASCII to
// itself (TestToUTF8AsDecoded, FuzzToUTF8).
func asciiKept(doc []byte, contentType string) bool {
	if !ascii(doc) || containsFold([]byte(contentType), "charset") {
		return false
	}
	return !holdsChangingLabel(doc[:min(len(doc), 1024)])
}

// holdsChangingLabel says whether head holds "2022", "hz-gb",
// "replacement" (in any case) or a '&': containsFold of each, in one pass
// that looks further only at a byte that can start one (labelStart: one
// look-up a byte), and at a letter only when the next byte is the word's
// second (four passes of containsFold over every page's start were 3% of
// a build).
func holdsChangingLabel(head []byte) bool {
	for i, c := range head {
		if !labelStart[c] {
			continue
		}
		switch c | 0x20 {
		case '&':
			return true
		case '2':
			if containsFold(head[i:min(len(head), i+4)], "2022") {
				return true
			}
		case 'h':
			if i+1 < len(head) && head[i+1]|0x20 == 'z' && containsFold(head[i:min(len(head), i+5)], "hz-gb") {
				return true
			}
		case 'r':
			if i+1 < len(head) && head[i+1]|0x20 == 'e' && containsFold(head[i:min(len(head), i+11)], "replacement") {
				return true
			}
		}
	}
	return false
}

// labelStart are the bytes that start what holdsChangingLabel looks for.
var labelStart = [256]bool{'&': true, '2': true, 'h': true, 'H': true, 'r': true, 'R': true}

// containsFold says whether b holds word (lower-case ASCII) in any case.
func containsFold(b []byte, word string) bool {
	for i := 0; i+len(word) <= len(b); i++ {
		j := 0
		for ; j < len(word); j++ {
			c := b[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != word[j] {
				break
			}
		}
		if j == len(word) {
			return true
		}
	}
	return false
}

func ascii(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// HTMLReferences returns the document's base URL (its first <base href>, or
// "") and every reference to an auxiliary file, in document order,
// duplicates included. doc must be UTF-8 (see ToUTF8).
func HTMLReferences(doc []byte) (base string, refs []Reference) {
	s := scanHTML(doc, true, false)
	return s.base, s.refs
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func appendRef(refs []Reference, el, attr, v string) []Reference {
	v = strings.TrimSpace(v)
	if v == "" {
		return refs
	}
	return append(refs, Reference{Element: el, Attr: attr, Raw: v})
}

// srcsetURLs returns the URLs of a srcset attribute's candidates, by the
// HTML standard's parsing of "url [descriptor], url [descriptor]": a URL
// runs to the next white space, and a candidate ends at a comma outside
// parentheses.
func srcsetURLs(s string) []string {
	var out []string
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }
	i := 0
	for i < len(s) {
		for i < len(s) && (isSpace(s[i]) || s[i] == ',') {
			i++
		}
		start := i
		for i < len(s) && !isSpace(s[i]) {
			i++
		}
		u := s[start:i]
		trailing := strings.HasSuffix(u, ",")
		u = strings.TrimRight(u, ",")
		if u != "" {
			out = append(out, u)
		}
		if trailing {
			continue
		}
		depth := 0 // skip the descriptors, to the comma that ends the candidate
		for i < len(s) {
			switch s[i] {
			case '(':
				depth++
			case ')':
				if depth > 0 {
					depth--
				}
			case ',':
				if depth == 0 {
					i++
					goto next
				}
			}
			i++
		}
	next:
	}
	return out
}
