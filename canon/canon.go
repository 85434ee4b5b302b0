package canon

import (
	"fmt"
	"strings"
	"sync"
	"unsafe"
)

// A Canonicalizer canonicalizes URLs under one profile, with an optional base
// URL for relative references and a declared input encoding state. It is
// immutable and safe for concurrent use.
type Canonicalizer struct {
	profile *Profile
	input   Encoding
	baseURL string     // the base as given, trimmed; "" if none
	base    *reference // parsed base; nil if none
}

// An Option configures a Canonicalizer.
type Option func(*Canonicalizer)

// WithBase sets the base URL that relative references are resolved against.
// The base is always taken in the encoded state; it must be absolute and must
// canonicalize without error under the profile.
func WithBase(base string) Option { return func(c *Canonicalizer) { c.baseURL = base } }

// WithInput declares the encoding state of the URLs to canonicalize
// (Encoded by default).
func WithInput(e Encoding) Option { return func(c *Canonicalizer) { c.input = e } }

// New returns a Canonicalizer for the profile p (PDF if p is nil). It fails
// only when the base URL given with WithBase does not canonicalize.
func New(p *Profile, opts ...Option) (*Canonicalizer, error) {
	if p == nil {
		p = PDF
	}
	c := &Canonicalizer{profile: p}
	for _, o := range opts {
		o(c)
	}
	if c.input > Raw {
		return nil, fmt.Errorf("canon: unknown input encoding %d", c.input)
	}
	if c.baseURL != "" {
		check := &Canonicalizer{profile: p}
		if _, err := check.appendURL(nil, c.baseURL, StepDots); err != nil {
			return nil, fmt.Errorf("canon: bad base URL: %w", err)
		}
		s, _ := trim(c.baseURL)
		var r reference
		parseRef(&r, s, -1)
		for _, pc := range []*piece{&r.scheme, &r.user, &r.host, &r.port, &r.hostTail, &r.path, &r.query, &r.frag} {
			pc.off = -1 // pieces of the base have no offset in the input
		}
		c.baseURL, c.base = s, &r
	}
	return c, nil
}

// Profile returns the canonicalizer's profile.
func (c *Canonicalizer) Profile() *Profile { return c.profile }

// Input returns the declared encoding state of input URLs.
func (c *Canonicalizer) Input() Encoding { return c.input }

// Base returns the base URL, trimmed, or "" if there is none.
func (c *Canonicalizer) Base() string { return c.baseURL }

// Append appends the canonical form of url to dst and returns the extended
// buffer. It allocates nothing when dst has room for the result; on error dst
// is returned unchanged.
func (c *Canonicalizer) Append(dst []byte, url string) ([]byte, error) {
	n, head := c.plainLength(url)
	if n >= 0 {
		return append(dst, url[:n]...), nil
	}
	n = len(dst)
	out, err := c.appendCanonical(dst, url, head)
	if err != nil {
		return dst[:n], err
	}
	return out, nil
}

// AppendBytes is Append for a URL held in a byte slice. url is not retained
// and not modified.
func (c *Canonicalizer) AppendBytes(dst, url []byte) ([]byte, error) {
	// The string aliases url only for the duration of the call: nothing
	// keeps a reference to it (an *Error copies its input).
	return c.Append(dst, unsafe.String(unsafe.SliceData(url), len(url)))
}

// stackBuf is the size of the buffer String canonicalizes into without a heap
// allocation; poolBuf that of the pooled buffers used for longer inputs.
const (
	stackBuf = 512
	poolBuf  = 4096
)

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, poolBuf); return &b }}

