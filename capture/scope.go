// The crawl's scope: which links a command may follow (its SameSite and
// SamePath flags).

package capture

import (
	"net/url"
	"strings"

	"github.com/webcap/webcap/webcapture"
)

// InScope reports whether a command whose initial URL is initial and whose
// flags are f may follow a link to candidate (PDF 1.7 Table 10.44; ISO
// 32000-1 §14.10.5.3):
//
//   - SameSite: candidate is on the initial URL's host: the same host
//     name, compared case-insensitively, and the same port (a default port
//     written out counts as left out);
//   - SamePath: candidate has the initial URL's scheme and network location,
//     compared case-insensitively, and its path starts with the initial
//     URL's path up to and including its last '/', compared
//     case-sensitively: /fiddle/faddle/foo.html is in the path of
//     /fiddle/initial.html.
//
// With neither flag every link is in scope. Both URLs should be absolute;
// a URL that does not parse is never in scope under a flag.
func InScope(initial, candidate string, f webcapture.Flags) bool {
	if f&(webcapture.SameSite|webcapture.SamePath) == 0 {
		return true
	}
	a, err1 := url.Parse(initial)
	b, err2 := url.Parse(candidate)
	if err1 != nil || err2 != nil || a.Host == "" || b.Host == "" {
		return false
	}
	if f&webcapture.SameSite != 0 && !sameHost(a, b) {
		return false
	}
	if f&webcapture.SamePath != 0 {
		if !strings.EqualFold(a.Scheme, b.Scheme) || !strings.EqualFold(netloc(a), netloc(b)) {
			return false
		}
		dir := a.EscapedPath()
		if i := strings.LastIndexByte(dir, '/'); i >= 0 {
			dir = dir[:i+1]
		} else {
			dir = "/"
		}
		p := b.EscapedPath()
		if p == "" {
			p = "/"
		}
		if !strings.HasPrefix(p, dir) {
			return false
		}
	}
	return true
}

func sameHost(a, b *url.URL) bool {
	return strings.EqualFold(a.Hostname(), b.Hostname()) && port(a) == port(b)
}

// netloc is the network location: user information, host and port, with a
// default port left out.
func netloc(u *url.URL) string {
	s := u.Hostname()
	if strings.Contains(s, ":") {
		s = "[" + s + "]"
	}
	if p := port(u); p != "" {
		s += ":" + p
	}
	if u.User != nil {
		s = u.User.String() + "@" + s
	}
	return s
}

// port is u's port, empty when it is the scheme's default.
func port(u *url.URL) string {
	p := u.Port()
	switch {
	case p == "80" && strings.EqualFold(u.Scheme, "http"),
		p == "443" && strings.EqualFold(u.Scheme, "https"),
		p == "21" && strings.EqualFold(u.Scheme, "ftp"):
		return ""
	}
	return p
}
