package audit

import (
	"strings"
	"time"
)

// A FileResult is one file's audit: what a program that audits many files
// keeps of each, and what the report formats (package audit/export) are
// made from. Error is set when the file could not be audited; Findings are
// then usually empty.
type FileResult struct {
	Input    string    // the path as given
	Size     int64     // in bytes; 0 when not known
	SHA256   string    // the file's SHA-256 in hex; "" when not known
	ModTime  time.Time // zero when not known
	Error    *FileError
	Findings []Finding
}

// A FileError says why a file could not be audited.
type FileError struct {
	Message string
	Kind    ErrorKind
}

// ErrorKind tells a finding about the file from a failure of the run.
type ErrorKind int

const (
	// Invalid: the file is not a PDF, too damaged to parse, or hostile
	// (the reader crashed or hung on it). A finding about the file: the
	// same file fails the same way again.
	Invalid ErrorKind = iota
	// Unavailable: the file could not be read (missing, no permission, an
	// I/O error, a password not given): an operational failure, worth
	// retrying.
	Unavailable
	// Interrupted: the run was stopped before the file was done.
	Interrupted
)

// Operational reports whether the error is a failure of the run rather
// than a finding about the file (Unavailable, Interrupted).
func (e *FileError) Operational() bool { return e != nil && e.Kind != Invalid }

// Status is a file's verdict in JHOVE's words, the words preservation
// systems (Archivematica's FPR among them) map to an outcome.
type Status int

const (
	// Valid: the file is well-formed and no finding is an error.
	Valid Status = iota
	// NotValid: the file is well-formed, but a Web Capture rule has an
	// error finding.
	NotValid
	// NotWellFormed: the file is not a PDF, could not be parsed or is
	// hostile (FileError of kind Invalid), or the reader found damage in
	// its syntax (a WC-PDF-* error).
	NotWellFormed
	// Unchecked: the file was not examined, for an operational reason
	// (FileError.Operational: missing, unreadable, no password,
	// interrupted). No verdict is said of it: "not well-formed" would be
	// a claim about a file nobody read.
	Unchecked
)

// String returns JHOVE's status words: "Well-Formed and valid",
// "Well-Formed, but not valid" or "Not well-formed"; "Not checked" for
// Unchecked, which JHOVE has no words for.
func (s Status) String() string {
	switch s {
	case Valid:
		return "Well-Formed and valid"
	case NotValid:
		return "Well-Formed, but not valid"
	case Unchecked:
		return "Not checked"
	}
	return "Not well-formed"
}

// Status decides the file's verdict: unchecked when it was not examined
// for an operational reason (FileError.Operational); not well-formed when
// it is not a PDF that can be read (an Invalid error) or a WC-PDF-* rule
// has an error finding (damage in the file's syntax, JHOVE's
// well-formedness); well-formed but not valid when any other finding is an
// error; else well-formed and valid (warnings and notes do not count).
func (r FileResult) Status() Status {
	switch {
	case r.Error.Operational():
		return Unchecked
	case r.Error != nil:
		return NotWellFormed
	}
	s := Valid
	for _, f := range r.Findings {
		if f.Severity != Serious {
			continue
		}
		if IsSyntaxRule(f.Rule) {
			return NotWellFormed
		}
		s = NotValid
	}
	return s
}

// IsSyntaxRule reports whether rule is about the file's syntax (WC-PDF-*),
// what the reader had to repair or could not read, rather than its Web
// Capture structures.
func IsSyntaxRule(rule string) bool {
	return strings.HasPrefix(rule, "WC-PDF-")
}

// RuleByID returns the rule called id, and whether there is one.
func RuleByID(id string) (Rule, bool) {
	for _, r := range Rules {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}
