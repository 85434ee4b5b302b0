package export

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/webcap/webcap/audit"
)

// JUnit XML valid under both the strict Ant schema (windyroad JUnit.xsd)
// and the one Jenkins xUnit enforces (junit-10.xsd): a <testsuites> root
// without attributes; a <testsuite> per file, with package, id, name, a
// timestamp without a zone, hostname, tests, failures, errors and a time
// of at most 3 decimals; then properties, the testcases (one, "audit",
// that passes, and one per rule with error findings, each failed by one
// <failure> that lists them), system-out (the warnings and notes) and
// system-err. A file that could not be read is
// one testcase, "read", with an <error>.

type junitSuite struct {
	Package    string          `xml:"package,attr"`
	ID         int             `xml:"id,attr"`
	Name       string          `xml:"name,attr"`
	Timestamp  string          `xml:"timestamp,attr"`
	Hostname   string          `xml:"hostname,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
	SystemOut  string          `xml:"system-out"`
	SystemErr  string          `xml:"system-err"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure"`
	Error     *junitProblem `xml:"error"`
}

type junitProblem struct {
	Type    string `xml:"type,attr"`
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

const junitPackage = "webcap.audit"

func writeJUnit(w io.Writer, results Results, opts Options) error {
	host := opts.Hostname
	if host == "" {
		host = "localhost"
	}
	enc, err := xmlDoc(w, start("testsuites"))
	if err != nil {
		return err
	}
	for i := range results.Len() {
		if err := enc.EncodeElement(junitSuiteOf(i, results.At(i), host, opts), start("testsuite")); err != nil {
			return err
		}
	}
	return xmlEnd(w, enc, "testsuites")
}

// junitSuiteOf is the testsuite of the i-th file, r.
func junitSuiteOf(i int, r audit.FileResult, host string, opts Options) junitSuite {
	s := junitSuite{Package: junitPackage, ID: i, Name: r.Input, Timestamp: opts.time().Format("2006-01-02T15:04:05"),
		Hostname: host, Time: "0.000",
		Properties: []junitProperty{{"status", r.Status().String()}, {"program", opts.tool() + " " + opts.version()}}}
	if r.Error != nil {
		kind := "invalid"
		if r.Error.Operational() {
			kind = "unavailable"
		}
		s.Cases = []junitCase{{Name: "read", Classname: junitPackage, Time: "0.000",
			Error: &junitProblem{Type: kind, Message: r.Error.Message, Text: r.Error.Message}}}
		s.Tests, s.Errors = 1, 1
		return s
	}
	failed := map[string][]audit.Finding{}
	var out strings.Builder
	for _, f := range r.Findings {
		if f.Severity == audit.Serious {
			failed[f.Rule] = append(failed[f.Rule], f)
		} else {
			fmt.Fprintln(&out, FindingLine(f))
		}
	}
	ids := make([]string, 0, len(failed))
	for id := range failed {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	// The rules with no error are one testcase, "audit", which
	// passes: a testcase per rule would make a million files 75
	// million testcases.
	s.Cases = append(s.Cases, junitCase{Name: "audit", Classname: junitPackage, Time: "0.000"})
	for _, id := range ids {
		s.Cases = append(s.Cases, junitCase{Name: id, Classname: junitPackage, Time: "0.000", Failure: failure(failed[id])})
		s.Failures++
	}
	s.Tests = len(s.Cases)
	s.SystemOut = out.String()
	return s
}

// failure is a rule's testcase failure: the first finding's message, and
// every finding a line.
func failure(fs []audit.Finding) *junitProblem {
	var text strings.Builder
	for _, f := range fs {
		fmt.Fprintln(&text, FindingLine(f))
	}
	msg := fs[0].Message
	if len(fs) > 1 {
		msg = fmt.Sprintf("%s (and %d more)", msg, len(fs)-1)
	}
	return &junitProblem{Type: fs[0].Rule, Message: msg, Text: text.String()}
}
