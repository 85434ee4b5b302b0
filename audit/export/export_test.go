package export

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// The oracles are published schemas, vendored in testdata/schemas with
// their provenance (PROVENANCE.tsv), and xmllint (libxml2), not our code.

var opts = Options{Version: "v1.2.3", Time: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC), Hostname: "host"}

// results audits pdfbuild's capture, damaged and rawbytes (bytes that are
// not UTF-8) samples and a file that is not a PDF, and adds a file with damaged syntax (WC-PDF-XREF) and one
// that could not be read.
func results(t *testing.T) []audit.FileResult {
	t.Helper()
	dir := t.TempDir()
	var out []audit.FileResult
	for _, name := range []string{"capture", "damaged", "notapdf", "rawbytes"} {
		b := []byte("hello\n")
		if name != "notapdf" {
			var err error
			if b, err = pdfbuild.Sample(name); err != nil {
				t.Fatal(err)
			}
		}
		path := filepath.Join(dir, name+".pdf")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		r := audit.FileResult{Input: name + ".pdf", Size: int64(len(b))}
		d, err := pdfio.Open(path, pdfio.Options{})
		if err != nil {
			r.Error = &audit.FileError{Message: err.Error(), Kind: audit.Invalid}
		} else {
			r.Findings = audit.Check(d, audit.Options{})
		}
		out = append(out, r)
	}
	out = append(out,
		audit.FileResult{Input: "dir/broken & <odd> \"name\".pdf", Size: 1234, SHA256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", Findings: []audit.Finding{
			{Rule: "WC-PDF-XREF", Severity: audit.Serious, Message: "startxref reaches no xref", Spec: "PDF 1.7 §3.4.3"},
			{Rule: "WC-NEW-RULE", Severity: audit.Serious, Object: webcapture.Ref{Num: 3}, Key: "/X", Message: "a rule of a newer webcap", Spec: "webcap"},
		}},
		audit.FileResult{Input: "gone.pdf", Error: &audit.FileError{Message: "open gone.pdf: permission denied", Kind: audit.Unavailable}})
	return out
}

func TestResultsStatus(t *testing.T) {
	want := []audit.Status{audit.Valid, audit.NotValid, audit.NotWellFormed, audit.NotValid, audit.NotWellFormed, audit.Unchecked}
	for i, r := range results(t) {
		if got := r.Status(); got != want[i] {
			t.Errorf("%s: Status() = %q, want %q", r.Input, got, want[i])
		}
	}
}

func write(t *testing.T, f Format, rs []audit.FileResult) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, f, Slice(rs), opts); err != nil {
		t.Fatalf("Write(%v): %v", f, err)
	}
	return b.Bytes()
}

