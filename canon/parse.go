package canon

import "strings"

// A piece is one component of a URL: a substring of the input or of the base,
// with where it came from and which encoding state it is in.
type piece struct {
	s   string
	off int // byte offset of s in the input; -1 when s comes from the base
}

func (p piece) at(i int) int {
	if p.off < 0 {
		return -1
	}
	return p.off + i
}

func mkPiece(s string, i, j, off int) piece {
	return piece{s: s[i:j], off: off + i}
}

// A reference is a URL reference split into its RFC 3986 components. Each
// hasX flag tells a present but empty component from an absent one, since
// canonicalization keeps empty delimiters ("http://@a/", "http://a/b?").
type reference struct {
	scheme   piece
	user     piece
	host     piece
	port     piece
	hostTail piece // whatever follows an IP literal's ']' and is not ":port"
	path     piece
	query    piece
	frag     piece

	hasScheme, hasAuth, hasUser, hasPort, hasQuery, hasFrag bool
}

// parseRef splits s (found at byte off of the input) into components. It
// never fails: malformed authorities are kept for the host and port steps to
// report, so that an explanation shows the steps before the failing one.
//
// It reads s once, left to right: the fragment starts at the first '#', the
// query at the first '?' before it, and the authority, after "//", ends at
// the first '/', '?' or '#'. (The first '#' never falls inside a scheme, and
// "//" holds neither delimiter, so this is the split of RFC 3986 Appendix B.)
func parseRef(r *reference, s string, off int) {
	mk := func(i, j int) piece { return mkPiece(s, i, j, off) }
	pos := 0
	if i := schemeEnd(s); i > 0 {
		r.scheme, r.hasScheme = mk(0, i), true
		pos = i + 1
	}
	if len(s)-pos >= 2 && s[pos] == '/' && s[pos+1] == '/' {
		r.hasAuth = true
		pos = r.parseAuthority(s, pos+2, mk)
	}
	r.parseRest(s, pos, off)
}

// parseRest splits s[pos:], what follows the scheme and the authority, into
// the path, the query and the fragment.
func (r *reference) parseRest(s string, pos, off int) {
	end := len(s)
	if i := strings.IndexByte(s[pos:], '#'); i >= 0 {
		r.frag, r.hasFrag = mkPiece(s, pos+i+1, end, off), true
		end = pos + i
	}
	if i := strings.IndexByte(s[pos:end], '?'); i >= 0 {
		r.query, r.hasQuery = mkPiece(s, pos+i+1, end, off), true
		end = pos + i
	}
	r.path = mkPiece(s, pos, end, off)
}

// parseAuthority splits the authority that starts at s[a] and ends at the
// first '/', '?' or '#', and returns where it ends. The userinfo is what
// comes before the last '@'; the port follows the first ':' after it, or the
// ']' of an IP literal.
func (r *reference) parseAuthority(s string, a int, mk func(i, j int) piece) int {
	at, colon := -1, -1
	ae := a
	for ; ae < len(s); ae++ {
		c := s[ae]
		if class[c]&cAuthDelim == 0 {
			continue
		}
		if c == '@' {
			at, colon = ae, -1 // the port's ':' comes after the last '@'
		} else if c == ':' {
			if colon < 0 {
				colon = ae
			}
		} else {
			break
		}
	}
	if at >= 0 {
		r.user, r.hasUser = mk(a, at), true
		a = at + 1
	}
	if a < ae && s[a] == '[' {
		i := strings.IndexByte(s[a:ae], ']')
		if i < 0 {
			r.host = mk(a, ae) // no ']': the host step reports it
			return ae
		}
		r.host = mk(a, a+i+1)
		colon = a + i + 1
		if colon == ae {
			return ae
		}
		if s[colon] != ':' {
			r.hostTail = mk(colon, ae)
			return ae
		}
	} else {
		if colon < 0 {
			r.host = mk(a, ae)
			return ae
		}
		r.host = mk(a, colon)
	}
	r.port, r.hasPort = mk(colon+1, ae), true
	return ae
}

// schemeEnd returns the index of the ':' that ends a scheme at the start of s
// (RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"), or -1.
func schemeEnd(s string) int {
	if len(s) == 0 || class[s[0]]&cScheme == 0 || s[0] <= '9' && s[0] >= '0' ||
		s[0] == '+' || s[0] == '-' || s[0] == '.' {
		return -1
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if c == ':' {
			return i
		}
		if class[c]&cScheme == 0 {
			return -1
		}
	}
	return -1
}

// trim applies step 0: it removes leading and trailing ASCII whitespace and
// C0 controls, and returns the rest with its offset in s.
func trim(s string) (string, int) {
	i, j := 0, len(s)
	for i < j && class[s[i]]&cTrim != 0 {
		i++
	}
	for j > i && class[s[j-1]]&cTrim != 0 {
		j--
	}
	return s[i:j], i
}
