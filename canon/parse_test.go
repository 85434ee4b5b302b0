package canon

import (
	"regexp"
	"strings"
	"testing"

	"github.com/webcap/webcap/internal/urlcorpus"
)

// rfc3986AppendixB is the regular expression of RFC 3986 Appendix B without
// its scheme, which parseRef reads more strictly (schemeEnd).
var rfc3986AppendixB = regexp.MustCompile(`(?s)^(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?$`)

// splitRef is the oracle for parseRef: Appendix B for the components, then
// the authority split with string functions (userinfo before the last '@',
// the port after the first ':' after it or after an IP literal's ']').
func splitRef(s string) reference {
	var r reference
	pos := 0
	if i := schemeEnd(s); i > 0 {
		r.scheme, r.hasScheme, pos = piece{s[:i], 0}, true, i+1
	}
	m := rfc3986AppendixB.FindStringSubmatchIndex(s[pos:])
	get := func(g int) (piece, bool) {
		if m[2*g] < 0 {
			return piece{}, false
		}
		return piece{s[pos+m[2*g] : pos+m[2*g+1]], pos + m[2*g]}, true
	}
	var auth piece
	auth, r.hasAuth = get(2)
	r.path, _ = get(3)
	r.query, r.hasQuery = get(5)
	r.frag, r.hasFrag = get(7)
	if !r.hasAuth {
		return r
	}
	sub := func(i, j int) piece { return piece{auth.s[i:j], auth.off + i} }
	hp := 0
	if at := strings.LastIndexByte(auth.s, '@'); at >= 0 {
		r.user, r.hasUser, hp = sub(0, at), true, at+1
	}
	colon := -1
	if strings.HasPrefix(auth.s[hp:], "[") {
		end := strings.IndexByte(auth.s[hp:], ']')
		if end < 0 {
			r.host = sub(hp, len(auth.s))
			return r
		}
		r.host, colon = sub(hp, hp+end+1), hp+end+1
		if colon == len(auth.s) {
			return r
		}
		if auth.s[colon] != ':' {
			r.hostTail = sub(colon, len(auth.s))
			return r
		}
	} else if colon = strings.IndexByte(auth.s[hp:], ':'); colon < 0 {
		r.host = sub(hp, len(auth.s))
		return r
	} else {
		colon += hp
		r.host = sub(hp, colon)
	}
	r.port, r.hasPort = sub(colon+1, len(auth.s)), true
	return r
}

// parseRef splits every reference as RFC 3986 Appendix B does: the corpus,
// and every string of up to five bytes over the delimiters and a letter.
func TestParseRefAppendixB(t *testing.T) {
	inputs := urlcorpus.Generate(5000, 7)
	const alphabet = "a:/?#@[]"
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		inputs = append(inputs, prefix, "x:"+prefix, "x://"+prefix)
		if n == 0 {
			return
		}
		for i := 0; i < len(alphabet); i++ {
			gen(prefix+alphabet[i:i+1], n-1)
		}
	}
	gen("", 5)
	for _, s := range inputs {
		var got reference
		parseRef(&got, s, 0)
		// Pieces that are absent may differ in where they point.
		want := splitRef(s)
		for _, r := range []*reference{&got, &want} {
			for _, p := range []*piece{&r.scheme, &r.user, &r.host, &r.port, &r.hostTail, &r.path, &r.query, &r.frag} {
				if p.s == "" {
					p.off = 0
				}
			}
		}
		if got != want {
			t.Fatalf("parseRef(%q) = %+v, want %+v", s, got, want)
		}
	}
}

// removeDotsSegments is the oracle for removeDots: its doc comment's stack of
// segments, on a path split at '/'.
func removeDotsSegments(path string, keepAbove bool) string {
	if path == "" {
		return ""
	}
	segs := strings.Split(path[1:], "/")
	var out []string
	floor := 0 // out[:floor] are kept ".." segments
	for i, s := range segs {
		last := i == len(segs)-1
		switch s {
		case ".":
		case "..":
			if len(out) > floor {
				out = out[:len(out)-1]
			} else if keepAbove {
				out = append(out, "..")
				floor = len(out)
				continue
			}
		default:
			out = append(out, s)
			continue
		}
		if last {
			out = append(out, "") // a trailing "." or ".." leaves a '/'
		}
	}
	if len(out) == 0 {
		return ""
	}
	return "/" + strings.Join(out, "/")
}

// removeDots is the stack of segments on every path of up to eight bytes
// over "/.a" that starts with '/'.
func TestRemoveDotsSegments(t *testing.T) {
	var paths []string
	var gen func(p string)
	gen = func(p string) {
		paths = append(paths, p)
		if len(p) < 8 {
			for _, c := range []string{"/", ".", "a"} {
				gen(p + c)
			}
		}
	}
	gen("/")
	paths = append(paths, "", "/a/b/c/./../../g", "/b/c/d;p/../../../g", "/a/b/../../../x/./y/..")
	for _, keep := range []bool{false, true} {
		for _, p := range paths {
			got := string(removeDots([]byte(p), keep))
			if want := removeDotsSegments(p, keep); got != want {
				t.Fatalf("removeDots(%q, %v) = %q, want %q", p, keep, got, want)
			}
		}
	}
}
