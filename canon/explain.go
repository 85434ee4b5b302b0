package canon

// An Explanation shows how a URL was canonicalized, step by step.
type Explanation struct {
	Input     string       // the URL as given
	Steps     []StepResult // every step reached, in order; the failing one last
	Canonical string       // the result; "" when a step failed
}

// A StepResult is one step of an Explanation: the URL before and after it.
type StepResult struct {
	Step   Step
	Before string
	After  string
}

// Changed reports whether the step changed the URL.
func (r StepResult) Changed() bool { return r.Before != r.After }

// Explain canonicalizes url and reports every step with the string before and
// after it. When a step fails, the explanation holds the steps before it and
// the error (an *Error) names it. The last step's result is always what
// String returns.
func (c *Canonicalizer) Explain(url string) (*Explanation, error) {
	ex := &Explanation{Input: url}
	trimmed, _ := trim(url)
	ex.Steps = append(ex.Steps, StepResult{Step: StepTrim, Before: url, After: trimmed})
	before := trimmed
	for _, step := range Steps()[1:] {
		out, err := c.appendURL(nil, url, step)
		if err != nil {
			return ex, err
		}
		ex.Steps = append(ex.Steps, StepResult{Step: step, Before: before, After: string(out)})
		before = string(out)
	}
	ex.Canonical = before
	return ex, nil
}

// Explain is Canonicalizer.Explain under p, for encoded input without a base.
func (p *Profile) Explain(url string) (*Explanation, error) {
	return (&Canonicalizer{profile: p}).Explain(url)
}
