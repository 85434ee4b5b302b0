package canon

// Hooks for the external tests.

// IsCanonicalFast is the fast path's verdict.
func (c *Canonicalizer) IsCanonicalFast(s string) bool { return c.isCanonical(s) }

// SlowString is the full algorithm, without the fast path.
func (c *Canonicalizer) SlowString(s string) (string, error) {
	b, err := c.appendURL(nil, s, StepDots)
	return string(b), err
}
