package canon

// A Step is one stage of canonicalization. The numbered steps are those of the
// PDF text ("URL Strings"); StepTrim and StepEncode are the project's own
// stages for the input's whitespace and its encoding state.
type Step uint8

// The steps in the order they are applied.
const (
	StepTrim          Step = iota // 0: trim ASCII whitespace and C0 controls
	StepAbsolute                  // 1: make the URL absolute
	StepFragment                  // 2: strip the fragment
	StepScheme                    // 3: lower-case the scheme
	StepHost                      // 4: lower-case the host (IDNA, IP literals)
	StepFileLocalhost             // 5: file://localhost → file://
	StepPort                      // 6: remove the default port
	StepEncode                    // E: the one-encoding-pass normalization
	StepDots                      // 7: dot segments
)

// Steps lists every step in the order it is applied.
func Steps() []Step {
	return []Step{StepTrim, StepAbsolute, StepFragment, StepScheme, StepHost,
		StepFileLocalhost, StepPort, StepEncode, StepDots}
}

var stepInfo = [...]struct{ number, name string }{
	StepTrim:          {"0", "trim whitespace"},
	StepAbsolute:      {"1", "make absolute"},
	StepFragment:      {"2", "strip fragment"},
	StepScheme:        {"3", "lower-case scheme"},
	StepHost:          {"4", "lower-case host"},
	StepFileLocalhost: {"5", "file localhost"},
	StepPort:          {"6", "default port"},
	StepEncode:        {"E", "one encoding pass"},
	StepDots:          {"7", "dot segments"},
}

// Number returns the step's label: "0" to "7" for the PDF steps and "E" for
// the encoding pass.
func (s Step) Number() string {
	if int(s) < len(stepInfo) {
		return stepInfo[s].number
	}
	return "?"
}

// Name returns a short description of the step.
func (s Step) Name() string {
	if int(s) < len(stepInfo) {
		return stepInfo[s].name
	}
	return "unknown step"
}

// String returns the step as "step 6 (default port)".
func (s Step) String() string { return "step " + s.Number() + " (" + s.Name() + ")" }
