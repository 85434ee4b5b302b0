package audit

import "testing"

func TestFileResultStatus(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    FileResult
		want Status
	}{
		{"no finding", FileResult{}, Valid},
		{"warnings and notes", FileResult{Findings: []Finding{{Rule: "WC-INFO-V-VALUE", Severity: Caution}, {Rule: "WC-PDF-RECOVERED", Severity: Notice}}}, Valid},
		{"a Web Capture error", FileResult{Findings: []Finding{{Rule: "WC-TREE-ORDER", Severity: Serious}}}, NotValid},
		{"a syntax error", FileResult{Findings: []Finding{{Rule: "WC-TREE-ORDER", Severity: Serious}, {Rule: "WC-PDF-XREF", Severity: Serious}}}, NotWellFormed},
		{"not a PDF", FileResult{Error: &FileError{Message: "not a PDF", Kind: Invalid}}, NotWellFormed},
		{"not read", FileResult{Error: &FileError{Message: "permission denied", Kind: Unavailable}}, Unchecked},
		{"interrupted", FileResult{Error: &FileError{Message: "interrupted", Kind: Interrupted}}, Unchecked},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.r.Status(); got != tc.want {
				t.Errorf("Status() = %q, want %q", got, tc.want)
			}
		})
	}
	for s, want := range map[Status]string{Valid: "Well-Formed and valid", NotValid: "Well-Formed, but not valid", NotWellFormed: "Not well-formed", Unchecked: "Not checked"} {
		if s.String() != want {
			t.Errorf("Status(%d).String() = %q, want %q", s, s.String(), want)
		}
	}
}

func TestFileErrorOperational(t *testing.T) {
	for kind, want := range map[ErrorKind]bool{Invalid: false, Unavailable: true, Interrupted: true} {
		if got := (&FileError{Kind: kind}).Operational(); got != want {
			t.Errorf("FileError{Kind: %d}.Operational() = %v, want %v", kind, got, want)
		}
	}
	if (*FileError)(nil).Operational() {
		t.Error("a nil FileError is operational")
	}
}

// Every WC-PDF-* rule is a syntax rule, and no other.
func TestIsSyntaxRule(t *testing.T) {
	n := 0
	for _, r := range Rules {
		if IsSyntaxRule(r.ID) {
			n++
		}
		if _, ok := RuleByID(r.ID); !ok {
			t.Errorf("RuleByID(%q) finds nothing", r.ID)
		}
	}
	if n != len(damageRule) {
		t.Errorf("%d syntax rules, want the %d the reader's damage maps to", n, len(damageRule))
	}
}
