package export

import (
	"fmt"
	"io"

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
	x := &xmlw{w: w, enc: enc}
	for i := range results.Len() {
		writeJUnitSuite(x, i, fileAt(results, i), host, opts)
		if x.err != nil {
			return x.err
		}
	}
	return xmlEnd(w, enc, "testsuites")
}

// writeJUnitSuite writes the testsuite of the i-th file, r (junitSuite),
// its findings read once for each rule with errors (as far as its last)
// and once for system-out.
func writeJUnitSuite(x *xmlw, i int, r file, host string, opts Options) {
	failed := r.failed()
	tests, failures, errs := 1+len(failed), len(failed), 0
	if r.Error != nil {
		tests, failures, errs = 1, 0, 1
	}
	x.open("testsuite", attr("package", junitPackage), intAttr("id", i), attr("name", r.Input),
		attr("timestamp", opts.time().Format("2006-01-02T15:04:05")), attr("hostname", host), intAttr("tests", tests),
		intAttr("failures", failures), intAttr("errors", errs), intAttr("skipped", 0), attr("time", "0.000"))
	x.open("properties")
	x.elem(junitProperty{"status", r.status.String()}, "property")
	x.elem(junitProperty{"program", opts.tool() + " " + opts.version()}, "property")
	x.close("properties")
	if r.Error != nil {
		kind := "invalid"
		if r.Error.Operational() {
			kind = "unavailable"
		}
		x.elem(junitCase{Name: "read", Classname: junitPackage, Time: "0.000",
			Error: &junitProblem{Type: kind, Message: r.Error.Message, Text: r.Error.Message}}, "testcase")
		x.elem("", "system-out")
		x.elem("", "system-err")
		x.close("testsuite")
		return
	}
	// The rules with no error are one testcase, "audit", which
	// passes: a testcase per rule would make a million files 75
	// million testcases.
	x.elem(junitCase{Name: "audit", Classname: junitPackage, Time: "0.000"}, "testcase")
	for _, c := range failed {
		writeJUnitFailure(x, r, c)
	}
	x.open("system-out")
	err := r.each(func(f audit.Finding) error {
		if f.Severity != audit.Serious {
			x.text(FindingLine(f) + "\n")
		}
		return x.err
	})
	if x.err == nil {
		x.err = err
	}
	x.close("system-out")
	x.elem("", "system-err")
	x.close("testsuite")
}

// writeJUnitFailure writes the testcase of rule c, failed: the first
// finding's message, and every finding a line.
func writeJUnitFailure(x *xmlw, r file, c Count) {
	n := 0
	err := r.eachOf(c, func(f audit.Finding) error {
		if n == 0 {
			msg := f.Message
			if c.N > 1 {
				msg = fmt.Sprintf("%s (and %d more)", msg, c.N-1)
			}
			x.open("testcase", attr("name", c.Rule), attr("classname", junitPackage), attr("time", "0.000"))
			x.open("failure", attr("type", c.Rule), attr("message", msg))
		}
		n++
		x.text(FindingLine(f) + "\n")
		return x.err
	})
	if n > 0 {
		x.close("failure")
		x.close("testcase")
	}
	if x.err == nil {
		x.err = err
	}
}
