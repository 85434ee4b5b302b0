package audit

import (
	"errors"
	"fmt"
	"strings"

	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// urls checks the URLS keys: canonical under the profile, and naming one of
// the set's source URLs.
func (a *auditor) urls() {
	t := a.d.URLS
	if t == nil {
		return
	}
	for _, e := range t.Entries {
		obj := e.Node
		if !e.KeyRef.IsZero() {
			obj = e.KeyRef
		}
		a.password(obj, "", e.Key)
		canonical := a.canonicalKey(obj, e.Key)
		for _, cs := range e.Sets {
			a.keyNamesSource(e.Key, canonical, cs)
		}
	}
}

// canonicalKey reports a key that is not canonical, and returns its
// canonical form ("" if it has none).
func (a *auditor) canonicalKey(obj webcapture.Ref, key string) string {
	got, err := a.canon.String(key)
	if err != nil {
		var ce *canon.Error
		detail := err.Error()
		if errors.As(err, &ce) {
			detail = ce.Detail()
		}
		a.add("WC-URLS-CANONICAL", obj, "", "URLS key %q cannot be canonicalized (%s profile): %s", key, a.opts.Profile, detail)
		return ""
	}
	if got == key {
		return got
	}
	if encodeHigh(key) == got {
		a.add("WC-URLS-NONASCII", obj, "", "URLS key %q holds raw non-ASCII bytes; its canonical form is %q", key, got)
		return got
	}
	step := ""
	if ex, err := a.canon.Explain(key); err == nil {
		for _, s := range ex.Steps {
			if s.Changed() {
				step = s.Step.String()
				break
			}
		}
	}
	a.add("WC-URLS-CANONICAL", obj, "", "URLS key %q is not canonical (%s profile): %s gives %q", key, a.opts.Profile, step, got)
	return got
}

// encodeHigh percent-encodes every byte >= 0x80, as the encoding pass does.
func encodeHigh(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 {
			b.WriteString("%" + string("0123456789ABCDEF"[c>>4]) + string("0123456789ABCDEF"[c&15]))
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

func (a *auditor) keyNamesSource(key, canonical string, cs *pdfio.ContentSet) {
	// The usual case first, without SourceURLs' list and set (a map per
	// content set: a tenth of the audit of 20,000 sets): the key is a
	// source URL as it is, or canonicalizes to one.
	for _, si := range cs.Sources {
		if a.namesURL(key, canonical, si.URLs.URL) {
			return
		}
		for _, chain := range si.URLs.Chains {
			for _, u := range chain {
				if a.namesURL(key, canonical, u) {
					return
				}
			}
		}
	}
	sources := cs.SourceURLs()
	if len(sources) == 0 {
		return // WC-CS-SI or WC-SI-AU says so
	}
	for _, u := range sources {
		if u == key {
			return
		}
		if c, err := a.canon.String(u); err == nil && (c == key || c == canonical) {
			return
		}
	}
	a.add("WC-URLS-SOURCE", cs.Ref, "/SI", "URLS key %q names none of the content set's source URLs (%s)", key, strings.Join(sources, ", "))
}

// namesURL reports whether URLS key key (canonical: its canonical form)
// names the source URL u: u is the key, or canonicalizes to it.
func (a *auditor) namesURL(key, canonical, u string) bool {
	if u == "" {
		return false
	}
	if u == key {
		return true
	}
	c, err := a.canon.String(u)
	return err == nil && (c == key || c == canonical)
}

func (a *auditor) ascii(obj webcapture.Ref, key, s string) {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			a.add("WC-ASCII", obj, key, "%s %q holds the byte 0x%02X at %d; it is an ASCII string", key, s, s[i], i)
			return
		}
	}
}

// urlBytes reports a URL with raw non-ASCII bytes: a warning, since
// Acrobat 10 wrote such URLs (see WC-URLS-NONASCII for the URLS key). The
// message shows it without its password (WithoutPassword), and where the
// byte stands in what it shows.
func (a *auditor) urlBytes(obj webcapture.Ref, key, s string) {
	i := nonASCII(s)
	if i < 0 {
		return
	}
	shown, _ := WithoutPassword(s)
	where := "holds raw bytes in its password (not shown)"
	if j := nonASCII(shown); j >= 0 {
		where = fmt.Sprintf("holds the raw byte 0x%02X at %d", shown[j], j)
	}
	enc := encodeHigh(s)
	if _, err := a.canon.String(enc); errors.Is(err, canon.ErrBadHost) {
		// Percent-encoding does not mend a host: its octets must be
		// UTF-8, escaped or not (canon's doc).
		a.add("WC-URL-NONASCII", obj, key, "%s %q %s; a URL is an ASCII string, and this host is not UTF-8, raw or percent-encoded, so no spelling of it canonicalizes: it must be converted to UTF-8 from the charset it was written in", key, shown, where)
		return
	}
	a.add("WC-URL-NONASCII", obj, key, "%s %q %s; a URL is an ASCII string (percent-encoded: %q)", key, shown, where, enc)
}

// nonASCII returns the index of the first byte of s that is not ASCII, or -1.
func nonASCII(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return i
		}
	}
	return -1
}