func xmllint(t *testing.T, xsd string, doc []byte) {
	t.Helper()
	if _, err := exec.LookPath("xmllint"); err != nil {
		t.Skip("xmllint not installed (Debian: libxml2-utils)")
	}
	path := filepath.Join(t.TempDir(), "out.xml")
	if err := os.WriteFile(path, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("xmllint", "--noout", "--nonet", "--schema", filepath.Join("testdata", "schemas", xsd), path).CombinedOutput()
	if err != nil {
		t.Errorf("xmllint --schema %s: %v\n%s\n%s", xsd, err, out, doc)
	}
}

func TestJUnitSchemas(t *testing.T) {
	doc := write(t, JUnit, results(t))
	for _, xsd := range []string{"JUnit.xsd", "junit-10.xsd"} {
		t.Run(xsd, func(t *testing.T) { xmllint(t, xsd, doc) })
	}
	for _, want := range []string{`<property name="status" value="Well-Formed and valid">`, `<failure type="WC-TREE-ORDER"`, `<error type="unavailable" message="open gone.pdf: permission denied">`, `<error type="invalid"`} {
		if !bytes.Contains(doc, []byte(want)) {
			t.Errorf("JUnit output has no %s", want)
		}
	}
}

func TestPREMISSchema(t *testing.T) {
	doc := write(t, PREMIS, results(t))
	xmllint(t, "premis-v3-0.xsd", doc)
	if !bytes.Contains(doc, []byte("<messageDigestAlgorithm>SHA-256</messageDigestAlgorithm>")) {
		t.Error("PREMIS output has no fixity for the file with a SHA-256")
	}
	var p struct {
		Events []struct {
			Type    string   `xml:"eventType"`
			Outcome string   `xml:"eventOutcomeInformation>eventOutcome"`
			Notes   []string `xml:"eventOutcomeInformation>eventOutcomeDetail>eventOutcomeDetailNote"`
			Agent   string   `xml:"linkingAgentIdentifier>linkingAgentIdentifierValue"`
		} `xml:"event"`
		Agent string `xml:"agent>agentIdentifier>agentIdentifierValue"`
	}
	if err := xml.Unmarshal(doc, &p); err != nil {
		t.Fatal(err)
	}
	want := []string{"pass", "partial pass", "fail", "partial pass", "fail", "fail"}
	if len(p.Events) != len(want) {
		t.Fatalf("%d events, want %d", len(p.Events), len(want))
	}
	for i, e := range p.Events {
		if e.Type != "validation" || e.Outcome != want[i] || e.Agent != "webcap-v1.2.3" || e.Agent != p.Agent || len(e.Notes) == 0 {
			t.Errorf("event %d: %+v, want a validation event, outcome %q, agent %q", i, e, want[i], p.Agent)
		}
	}
}

func TestSARIFSchema(t *testing.T) {
	f, err := os.Open("testdata/schemas/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	schema, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif.json", schema); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif.json")
	if err != nil {
		t.Fatal(err)
	}
	// The schema is the oracle only if it rejects something.
	bad, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"version": "2.0.0", "runs": []}`))
	if sch.Validate(bad) == nil {
		t.Fatal("the SARIF schema accepts version 2.0.0")
	}
	doc := write(t, SARIF, results(t))
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(v); err != nil {
		t.Errorf("SARIF output does not validate: %v\n%s", err, doc)
	}
	if !bytes.Contains(doc, []byte(`"ruleId":"WC-TREE-ORDER"`)) || !bytes.Contains(doc, []byte(`"executionSuccessful":false`)) {
		t.Errorf("SARIF output lacks a WC-TREE-ORDER result or the failed execution:\n%s", doc)
	}
}

// TestArchivematica checks each line against the FPR contract: strings
// only (JSON and a Python literal alike), an outcome of pass, partial pass
// or fail; and with check_fpr_output.py (json.loads and ast.literal_eval)
// when python3 is there.
func TestArchivematica(t *testing.T) {
	rs := results(t)
	doc := write(t, Archivematica, rs)
	lines := strings.Split(strings.TrimSuffix(string(doc), "\n"), "\n")
	if len(lines) != len(rs) {
		t.Fatalf("%d lines for %d files", len(lines), len(rs))
	}
	want := []string{"pass", "partial pass", "fail", "partial pass", "fail", "fail"}
	var paths []string
	for i, line := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		for k, v := range m {
			if _, ok := v.(string); !ok {
				t.Errorf("line %d: %s is %T, want a string (ast.literal_eval reads no true, false or null)", i, k, v)
			}
		}
		if m["eventOutcomeInformation"] != want[i] || !strings.Contains(m["eventOutcomeDetailNote"].(string), `result="`) {
			t.Errorf("line %d = %s, want outcome %q and a result", i, line, want[i])
		}
		path := filepath.Join(t.TempDir(), "out.json")
		if err := os.WriteFile(path, []byte(line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed: check_fpr_output.py not run")
	}
	if out, err := exec.Command(py, append([]string{"testdata/schemas/check_fpr_output.py"}, paths...)...).CombinedOutput(); err != nil {
		t.Errorf("check_fpr_output.py: %v\n%s", err, out)
	}
}

