package canon

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/webcap/webcap/internal/idna15"
)

// hostIDNA is UTS #46 ToASCII as the project's rules fix it: Unicode 15.0.0
// (idna15, whatever the Go toolchain), non-transitional, CheckHyphens off,
// VerifyDnsLength off, STD3 rules off; CheckBidi and CheckJoiners on, as UTS
// #46 §4 has them. With STD3 off, IDNA lets through ASCII that no host may
// hold (space, '<', fullwidth '@' mapped to '@'); the reg-name check after it
// rejects those.
var hostIDNA = idna15.New(
	idna15.MapForLookup(),
	idna15.BidiRule(),
	idna15.Transitional(false),
	idna15.StrictDomainName(false),
	idna15.CheckHyphens(false),
	idna15.CheckJoiners(true),
	idna15.VerifyDNSLength(false),
)

// appendHost is step 4 for a host that is not an IP literal: IDNA for a host
// with non-ASCII bytes, then the RFC 3986 reg-name check, then ASCII letters
// lower-cased outside escapes. In pdf and pdf2 an escape keeps its hex case;
// rfc3986 upper-cases it and decodes an escaped unreserved character (which
// is then lower-cased like any letter).
func (p *Profile) appendHost(dst []byte, h piece, input string) ([]byte, error) {
	s := h.s
	i := 0
	for i < len(s) && class[s[i]]&cHostPlain != 0 {
		i++
	}
	if i == len(s) { // the common case: nothing to change or check
		return append(dst, s...), nil
	}
	// A byte above 0x7F calls for the UTF-8 check and IDNA; an escape of an
	// octet above 0x7F, for the UTF-8 check.
	nonASCII := false
	for j := i; j < len(s); j++ {
		if s[j] >= utf8.RuneSelf {
			nonASCII = true
			break
		}
	}
	if nonASCII || hasHighEscape(s[i:]) {
		if j := invalidUTF8(s[i:]); j >= 0 {
			return dst, &Error{Input: input, Step: StepHost, Offset: h.at(i + j), Err: ErrBadHost,
				Reason: fmt.Sprintf("host %q is not valid UTF-8: %s", s, describeOctet(s[i+j:]))}
		}
	}
	viaIDNA := false
	if nonASCII {
		a, err := hostIDNA.ToASCII(s)
		if err != nil {
			return dst, &Error{Input: input, Step: StepHost, Offset: h.at(0), Err: ErrBadHost,
				Reason: fmt.Sprintf("IDNA (UTS #46) rejects host %q: %v", s, err)}
		}
		// IDNA can map a character after a '%' to a hex digit and so make
		// an escape that was not written ("%ℂ0" becomes "%c0"): its octet
		// must be UTF-8 as a written one must, or the key would not
		// canonicalize to itself.
		if hasHighEscape(a) {
			if j := invalidUTF8(a); j >= 0 {
				return dst, &Error{Input: input, Step: StepHost, Offset: h.at(0), Err: ErrBadHost,
					Reason: fmt.Sprintf("host %q is %q after IDNA, which is not valid UTF-8: %s", s, a, describeOctet(a[j:]))}
			}
		}
		s, viaIDNA = a, true
	}
	// Copy the host, then lower-case and check it in place; rfc3986 may
	// shorten it by decoding escapes, so w trails i.
	hs := len(dst)
	dst = append(dst, s...)
	b := dst[hs:]
	w := 0
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case class[c]&(cUnreserved|cSubDelim) != 0:
			b[w] = lowerASCII(c)
			w++
		case c == '%' && i+2 < len(b) && isHex(b[i+1]) && isHex(b[i+2]):
			w += len(p.appendEscape(b[w:w], b[i+1], b[i+2], true, true))
			i += 2
		default:
			off := h.at(i)
			if viaIDNA {
				off = h.at(0)
			}
			e := &Error{Input: input, Step: StepHost, Offset: off, Err: ErrBadHost,
				Reason: fmt.Sprintf("host %q holds %s, which a host may not hold", h.s, quoteByte(c))}
			if c == '[' || c == ']' {
				e.Reason = fmt.Sprintf("%s in host %q is not around an IP literal", quoteByte(c), h.s)
			}
			if viaIDNA {
				e.Reason = fmt.Sprintf("host %q is %q after IDNA, which holds %s, which a host may not hold", h.s, s, quoteByte(c))
			}
			return dst[:hs], e
		}
	}
	return dst[:hs+w], nil
}