// password reports a URL whose userinfo has a password ("user:pass@").
func (a *auditor) password(obj webcapture.Ref, key, s string) {
	if shown, has := WithoutPassword(s); has {
		a.add("WC-URL-PASSWORD", obj, key, "the URL %q carries a password (not shown); RFC 2396 §7 advises against it", shown)
	}
}

// WithoutPassword is how webcap shows a URL from a file that carries a
// password in its user information ("http://user:pass@host/"): without
// the password and the colon before it ("http://user@host/"), the rest as
// written, and true; any other URL as it is, and false. Every finding's
// message, info and the HTML report show URLs through it, so that a
// password is never printed.
//
// The rule is lexical, and errs toward hiding: the authority is what
// follows "scheme:" and its slashes (or a leading "//") up to the first
// "/", "?", "#" or "\\"; its user information ends at its last "@" and
// its user name at the first ":" (RFC 3986 §3.2; WHATWG URL, which also
// takes backslashes for slashes and "http:user:pass@host" without any in
// its special schemes). A URL that does not parse (a space in the
// password, a bad escape) is still shown without it.
func WithoutPassword(s string) (string, bool) {
	i, j := passwordAt(s, "/?#\\")
	if i < 0 {
		return s, false
	}
	return s[:i] + s[j:], true
}

// passwordAt returns where the password of the URL at the start of s
// stands, with the colon before it: s[i:j] (i < 0: none). Its authority
// ends at the first byte of stop.
func passwordAt(s, stop string) (int, int) {
	start := authority(s)
	if start < 0 {
		return -1, -1
	}
	end := strings.IndexAny(s[start:], stop)
	if end < 0 {
		end = len(s) - start
	}
	at := strings.LastIndexByte(s[start:start+end], '@')
	if at < 0 {
		return -1, -1
	}
	colon := strings.IndexByte(s[start:start+at], ':')
	if colon < 0 {
		return -1, -1
	}
	return start + colon, start + at
}

// authority returns where the authority of the URL s starts, or -1 when
// it has none: after its scheme's ":" and the slashes that follow (none
// needed in WHATWG's special schemes), or after a leading "//". Leading
// spaces and C0 controls are skipped, as WHATWG's parser strips them.
func authority(s string) int {
	p := 0
	for p < len(s) && s[p] <= ' ' {
		p++
	}
	q := p
	for q < len(s) && (isAlpha(s[q]) || q > p && (s[q] >= '0' && s[q] <= '9' || s[q] == '+' || s[q] == '-' || s[q] == '.')) {
		q++
	}
	scheme := ""
	if q > p && q < len(s) && s[q] == ':' {
		scheme, p = strings.ToLower(s[p:q]), q+1
	}
	n := 0
	for p+n < len(s) && (s[p+n] == '/' || s[p+n] == '\\') {
		n++
	}
	switch {
	case n >= 2, n == 1 && scheme != "":
		return p + n
	case n == 0 && specialScheme[scheme]:
		return p
	}
	return -1
}

func isAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// specialScheme holds WHATWG URL's special schemes but file (which has no
// user information).
var specialScheme = map[string]bool{"http": true, "https": true, "ws": true, "wss": true, "ftp": true}

// WithoutPasswords is text with the password of every URL in it left
// out (WithoutPassword): for a message that may quote URLs, such as a
// skip's reason ("redirects to http://u:p@h/, outside ...").
func WithoutPasswords(text string) string { return withoutPasswords(text) }

// withoutPasswords is text with the password of every URL in it left out
// (WithoutPassword): a message's last safeguard, for URLs that reach it
// inside a list or an error. In text, a URL also ends at a space or a
// quotation mark.
func withoutPasswords(text string) string {
	if strings.IndexByte(text, '@') < 0 {
		return text
	}
	var b strings.Builder
	done := 0
	for k := 0; ; {
		c := strings.Index(text[k:], "//")
		if c < 0 {
			break
		}
		c += k
		start := c // the URL's scheme, if one is written before its "//"
		if c > 0 && text[c-1] == ':' {
			start = c - 1
			for start > 0 && (isAlpha(text[start-1]) || strings.IndexByte("0123456789+-.", text[start-1]) >= 0) {
				start--
			}
			for start < c-1 && !isAlpha(text[start]) {
				start++ // a scheme starts with a letter
			}
			if start == c-1 {
				start = c
			}
		}
		k = c + 2
		for k < len(text) && (text[k] == '/' || text[k] == '\\') {
			k++ // a run of slashes is one URL's: looked at once
		}
		i, j := passwordAt(text[start:], "/?#\\ \t\r\n\"'<>")
		if i < 0 || start+i < done {
			continue
		}
		b.WriteString(text[done : start+i])
		done, k = start+j, start+j
	}
	if done == 0 {
		return text
	}
	b.WriteString(text[done:])
	return b.String()
}
