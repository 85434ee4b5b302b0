package webcapture

import (
	"bytes"

	"golang.org/x/net/html"
)

// scanFast is scanHTML's loop without x/net/html's Tokenizer, for the
// pages whose markup it is sure to read as the Tokenizer reads it (a
// build scans 100,000 pages, and the Tokenizer allocates a 4 KB buffer
// per page and a copy of every tag name and attribute). It follows the
// Tokenizer's states (token.go: Next, readTag, readTagAttrKey,
// readTagAttrVal, readComment, readMarkupDeclaration, readDoctype,
// readRawOrRCDATA) for what scanHTML asks of them: text, tags and their
// attributes; everything else it is not sure of gives ok false, and the
// page is scanned by the Tokenizer, from its start: a NUL byte anywhere
// (the Tokenizer replaces it, in names, values and text), markup cut by
// the end of the page (a tag, a comment, raw text never closed), a
// script that holds "<!--" (the script data escape states), <plaintext>,
// a kept attribute value with a character reference or a carriage
// return, and a tag of more than maxFastAttrs attributes. FuzzScanPage
// holds it to the Tokenizer's result on every input.
func scanFast(doc []byte, refs, text bool) (s pageScan, ok bool) {
	if bytes.IndexByte(doc, 0) >= 0 {
		return s, false
	}
	f := fastScanner{doc: doc, refs: refs, text: text}
	f.attrs, f.name, f.key = f.attrBuf[:0], f.nameBuf[:0], f.keyBuf[:0]
	if text {
		f.c.b.Grow(len(doc))
	}
	if !f.run() {
		return pageScan{}, false
	}
	f.s.text = f.c.b.String()
	return f.s, true
}

// maxFastAttrs bounds the attributes of one tag scanFast reads (their
// duplicates are found by comparing each with those before).
const maxFastAttrs = 64

type fastScanner struct {
	doc        []byte
	refs, text bool
	s          pageScan
	c          collapser
	skip       int // inside script or style
	baseSeen   bool
	attrs      [][4]int // the tag's attributes kept: key start, end, value start, end
	name, key  []byte   // lower-cased tag name and attribute key
	attrBuf    [8][4]int
	nameBuf    [16]byte
	keyBuf     [16]byte
}