// String returns the canonical form of url. It allocates at most once, for
// the result: never when url is already canonical and not longer than about
// 1,300 bytes (or is plainly canonical, at any length, but for a fragment:
// the result is then a substring of url).
func (c *Canonicalizer) String(url string) (string, error) {
	n, head := c.plainLength(url)
	if n >= 0 {
		return url[:n], nil
	}
	// need bounds the result: each input byte becomes at most 3 (an
	// escape), plus the base. Only IDNA can exceed it, and IDNA allocates.
	need := 3*len(url) + len(c.baseURL)
	switch {
	case need <= stackBuf:
		var buf [stackBuf]byte
		return c.finish(buf[:0], url, head)
	case need <= poolBuf:
		bp := bufPool.Get().(*[]byte)
		s, err := c.finish((*bp)[:0], url, head)
		bufPool.Put(bp)
		return s, err
	}
	// Longer still: build into a fresh buffer, which nothing else refers
	// to, and hand it over as the result instead of copying it.
	out, err := c.appendCanonical(make([]byte, 0, need), url, head)
	if err != nil {
		return "", err
	}
	return unsafe.String(unsafe.SliceData(out), len(out)), nil
}

func (c *Canonicalizer) finish(buf []byte, url string, head int) (string, error) {
	out, err := c.appendCanonical(buf, url, head)
	if err != nil {
		return "", err
	}
	if string(out) == url {
		return url, nil
	}
	return string(out), nil
}

// Canonical returns the canonical form of url under the pdf profile, for
// encoded input without a base URL.
func Canonical(url string) (string, error) { return pdfDefault.String(url) }

var pdfDefault = &Canonicalizer{profile: PDF}

// Canonical returns the canonical form of url under p, for encoded input
// without a base URL.
func (p *Profile) Canonical(url string) (string, error) {
	return (&Canonicalizer{profile: p}).String(url)
}

// appendURL is the worker behind every entry point: it applies every step up
// to and including upto, in order, and appends the result to dst. Explain
// calls it once per step; everything else calls it with StepDots.
func (c *Canonicalizer) appendURL(dst []byte, input string, upto Step) ([]byte, error) {
	s, off := trim(input) // step 0
	var t target
	parseRef(&t.reference, s, off)
	if err := c.resolve(&t, input, off); err != nil { // step 1
		return dst, cloneInput(err)
	}
	var err error

	start := len(dst)
	dst = append(dst, t.scheme.s...)
	scheme := dst[start:]
	if upto >= StepScheme { // step 3
		for i, c := range scheme {
			scheme[i] = lowerASCII(c)
		}
	}
	dst = append(dst, ':')

	if t.hasAuth {
		if dst, err = c.appendAuthority(dst, &t, scheme, input, upto); err != nil {
			return dst[:start], cloneInput(err)
		}
	}
	return c.appendRest(dst, &t, upto), nil
}

// appendRest writes what follows the authority: the path, the query and,
// before step 2, the fragment.
func (c *Canonicalizer) appendRest(dst []byte, t *target, upto Step) []byte {
	dst = c.appendPath(dst, t, upto)
	if t.hasQuery {
		dst = append(dst, '?')
		dst = c.appendComponent(dst, t.query, c.profile.normEscapes, upto, nil)
	}
	if t.hasFrag && upto < StepFragment { // step 2
		dst = append(dst, '#')
		dst = append(dst, t.frag.s...)
	}
	return dst
}

// appendCanonical is appendURL(dst, url, StepDots) for a URL that the fast
// path gave up on. When it had found the scheme and the authority, url[:head],
// plainly canonical (head > 0), they are copied as they are and only the rest
// goes through the steps: the scheme, host and port steps would leave them
// as they are, and nothing after the authority can fail.
func (c *Canonicalizer) appendCanonical(dst []byte, url string, head int) ([]byte, error) {
	if head == 0 {
		return c.appendURL(dst, url, StepDots)
	}
	var t target
	t.hasScheme, t.hasAuth = true, true
	t.parseRest(url, head, 0)
	return c.appendRest(append(dst, url[:head]...), &t, StepDots), nil
}

