package audit

import (
	"errors"
	"net/url"
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
// Acrobat 10 wrote such URLs (see WC-URLS-NONASCII for the URLS key).
func (a *auditor) urlBytes(obj webcapture.Ref, key, s string) {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			enc := encodeHigh(s)
			if _, err := a.canon.String(enc); errors.Is(err, canon.ErrBadHost) {
				// Percent-encoding does not mend a host: its octets must be
				// UTF-8, escaped or not (canon's doc).
				a.add("WC-URL-NONASCII", obj, key, "%s %q holds the raw byte 0x%02X at %d; a URL is an ASCII string, and this host is not UTF-8, raw or percent-encoded, so no spelling of it canonicalizes: it must be converted to UTF-8 from the charset it was written in", key, s, s[i], i)
				return
			}
			a.add("WC-URL-NONASCII", obj, key, "%s %q holds the raw byte 0x%02X at %d; a URL is an ASCII string (percent-encoded: %q)", key, s, s[i], i, enc)
			return
		}
	}
}

// password reports a URL whose userinfo has a password ("user:pass@").
func (a *auditor) password(obj webcapture.Ref, key, s string) {
	if shown, has := WithoutPassword(s); has {
		a.add("WC-URL-PASSWORD", obj, key, "the URL %s carries a password (not shown); RFC 2396 §7 advises against it", shown)
	}
}

// WithoutPassword is how webcap shows a URL from a file that carries a
// password in its user information ("http://user:pass@host/"): without
// the password ("http://user@host/"), and true; any other URL as it is,
// and false. Audit's WC-URL-PASSWORD message and the HTML report both
// show URLs through it, so that a password is never printed.
func WithoutPassword(s string) (string, bool) {
	if strings.IndexByte(s, '@') < 0 {
		return s, false // no userinfo without an "@" (RFC 3986 §3.2.1)
	}
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s, false
	}
	if _, has := u.User.Password(); !has {
		return s, false
	}
	u.User = url.User(u.User.Username())
	return u.String(), true
}