func isSpaceHTML(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' }

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// run scans f.doc; false: not sure.
func (f *fastScanner) run() bool {
	doc := f.doc
	i := 0
	raw := "" // the raw text element just opened
	for {
		if raw != "" {
			end, ok := rawTextEnd(doc, i, raw)
			if !ok {
				return false
			}
			if end > i {
				f.textToken(doc[i:end], raw != "title" && raw != "textarea")
			}
			i, raw = end, ""
		}
		// Text runs to the next '<' that opens markup (Next's loop).
		k := i
		for {
			j := bytes.IndexByte(doc[k:], '<')
			if j < 0 {
				if i < len(doc) {
					f.textToken(doc[i:], false)
				}
				return true
			}
			k += j
			if k+1 >= len(doc) {
				return false
			}
			if c := doc[k+1]; isLetter(c) || c == '/' || c == '!' || c == '?' {
				break
			}
			k++
		}
		if k > i {
			f.textToken(doc[i:k], false)
		}
		var ok bool
		switch c := doc[k+1]; {
		case isLetter(c):
			i, raw, ok = f.tag(k+1, true)
		case c == '/':
			switch {
			case k+2 >= len(doc):
				return false
			case doc[k+2] == '>': // "</>": no token
				i, ok = k+3, true
			case isLetter(doc[k+2]):
				i, _, ok = f.tag(k+2, false)
			default:
				i, ok = closeAngle(doc, k+2)
			}
		case c == '?':
			i, ok = closeAngle(doc, k+1)
		default: // '!'
			i, ok = markupDeclaration(doc, k+2)
		}
		if !ok {
			return false
		}
	}
}

// textToken is a text token's data; raw: not unescaped (script, style and
// the other raw text elements but title and textarea).
func (f *fastScanner) textToken(t []byte, raw bool) {
	if !f.text || f.skip != 0 {
		return
	}
	if !raw && bytes.IndexByte(t, '&') >= 0 {
		t = []byte(html.UnescapeString(string(t)))
	}
	// (The Tokenizer's "\r\n" and "\r" to "\n" change no collapsed text.)
	f.c.write(t)
	f.c.space = true // (PageText's rule: text tokens are words apart)
}

// closeAngle is readUntilCloseAngle from i: after the next '>'.
func closeAngle(doc []byte, i int) (int, bool) {
	j := bytes.IndexByte(doc[i:], '>')
	if j < 0 {
		return 0, false
	}
	return i + j + 1, true
}

// markupDeclaration is readMarkupDeclaration after "<!" (at i): a
// comment, a doctype or a bogus comment (CDATA is not allowed).
func markupDeclaration(doc []byte, i int) (int, bool) {
	if i+2 > len(doc) {
		return 0, false
	}
	if doc[i] == '-' && doc[i+1] == '-' {
		return comment(doc, i+2)
	}
	const dt = "DOCTYPE"
	if i+len(dt) > len(doc) {
		return 0, false
	}
	isDoctype := true
	for j := 0; j < len(dt) && isDoctype; j++ {
		isDoctype = doc[i+j] == dt[j] || doc[i+j] == dt[j]+('a'-'A')
	}
	if isDoctype {
		i += len(dt) // (the white space skipped after it cannot be '>')
	}
	return closeAngle(doc, i)
}

// comment is readComment after "<!--" (at i).
func comment(doc []byte, i int) (int, bool) {
	dashes, beginning := 0, true
	for i < len(doc) {
		c := doc[i]
		i++
		switch c {
		case '-':
			dashes++
			continue
		case '>':
			if dashes >= 2 || beginning {
				return i, true
			}
		case '!':
			if dashes >= 2 {
				if i >= len(doc) {
					return 0, false
				}
				c = doc[i]
				i++
				if c == '>' {
					return i, true
				} else if c == '-' {
					dashes, beginning = 1, false
					continue
				}
			}
		}
		dashes, beginning = 0, false
	}
	return 0, false
}

// rawTextEnd is where the raw text of the element name opened before i
// ends: at its end tag, "</name" followed by white space, '/' or '>'
// (readRawOrRCDATA). A script's escapes ("<!--") and an end never found
// give false.
func rawTextEnd(doc []byte, i int, name string) (int, bool) {
	if name == "plaintext" {
		return 0, false
	}
	escape := -1 // where a script's first "<!--" starts
	if name == "script" {
		if escape = bytes.Index(doc[i:], []byte("<!--")); escape >= 0 {
			escape += i
		}
	}
	for j := i; ; {
		k := bytes.Index(doc[j:], []byte("</"))
		if k < 0 {
			return 0, false
		}
		k += j
		if escape >= 0 && escape < k {
			return 0, false
		}
		e := k + 2 + len(name)
		if e >= len(doc) {
			return 0, false
		}
		if equalFoldASCII(doc[k+2:e], name) {
			if c := doc[e]; isSpaceHTML(c) || c == '/' || c == '>' {
				return k, true
			}
		}
		j = k + 2
	}
}

// equalFoldASCII: b is s (lower-case) but for the case of ASCII letters.
func equalFoldASCII(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range b {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// rawTags are the elements whose start tag makes the Tokenizer read raw
// text up to their end tag (readStartTag).
var rawTags = [...]string{"iframe", "noembed", "noframes", "noscript", "plaintext", "script", "style", "textarea", "title", "xmp"}

// tag is readTag for the tag whose name starts at n (a start tag when
// start): it returns where the tag ends (after '>'), and for a start tag
// of a raw text element, its name.
func (f *fastScanner) tag(n int, start bool) (end int, raw string, ok bool) {
	doc := f.doc
	i := n
	for i < len(doc) && !isSpaceHTML(doc[i]) && doc[i] != '/' && doc[i] != '>' {
		i++
	}
	if i >= len(doc) {
		return 0, "", false
	}
	f.name = appendLower(f.name[:0], doc[n:i])
	if isSpaceHTML(doc[i]) {
		i++
	}
	f.attrs = f.attrs[:0]
	for {
		i = skipSpace(doc, i)
		if i >= len(doc) {
			return 0, "", false
		}
		if doc[i] == '>' {
			i++
			break
		}
		var a [4]int
		if i, a, ok = attribute(doc, i); !ok {
			return 0, "", false
		}
		if start && a[0] != a[1] && !f.seen(a) {
			if len(f.attrs) == maxFastAttrs {
				return 0, "", false
			}
			f.attrs = append(f.attrs, a)
		}
	}
	if !start {
		if f.text && f.skip > 0 && isRawText(f.name) {
			f.skip--
		}
		return i, "", true
	}
	selfClosing := doc[i-2] == '/' && (len(f.attrs) == 0 || i-2 != f.attrs[len(f.attrs)-1][3]-1)
	if f.text && !selfClosing && isRawText(f.name) {
		f.skip++
	}
	if f.refs && len(f.attrs) > 0 && !f.tagRefs() {
		return 0, "", false
	}
	for _, r := range rawTags {
		if string(f.name) == r {
			raw = r
		}
	}
	return i, raw, true
}

// attribute is readTagAttrKey and readTagAttrVal from i: where they
// leave off, and the key's and the value's spans.
func attribute(doc []byte, i int) (int, [4]int, bool) {
	var a [4]int
	a[0] = i
	for {
		if i >= len(doc) {
			return 0, a, false
		}
		c := doc[i]
		i++
		if c == '=' && a[0]+1 == i {
			continue // ('=' first is the name's)
		}
		if c == '=' || isSpaceHTML(c) || c == '/' || c == '>' {
			i--
			break
		}
	}
	a[1], a[2], a[3] = i, i, i
	i = skipSpace(doc, i)
	if i >= len(doc) {
		return 0, a, false
	}
	switch c := doc[i]; {
	case c == '/':
		return i + 1, a, true
	case c != '=':
		return i, a, true
	}
	i = skipSpace(doc, i+1)
	if i >= len(doc) {
		return 0, a, false
	}
	switch q := doc[i]; q {
	case '>':
		return i, a, true
	case '\'', '"':
		j := bytes.IndexByte(doc[i+1:], q)
		if j < 0 {
			return 0, a, false
		}
		a[2], a[3] = i+1, i+1+j
		return i + 2 + j, a, true
	}
	a[2] = i
	for i++; i < len(doc); i++ {
		if c := doc[i]; isSpaceHTML(c) || c == '>' {
			a[3] = i
			if c != '>' {
				i++
			}
			return i, a, true
		}
	}
	return 0, a, false
}

func skipSpace(doc []byte, i int) int {
	for i < len(doc) && isSpaceHTML(doc[i]) {
		i++
	}
	return i
}

func appendLower(dst, b []byte) []byte {
	for _, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// seen: the tag has an attribute of a's name already (the Tokenizer keeps
// the first of a name, compared with ASCII letters lower-cased).
func (f *fastScanner) seen(a [4]int) bool {
	k := f.doc[a[0]:a[1]]
	for _, b := range f.attrs {
		if equalLower(k, f.doc[b[0]:b[1]]) {
			return true
		}
	}
	return false
}

// equalLower: a and b are equal with their ASCII letters lower-cased.
func equalLower(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// tagRefs is tagRefs (scan.go) for the tag f is at: false when a value
// kept needs the Tokenizer's unescaping.
func (f *fastScanner) tagRefs() bool {
	wanted, isBase := referenceAttrs[string(f.name)], string(f.name) == "base"
	isInput := string(f.name) == "input"
	var small [8]attr
	attrs := small[:0]
	for _, a := range f.attrs {
		f.key = appendLower(f.key[:0], f.doc[a[0]:a[1]])
		k := f.key
		if string(k) == "background" || has(wanted, string(k)) || isBase && string(k) == "href" || isInput && string(k) == "type" {
			v := f.doc[a[2]:a[3]]
			if bytes.IndexByte(v, '&') >= 0 || bytes.IndexByte(v, '\r') >= 0 {
				return false
			}
			attrs = append(attrs, attr{string(k), string(v)})
		}
	}
	if len(attrs) > 0 {
		f.s.refs = attrRefs(string(f.name), attrs, f.s.refs, &f.s.base, &f.baseSeen)
	}
	return true
}
