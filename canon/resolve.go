package canon

import "strings"

// A target is the absolute URL that step 1 makes. Its path may be made of two
// pieces in different encoding states: the base's directory (always encoded)
// and the reference's path (in the declared state).
type target struct {
	reference
	path2   piece
	relDots bool // step 1 applies the profile's dot rule to the path
}

func (r *reference) hierarchical() bool {
	return r.hasAuth || strings.HasPrefix(r.path.s, "/")
}

// resolve is step 1: RFC 3986 §5.2.2 with the §5.2.3 merge, in place: t holds
// the parsed reference and becomes the target. A reference with a scheme is
// absolute as it stands (strict parsing, so "http:g" stays).
func (c *Canonicalizer) resolve(t *target, input string, off int) error {
	if t.hasScheme {
		return nil
	}
	r := t.reference // the reference, before t is overwritten
	b := c.base
	if b == nil {
		return &Error{Input: input, Step: StepAbsolute, Offset: off, Err: ErrNoBase,
			Reason: "relative reference and no base URL"}
	}
	if !b.hierarchical() {
		return &Error{Input: input, Step: StepAbsolute, Offset: off, Err: ErrOpaqueBase,
			Reason: "relative reference against a base URL that is not hierarchical (" + c.baseURL + ")"}
	}
	t.scheme, t.hasScheme = b.scheme, true
	t.frag, t.hasFrag = r.frag, r.hasFrag
	if r.hasAuth {
		t.copyAuthority(&r)
		t.path, t.query, t.hasQuery = r.path, r.query, r.hasQuery
		t.relDots = true
		return nil
	}
	t.copyAuthority(b)
	switch {
	case r.path.s == "":
		t.path = b.path
		if r.hasQuery {
			t.query, t.hasQuery = r.query, true
		} else {
			t.query, t.hasQuery = b.query, b.hasQuery
		}
		return nil
	case r.path.s[0] == '/':
		t.path = r.path
	case b.hasAuth && b.path.s == "":
		t.path, t.path2 = piece{s: "/", off: -1}, r.path
	default:
		i := strings.LastIndexByte(b.path.s, '/')
		t.path, t.path2 = piece{s: b.path.s[:i+1], off: -1}, r.path
	}
	t.query, t.hasQuery = r.query, r.hasQuery
	t.relDots = true
	return nil
}

func (t *target) copyAuthority(r *reference) {
	t.hasAuth = r.hasAuth
	t.user, t.hasUser = r.user, r.hasUser
	t.host, t.hostTail = r.host, r.hostTail
	t.port, t.hasPort = r.port, r.hasPort
}