// invalidUTF8 returns the offset of the first byte of s that is not part of
// valid UTF-8, or -1. A host must be UTF-8 twice over: as written, since IDNA
// would read an invalid byte as U+FFFD (so that m\xFCnchen and m\xE4nchen
// would share a key), and with every well-formed escape read as the octet it
// stands for, since a reg-name's escapes are UTF-8 octets (RFC 3986 §3.2.2), so
// that %FC is rejected as \xFC is. An escape that breaks UTF-8 is reported at
// its '%'.
func invalidUTF8(s string) int {
	bad := -1
	if strings.IndexByte(s, '%') >= 0 {
		bad = invalidOctets(s)
	}
	if utf8.ValidString(s) {
		return bad
	}
	// An escape may complete a bad byte as an octet ("%C3\xBC"), so the
	// first bad byte as written may come first.
	for i := 0; i < len(s) && (bad < 0 || i < bad); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return bad
}

// invalidOctets is invalidUTF8 for the octets of s, escapes decoded.
func invalidOctets(s string) int {
	var b [utf8.UTFMax]byte
	for i := 0; i < len(s); {
		c, n := octet(s, i)
		if c < utf8.RuneSelf {
			i += n
			continue
		}
		k := 0
		for j := i; k < len(b) && j < len(s); k++ {
			b[k], n = octet(s, j)
			j += n
		}
		r, size := utf8.DecodeRune(b[:k])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		for ; size > 0; size-- {
			_, n = octet(s, i)
			i += n
		}
	}
	return -1
}

// hasHighEscape reports whether s holds a well-formed escape of an octet
// above 0x7F.
func hasHighEscape(s string) bool {
	for {
		i := strings.IndexByte(s, '%')
		if i < 0 || i+2 >= len(s) {
			return false
		}
		if s[i+1] >= '8' && isHex(s[i+1]) && isHex(s[i+2]) {
			return true
		}
		s = s[i+1:]
	}
}

// octet returns the octet at s[i], reading a well-formed escape as the octet
// it stands for, and how many bytes of s it took.
func octet(s string, i int) (byte, int) {
	if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
		return unhex(s[i+1])<<4 | unhex(s[i+2]), 3
	}
	return s[i], 1
}

// describeOctet names the byte or escape that starts s, for an error.
func describeOctet(s string) string {
	if c, n := octet(s, 0); n == 3 {
		return fmt.Sprintf("the escape %s (octet 0x%02X) is not part of a valid UTF-8 sequence", s[:3], c)
	}
	return fmt.Sprintf("byte 0x%02X is not part of a valid UTF-8 sequence", s[0])
}

// appendEscape writes the escape %hl found in the input. In pdf and pdf2 it is
// kept as written; rfc3986 upper-cases its hex and, when decode is set, writes
// an escaped unreserved character as itself (lower-cased when lower is set).
func (p *Profile) appendEscape(dst []byte, h, l byte, decode, lower bool) []byte {
	if !p.normEscapes {
		return append(dst, '%', h, l)
	}
	if decode {
		if b := unhex(h)<<4 | unhex(l); class[b]&cUnreserved != 0 {
			if lower {
				b = lowerASCII(b)
			}
			return append(dst, b)
		}
	}
	return append(dst, '%', upperHexDigit(h), upperHexDigit(l))
}