// xmlPaths is every element path and attribute (path@name) in an XML
// document.
func xmlPaths(t *testing.T, doc []byte) map[string]bool {
	t.Helper()
	paths := map[string]bool{}
	var stack []string
	d := xml.NewDecoder(bytes.NewReader(doc))
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return paths
		} else if err != nil {
			t.Fatal(err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			stack = append(stack, el.Name.Local)
			p := strings.Join(stack, "/")
			paths[p] = true
			for _, a := range el.Attr {
				paths[p+"@"+a.Name.Local] = true
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
}

// mrrDocumented are the MRR elements veraPDF-library's JAXB classes write
// that no vendored example shows (shared/schemas/verapdf/README.md, from
// processor/reports/*Impl.java at ebd47170): jobEndStatus, a rule's tags,
// a check's errorMessage, taskException, logs.
var mrrDocumented = []string{
	"report/jobs/job/validationReport@jobEndStatus",
	"report/jobs/job/validationReport/details/rule@tags",
	"report/jobs/job/validationReport/details/rule/check/errorMessage",
	"report/jobs/job/taskException", "report/jobs/job/taskException@type", "report/jobs/job/taskException@isExecuted",
	"report/jobs/job/taskException@isSuccess", "report/jobs/job/taskException/exceptionMessage",
	"report/jobs/job/logs", "report/jobs/job/logs@logsCount", "report/jobs/job/logs/logMessage",
	"report/jobs/job/logs/logMessage@occurrences", "report/jobs/job/logs/logMessage@level",
}

// TestVeraPDFStructure: veraPDF publishes no schema of its report, so
// every element and attribute webcap writes must be one the real reports
// in testdata/schemas/verapdf/examples have, or one veraPDF's code writes
// (mrrDocumented); and the values must be of veraPDF's types.
func TestVeraPDFStructure(t *testing.T) {
	known := map[string]bool{}
	examples, _ := filepath.Glob("testdata/schemas/verapdf/examples/*.xml")
	if len(examples) != 3 {
		t.Fatalf("%d veraPDF examples, want 3", len(examples))
	}
	for _, ex := range examples {
		b, err := os.ReadFile(ex)
		if err != nil {
			t.Fatal(err)
		}
		for p := range xmlPaths(t, b) {
			known[p] = true
		}
	}
	for _, p := range mrrDocumented {
		known[p] = true
	}
	doc := write(t, VeraPDF, results(t))
	var unknown []string
	for p := range xmlPaths(t, doc) {
		if !known[p] {
			unknown = append(unknown, p)
		}
	}
	sort.Strings(unknown)
	if len(unknown) > 0 {
		t.Errorf("elements and attributes no veraPDF report has: %s", strings.Join(unknown, ", "))
	}
	var rep mrrReport
	if err := xml.Unmarshal(doc, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Jobs) != 6 || rep.Summary.TotalJobs != 6 || rep.Summary.FailedToParse != 2 {
		t.Fatalf("jobs %d, totalJobs %d, failedToParse %d; want 6, 6, 2", len(rep.Jobs), rep.Summary.TotalJobs, rep.Summary.FailedToParse)
	}
	compliant := []bool{true, false, false, false, false, false}
	for i, j := range rep.Jobs {
		if j.Report == nil {
			if j.Exception == nil {
				t.Errorf("job %d: neither validationReport nor taskException", i)
			}
			continue
		}
		if j.Report.IsCompliant != compliant[i] {
			t.Errorf("job %d: isCompliant %v, want %v", i, j.Report.IsCompliant, compliant[i])
		}
		for _, r := range j.Report.Details.Rules {
			if r.Specification == "" || r.Clause == "" || r.TestNumber < 1 || r.Status != "failed" || len(r.Checks) != r.FailedChecks {
				t.Errorf("job %d: rule %+v", i, r)
			}
		}
	}
}

func TestRuleClause(t *testing.T) {
	for _, tc := range []struct{ spec, id, wantSpec, wantClause string }{
		{"ISO 32000-1 Table 352", "A", "ISO 32000-1:2008", "Table 352"},
		{"PDF 1.7 §3.8.5, Table 3.33", "A", "PDF Reference 1.7", "3.8.5"},
		{"PDF 1.7 §3.4.3; ISO 32000-1 §7.5.4", "A", "ISO 32000-1:2008", "7.5.4"},
		{"PDF 1.7 §10.9.2 URL Strings", "A", "PDF Reference 1.7", "10.9.2"},
		{"ISO 32000-2 §14.10.1", "A", "ISO 32000-2:2020", "14.10.1"},
		{"ISO 32000-1 Tables 350-359", "A", "ISO 32000-1:2008", "Tables 350-359"},
		{"webcap", "WC-LIMIT", "webcap", "WC-LIMIT"},
	} {
		s, c := ruleClause(tc.spec, tc.id)
		if s != tc.wantSpec || c != tc.wantClause {
			t.Errorf("ruleClause(%q) = %q, %q, want %q, %q", tc.spec, s, c, tc.wantSpec, tc.wantClause)
		}
	}
	seen := map[clause]string{}
	for id, c := range clauses() {
		if other, ok := seen[c]; ok {
			t.Errorf("rules %s and %s have the same clause and test number %+v", id, other, c)
		}
		seen[c] = id
	}
}

func TestMergeAndTally(t *testing.T) {
	a := audit.FileResult{Input: "a", Findings: []audit.Finding{{Rule: "WC-X", Severity: audit.Caution}}}
	b := audit.FileResult{Input: "b"}
	a2 := audit.FileResult{Input: "a", Findings: []audit.Finding{{Rule: "WC-Y", Severity: audit.Serious}, {Rule: "WC-Y", Severity: audit.Serious}}}
	all := []audit.FileResult{a, b, a2}
	keep, dups := Merge(len(all), func(i int) string { return all[i].Input })
	if dups != 1 || len(keep) != 2 || keep[0] != 2 || keep[1] != 1 {
		t.Fatalf("Merge = %v, %d; want [2 1] (a's last result in its first place, then b) and 1 duplicate", keep, dups)
	}
	tally := Tally(Slice{a, b, a2})
	if len(tally) != 2 || tally[0] != (RuleCount{"WC-Y", audit.Serious, 2, 1}) || tally[1] != (RuleCount{"WC-X", audit.Caution, 1, 1}) {
		t.Errorf("Tally = %+v", tally)
	}
}

// streamed is Results that are also Streamed.
type streamed struct{ Slice }

func (s streamed) Head(i int) (audit.FileResult, audit.Status, []Count) {
	r := s.Slice[i]
	status := r.Status()
	r.Findings = nil
	return r, status, CountsOf(s.Slice[i].Findings)
}

func (s streamed) EachFinding(i int, fn func(audit.Finding) error) error {
	for _, f := range s.Slice[i].Findings {
		if err := fn(f); err != nil {
			return err
		}
	}
	return nil
}

// Every format writes Streamed results as it writes them held.
func TestStreamed(t *testing.T) {
	rs := results(t)
	for _, f := range []Format{VeraPDF, PREMIS, Archivematica, SARIF, JUnit} {
		var held, stream bytes.Buffer
		if err := Write(&held, f, Slice(rs), opts); err != nil {
			t.Fatal(err)
		}
		if err := Write(&stream, f, streamed{Slice(rs)}, opts); err != nil {
			t.Fatal(err)
		}
		if held.String() != stream.String() {
			t.Errorf("%v: Streamed results written differently (%d bytes, held %d)", f, stream.Len(), held.Len())
		}
	}
}

var _ Streamed = streamed{}
