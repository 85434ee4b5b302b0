// Package htmlsafe holds the rules every HTML page webcap writes (the
// audit report, htmlreport; refresh's change report) keeps, so that they
// are decided once: which URLs from a file may be live links, the
// Content-Security-Policy that lets nothing load or run but the page's own
// style sheet, and how a string from a file is shown (Display, which the
// command line's plain output uses too; Text and Link, which cut it). Titles, URLs and keys in those
// pages come from untrusted PDFs; html/template escapes them, these rules
// keep a URL from becoming a script or a request, and a string from
// reordering or hiding the text around it.
package htmlsafe

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Display is how webcap shows a string from a file or a file name, in a
// terminal and in its HTML pages alike: as it is when it is valid UTF-8
// and every character is printable (unicode.IsPrint), else quoted as a Go
// string, so that a control character (C0, C1), a bidirectional override
// (U+202E) or any other format character is seen as its escape and never
// acts on the text around it.
func Display(s string) string {
	if !utf8.ValidString(s) {
		return strconv.Quote(s)
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}

// MaxText is the most characters a page shows of one string from a file
// or its results (a title, a URL, a message, a file name): a title of ten
// million characters would make a page no browser opens. The rest is cut,
// and the page says how long the string was.
const MaxText = 2000

// Text is how a page shows a string from a file or its results: as the
// command line shows it (Display), cut after MaxText characters with how
// long it was.
func Text(s string) string {
	s = Display(s)
	if len(s) <= MaxText { // bytes: at most as many characters
		return s
	}
	n, cut := 0, -1
	for i := range s {
		if n == MaxText {
			cut = i
		}
		n++
	}
	if cut < 0 {
		return s
	}
	return s[:cut] + fmt.Sprintf("… (cut: %s characters, the first %s shown)", thousands(n), thousands(MaxText))
}

// thousands writes n >= 0 with commas: 10,485,760.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Link is how a page shows a URL from a file, given without its password
// (password: it had one, left out, which Text says): as Text, and the
// href WebLink allows unless the URL was cut.
func Link(u string, password bool) (text, href string) {
	text = Text(u)
	if password {
		text += " (password not shown)"
	}
	if len(u) <= MaxText {
		href = WebLink(u)
	}
	return text, href
}

// WebLink is the href a URL from a file may have: the URL when it is an
// absolute http or https URL with a host, else "" (show it as text). A
// javascript:, data: or file: URL never becomes a live link.
func WebLink(u string) string {
	p, err := url.Parse(strings.TrimSpace(u))
	if err == nil && (p.Scheme == "http" || p.Scheme == "https") && p.Host != "" {
		return p.String()
	}
	return ""
}

// CSP is the Content-Security-Policy of a page whose only style sheet is
// style (allowed by its SHA-256) and which has no script: nothing else may
// load or run, no form may be sent, no base URL set; with images, data:
// images (thumbnails webcap rendered itself) may show.
func CSP(style string, images bool) string {
	sum := sha256.Sum256([]byte(style))
	img := ""
	if images {
		img = " img-src data:;"
	}
	return "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "';" + img + " base-uri 'none'; form-action 'none'"
}