// appendIPLiteral is step 4 for a host in brackets: an IPv6 address (RFC 3986
// IPv6address, with an RFC 6874 zone "%25zone" allowed) whose hex digits are
// lower-cased, or an IPvFuture literal, lower-cased. The zone is kept as
// written: zone names are case-sensitive on some systems.
func (p *Profile) appendIPLiteral(dst []byte, h, tail piece, input string) ([]byte, error) {
	s := h.s
	bad := func(off int, format string, args ...any) error {
		return &Error{Input: input, Step: StepHost, Offset: off, Err: ErrBadIPv6,
			Reason: fmt.Sprintf(format, args...)}
	}
	if len(s) < 2 || s[len(s)-1] != ']' {
		return dst, bad(h.at(0), "'[' in host %q is not closed by ']'", s)
	}
	if tail.s != "" {
		return dst, bad(tail.at(0), "IP literal %s is followed by %q, not by a port", s, tail.s)
	}
	lit := s[1 : len(s)-1]
	if len(lit) > 0 && (lit[0] == 'v' || lit[0] == 'V') {
		if !validIPvFuture(lit) {
			return dst, bad(h.at(0), "%s is not a valid IPvFuture literal (v HEX . chars)", s)
		}
		dst = append(dst, '[')
		for i := range len(lit) {
			dst = append(dst, lowerASCII(lit[i]))
		}
		return append(dst, ']'), nil
	}
	addr, zone := lit, ""
	for i := 0; i+2 < len(lit); i++ {
		if lit[i] == '%' && lit[i+1] == '2' && lit[i+2] == '5' {
			addr, zone = lit[:i], lit[i:]
			break
		}
	}
	if a, err := netip.ParseAddr(addr); err != nil || !a.Is6() || a.Zone() != "" {
		return dst, bad(h.at(0), "%s is not a valid IPv6 address", s)
	}
	if zone != "" && !validZone(zone[3:]) {
		return dst, bad(h.at(0), "%s has an empty or malformed zone (RFC 6874)", s)
	}
	// A zone's escapes are octets of its name: like a reg-name's, they must
	// be UTF-8, or zones that differ only in a bad byte would share a key.
	if j := invalidUTF8(zone); j >= 0 {
		return dst, bad(h.at(0), "%s has a zone that is not valid UTF-8: %s", s, describeOctet(zone[j:]))
	}
	dst = append(dst, '[')
	for i := range len(addr) {
		dst = append(dst, lowerASCII(addr[i]))
	}
	dst = append(dst, zone...)
	return append(dst, ']'), nil
}

// validIPvFuture reports whether s is "v" 1*HEXDIG "." 1*( unreserved /
// sub-delims / ":" ).
func validIPvFuture(s string) bool {
	i := 1
	for i < len(s) && isHex(s[i]) {
		i++
	}
	if i == 1 || i >= len(s)-1 || s[i] != '.' {
		return false
	}
	for _, c := range []byte(s[i+1:]) {
		if class[c]&(cUnreserved|cSubDelim) == 0 && c != ':' {
			return false
		}
	}
	return true
}

// validZone reports whether s is 1*( unreserved / pct-encoded ) (RFC 6874).
func validZone(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case class[c]&cUnreserved != 0:
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			i += 2
		default:
			return false
		}
	}
	return true
}

// appendPort is step 6: the port compared as a number, removed when it is the
// profile's default for the scheme or empty, else written in decimal without
// leading zeros.
func (p *Profile) appendPort(dst []byte, scheme []byte, port piece, input string) ([]byte, error) {
	s := port.s
	n := 0
	for i := range len(s) {
		c := s[i]
		if c < '0' || c > '9' {
			return dst, &Error{Input: input, Step: StepPort, Offset: port.at(i), Err: ErrBadPort,
				Reason: fmt.Sprintf("port %q is not all digits", s)}
		}
		if n <= 65535 {
			n = n*10 + int(c-'0')
		}
	}
	if n > 65535 {
		return dst, &Error{Input: input, Step: StepPort, Offset: port.at(0), Err: ErrBadPort,
			Reason: fmt.Sprintf("port %q is above 65535", s)}
	}
	if s == "" || n == defaultPort(p, scheme) {
		return dst, nil
	}
	dst = append(dst, ':')
	return strconv.AppendInt(dst, int64(n), 10), nil
}

func quoteByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return strconv.QuoteRune(rune(c))
	}
	return fmt.Sprintf("byte 0x%02X", c)
}
