package canon

import "github.com/webcap/webcap/internal/idna15"

// Hooks for the external tests.

// Fast is the fast path's verdict: the canonical form of s and true, or
// false when it leaves s to the full algorithm.
func (c *Canonicalizer) Fast(s string) (string, bool) {
	if n, _ := c.plainLength(s); n >= 0 {
		return s[:n], true
	}
	return "", false
}

// Head is the result of the full algorithm started after the scheme and
// authority that the fast path found canonical, and true; or false when the
// fast path found no such head.
func (c *Canonicalizer) Head(s string) (string, bool, error) {
	n, head := c.plainLength(s)
	if n >= 0 || head == 0 {
		return "", false, nil
	}
	b, err := c.appendCanonical(nil, s, head)
	return string(b), true, err
}

// SlowString is the full algorithm, without the fast path.
func (c *Canonicalizer) SlowString(s string) (string, error) {
	b, err := c.appendURL(nil, s, StepDots)
	return string(b), err
}

// HostToASCII is step 4's IDNA: UTS #46 ToASCII with the options every
// profile uses.
func HostToASCII(s string) (string, error) { return hostIDNA.ToASCII(s) }

// HostToASCIISTD3 is HostToASCII with UseSTD3ASCIIRules on, the one option
// that IdnaTestV2.txt assumes and the profiles do not.
func HostToASCIISTD3(s string) (string, error) { return hostIDNASTD3.ToASCII(s) }

var hostIDNASTD3 = idna15.New(
	idna15.MapForLookup(),
	idna15.BidiRule(),
	idna15.Transitional(false),
	idna15.StrictDomainName(true),
	idna15.CheckHyphens(false),
	idna15.CheckJoiners(true),
	idna15.VerifyDNSLength(false),
)
