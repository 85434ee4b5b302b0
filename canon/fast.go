package canon

import "strings"

// plainLength reports whether s is plainly canonical but for a fragment: it
// is absolute, and every step but step 2 would leave it as it is. It returns
// the length of the canonical form, which is then s[:n] — len(s), or where
// the fragment starts, since step 2 only drops it — or -1. It only reads s,
// and it gives up at the first thing it would have to think about
// (userinfo, an IP literal, an escape under rfc3986, a dot segment, …),
// leaving such URLs to the full algorithm. When it gives up after the
// authority, head is the length of the scheme and authority, which it found
// canonical (else 0): appendCanonical then starts there. It must never return
// n >= 0 for a URL whose canonical form is not s[:n], nor a head that the
// steps would change: FuzzCanonical and TestFastPathAgrees check exactly that.
func (c *Canonicalizer) plainLength(s string) (n, head int) {
	p := c.profile
	if s == "" || class[s[0]]&cTrim != 0 || class[s[len(s)-1]]&cTrim != 0 {
		return -1, 0 // step 0
	}
	// A scheme already in lower case (schemeEnd and step 3 in one loop);
	// a relative reference (step 1) also fails here.
	if s[0] < 'a' || s[0] > 'z' {
		return -1, 0
	}
	i := 1
	for i < len(s) && s[i] != ':' {
		if class[s[i]]&(cScheme|cUpper) != cScheme {
			return -1, 0
		}
		i++
	}
	if i == len(s) {
		return -1, 0
	}
	scheme, rest := s[:i], s[i+1:]
	hasAuth := strings.HasPrefix(rest, "//")
	if hasAuth {
		var ok bool
		if rest, ok = c.plainAuthority(scheme, rest[2:]); !ok {
			return -1, 0
		}
		head = len(s) - len(rest)
		if p.rootPath && !strings.HasPrefix(rest, "/") {
			return -1, head // rfc3986: an empty path becomes "/"
		}
	}
	raw := c.input == Raw
	mask := p.encMask
	if raw {
		mask = p.rawMask
	}
	// The path and the query: nothing to encode, no escape to normalize,
	// no dot segment; what follows a '#' is dropped unread.
	mask |= cPercent | cDot | cHash
	for j := 0; j < len(rest); j++ {
		b := rest[j]
		if class[b]&mask == 0 {
			continue
		}
		switch b {
		case '#':
			return len(s) - len(rest) + j, head // step 2
		case '%':
			if raw || p.normEscapes || j+2 >= len(rest) || !isHex(rest[j+1]) || !isHex(rest[j+2]) {
				return -1, head
			}
			j += 2
		case '.':
			if j > 0 && rest[j-1] == '/' && isDotSegment(rest[j:]) {
				return -1, head // step 7
			}
		default:
			return -1, head // the encoding pass would change it
		}
	}
	return len(s), head
}

// isDotSegment reports whether s starts with a "." or ".." segment.
func isDotSegment(s string) bool {
	n := 1
	if len(s) > 1 && s[1] == '.' {
		n = 2
	}
	return n == len(s) || s[n] == '/' || s[n] == '?' || s[n] == '#'
}

// plainAuthority checks an authority without userinfo whose host is a plain
// lower-case reg-name and whose port, if any, is canonical and not the
// default, and returns what follows it.
func (c *Canonicalizer) plainAuthority(scheme, a string) (rest string, ok bool) {
	j := 0
	for j < len(a) && class[a[j]]&cHostPlain != 0 {
		j++
	}
	host := a[:j]
	if scheme == "file" && host == "localhost" {
		return "", false // step 5
	}
	if j == len(a) || a[j] != ':' {
		// The host must end the authority: anything else here is
		// userinfo, an IP literal or a byte step 4 would change.
		return a[j:], j == len(a) || a[j] == '/' || a[j] == '?' || a[j] == '#'
	}
	port := a[j+1:]
	n, k := 0, 0
	for k < len(port) && k < 6 && port[k] >= '0' && port[k] <= '9' {
		n = n*10 + int(port[k]-'0')
		k++
	}
	if k == 0 || k == 6 || port[0] == '0' && k > 1 || n > 65535 || n == defaultPort(c.profile, scheme) {
		return "", false // step 6
	}
	rest = port[k:]
	return rest, rest == "" || rest[0] == '/' || rest[0] == '?' || rest[0] == '#'
}