// appendAuthority writes "//", the userinfo, the host (steps 4 and 5) and the
// port (step 6).
func (c *Canonicalizer) appendAuthority(dst []byte, t *target, scheme []byte, input string, upto Step) ([]byte, error) {
	p := c.profile
	var err error
	dst = append(dst, '/', '/')
	if t.hasUser {
		if upto >= StepHost {
			if i := strings.IndexAny(t.user.s, "[]"); i >= 0 {
				return dst, &Error{Input: input, Step: StepHost, Offset: t.user.at(i), Err: ErrBadHost,
					Reason: fmt.Sprintf("%s in the userinfo %q: brackets belong only around an IP literal", quoteByte(t.user.s[i]), t.user.s)}
			}
		}
		dst = c.appendComponent(dst, t.user, p.normEscapes, upto, nil)
		dst = append(dst, '@')
	}
	hostStart := len(dst)
	switch {
	case upto < StepHost:
		dst = append(dst, t.host.s...)
		dst = append(dst, t.hostTail.s...)
	case strings.HasPrefix(t.host.s, "["):
		dst, err = p.appendIPLiteral(dst, t.host, t.hostTail, input)
	default:
		dst, err = p.appendHost(dst, t.host, input)
	}
	if err != nil {
		return dst, err
	}
	if upto >= StepFileLocalhost && equalFoldASCII(scheme, "file") &&
		equalFoldASCII(dst[hostStart:], "localhost") { // step 5
		dst = dst[:hostStart]
	}
	if t.hasPort {
		if upto < StepPort {
			dst = append(dst, ':')
			dst = append(dst, t.port.s...)
		} else if dst, err = p.appendPort(dst, scheme, t.port, input); err != nil {
			return dst, err
		}
	}
	return dst, nil
}

// appendComponent writes a userinfo, path or query: through the encoding pass
// once that step is reached, as written before. dots is as for appendEncoded.
func (c *Canonicalizer) appendComponent(dst []byte, s piece, decode bool, upto Step, dots *bool) []byte {
	if upto < StepEncode {
		if dots != nil && hasDotSegment(s.s) {
			*dots = true
		}
		return append(dst, s.s...)
	}
	raw := c.input == Raw && s.off >= 0 // the base is always encoded
	return c.profile.appendEncoded(dst, s.s, raw, decode, dots)
}

// appendPath writes the path. Step 1 applies the profile's dot rule to the
// path of a resolved relative reference (RFC 3986 §5.2.2) before the encoding
// pass; so that rfc3986's decoding of "%2E" cannot change what step 1 saw,
// escapes are decoded after it, in place. Step 7 then applies the dot rule to
// every hierarchical path, rfc3986 writes an empty path with an authority as
// "/", and a path that would read as an authority gets "/." in front.
func (c *Canonicalizer) appendPath(dst []byte, t *target, upto Step) []byte {
	p := c.profile
	ps := len(dst)
	decodeInline := p.normEscapes && !t.relDots
	dots := false
	dst = c.appendComponent(dst, t.path, decodeInline, upto, &dots)
	if t.path2.s != "" {
		// The merged path: dots may sit where the two pieces meet.
		dst = c.appendComponent(dst, t.path2, decodeInline, upto, nil)
		dots = true
	}
	if t.relDots && dots {
		dst = dst[:ps+len(removeDots(dst[ps:], p.keepAbove))]
	}
	if t.relDots && p.normEscapes && upto >= StepEncode {
		dst = dst[:ps+len(decodeUnreserved(dst[ps:]))]
		dots = true // decoding may have made new dot segments
	}
	if upto < StepDots {
		return dst
	}
	hier := t.hasAuth || (len(dst) > ps && dst[ps] == '/')
	if hier && dots {
		dst = dst[:ps+len(removeDots(dst[ps:], p.keepAbove))]
	}
	if p.rootPath && t.hasAuth && len(dst) == ps {
		dst = append(dst, '/')
	}
	if !t.hasAuth && len(dst) >= ps+2 && dst[ps] == '/' && dst[ps+1] == '/' {
		dst = append(dst, 0, 0)
		copy(dst[ps+2:], dst[ps:len(dst)-2])
		dst[ps], dst[ps+1] = '/', '.'
	}
	return dst
}

// cloneInput copies the input held by an *Error, which may alias a caller's
// byte slice (AppendBytes).
func cloneInput(err error) error {
	if e, ok := err.(*Error); ok {
		e.Input = strings.Clone(e.Input)
	}
	return err
}
