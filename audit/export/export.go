package export

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/webcap/webcap/audit"
)

// Format is an output format.
type Format int

// The formats.
const (
	VeraPDF Format = iota
	PREMIS
	Archivematica
	SARIF
	JUnit
)

var formatNames = []string{"verapdf", "premis", "archivematica", "sarif", "junit"}

// String returns the format's name as the command line spells it.
func (f Format) String() string { return formatNames[f] }

// ParseFormat returns the format called name.
func ParseFormat(name string) (Format, error) {
	for i, n := range formatNames {
		if n == name {
			return Format(i), nil
		}
	}
	return 0, fmt.Errorf("unknown format %q (want one of %s)", name, strings.Join(formatNames, ", "))
}

// Formats lists the format names.
func Formats() []string { return append([]string(nil), formatNames...) }

// Options are what a report says of the run rather than of the files.
type Options struct {
	Tool     string    // the program's name: "webcap" if empty
	Version  string    // the program's version
	Time     time.Time // when the audit ran (PREMIS eventDateTime, JUnit timestamp); zero: the Unix epoch
	Hostname string    // JUnit hostname; "localhost" if empty
}

func (o Options) tool() string {
	if o.Tool == "" {
		return "webcap"
	}
	return o.Tool
}

func (o Options) version() string {
	if o.Version == "" {
		return "(devel)"
	}
	return o.Version
}

func (o Options) time() time.Time {
	if o.Time.IsZero() {
		return time.Unix(0, 0).UTC()
	}
	return o.Time.UTC()
}

// Results are the files' results a report is made of, read by index, as
// many times as a format needs (PREMIS reads them twice: the objects, then
// the events). A caller keeps them in any form (a slice, lines of JSON)
// and hands out one at a time: the formats are written as they are read,
// so that a report of a million files is never whole in memory.
type Results interface {
	Len() int
	At(i int) audit.FileResult
}

// Streamed is what Results may also be: a file's result without its
// findings, with their counts, and the findings read one at a time, as
// often as a format needs. Every format writes Streamed results a finding
// at a time, holding only the counts (what a format says before the
// findings: a JUnit testsuite's failures, veraPDF's failed rules), so that
// a file of millions of findings (audit/batch.Spool) is never whole in
// memory.
type Streamed interface {
	// Head is the i-th result without its findings, its status, and its
	// findings counted by rule and severity (CountsOf).
	Head(i int) (audit.FileResult, audit.Status, []Count)
	// EachFinding calls fn with each of the i-th file's findings, in
	// At's order, until fn's first error, which it returns.
	EachFinding(i int, fn func(audit.Finding) error) error
}

// A Count is how many of a file's findings are of a rule at a severity.
type Count struct {
	Rule     string
	Severity audit.Severity
	N        int
}

// CountsOf counts findings by rule and severity, in the order each was
// first found.
func CountsOf(findings []audit.Finding) []Count {
	var out []Count
	at := map[Count]int{}
	for _, f := range findings {
		k := Count{Rule: f.Rule, Severity: f.Severity}
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, k)
		}
		out[i].N++
	}
	return out
}

// file is a result as the formats write it: without its findings, which
// each reads (as often as it needs), and with their counts.
type file struct {
	audit.FileResult // Findings: nil
	status           audit.Status
	counts           []Count
	each             func(fn func(audit.Finding) error) error
}

// fileAt is the i-th result.
func fileAt(results Results, i int) file {
	if st, ok := results.(Streamed); ok {
		r, status, counts := st.Head(i)
		r.Findings = nil
		return file{r, status, counts, func(fn func(audit.Finding) error) error { return st.EachFinding(i, fn) }}
	}
	return fileOf(results.At(i))
}

// fileOf is r as the formats write it.
func fileOf(r audit.FileResult) file {
	found := r.Findings
	status := r.Status()
	r.Findings = nil
	return file{r, status, CountsOf(found), func(fn func(audit.Finding) error) error {
		for _, f := range found {
			if err := fn(f); err != nil {
				return err
			}
		}
		return nil
	}}
}

// bySeverity are the file's findings by severity.
func (f file) bySeverity() (errs, warns, infos int) {
	for _, c := range f.counts {
		switch c.Severity {
		case audit.Serious:
			errs += c.N
		case audit.Caution:
			warns += c.N
		default:
			infos += c.N
		}
	}
	return
}

// failed is each rule with error findings and how many, by rule ID.
func (f file) failed() []Count {
	var out []Count
	for _, c := range f.counts {
		if c.Severity == audit.Serious {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Rule < out[j].Rule })
	return out
}

// errStop ends a reading of the findings early.
var errStop = errors.New("export: stop")

// eachOf calls fn with each of the file's error findings of c's rule (c.N
// of them), reading no further than the last.
func (f file) eachOf(c Count, fn func(audit.Finding) error) error {
	n := 0
	err := f.each(func(x audit.Finding) error {
		if x.Severity != c.Severity || x.Rule != c.Rule {
			return nil
		}
		n++
		if err := fn(x); err != nil {
			return err
		}
		if n == c.N {
			return errStop
		}
		return nil
	})
	if errors.Is(err, errStop) {
		return nil
	}
	return err
}

// Slice is Results held in a slice.
type Slice []audit.FileResult

// Len returns the number of results.
func (s Slice) Len() int { return len(s) }

// At returns the i-th result.
func (s Slice) At(i int) audit.FileResult { return s[i] }

// Write writes results to w in format f.
func Write(w io.Writer, f Format, results Results, opts Options) error {
	switch f {
	case VeraPDF:
		return writeVeraPDF(w, results, opts)
	case PREMIS:
		return writePREMIS(w, results, opts)
	case Archivematica:
		return writeArchivematica(w, results)
	case SARIF:
		return writeSARIF(w, results, opts)
	case JUnit:
		return writeJUnit(w, results, opts)
	}
	return fmt.Errorf("unknown format %d", f)
}

// xmlDoc starts an XML document: the declaration, then the root element
// start (whose end the caller encodes), with an indenting encoder.
func xmlDoc(w io.Writer, root xml.StartElement) (*xml.Encoder, error) {
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return nil, err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	return enc, enc.EncodeToken(root)
}

// xmlEnd ends the element named name, then the document.
func xmlEnd(w io.Writer, enc *xml.Encoder, name string) error {
	if err := enc.EncodeToken(xml.EndElement{Name: xml.Name{Local: name}}); err != nil {
		return err
	}
	if err := enc.Flush(); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// start is an element's start tag with no attribute.
func start(name string) xml.StartElement { return xml.StartElement{Name: xml.Name{Local: name}} }

// Outcome is a file's verdict as PREMIS eventOutcome and Archivematica's
// eventOutcomeInformation say it, from its JHOVE status as Archivematica's
// own JHOVE validation command maps it: "pass", "partial pass" or "fail".
func Outcome(s audit.Status) string {
	switch s {
	case audit.Valid:
		return "pass"
	case audit.NotValid:
		return "partial pass"
	}
	return "fail"
}

// A RuleCount is how often a rule was broken across files.
type RuleCount struct {
	Rule     string
	Severity audit.Severity
	Findings int // findings of the rule
	Files    int // files with at least one
}

// Tally counts findings by rule, most severe first, then by rule ID.
func Tally(results Results) []RuleCount {
	byRule := map[string]*RuleCount{}
	for i := range results.Len() {
		seen := map[string]bool{}
		for _, x := range fileAt(results, i).counts {
			c := byRule[x.Rule]
			if c == nil {
				c = &RuleCount{Rule: x.Rule, Severity: x.Severity}
				byRule[x.Rule] = c
			}
			c.Severity = max(c.Severity, x.Severity)
			c.Findings += x.N
			if !seen[x.Rule] {
				seen[x.Rule] = true
				c.Files++
			}
		}
	}
	out := make([]RuleCount, 0, len(byRule))
	for _, c := range byRule {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Severity != out[j].Severity {
			return out[i].Severity > out[j].Severity
		}
		return out[i].Rule < out[j].Rule
	})
	return out
}

// Merge decides which of n results to keep when the same input comes more
// than once (the same file in two shards, or a shard resumed): the last
// result of each input wins, in the place of its first. input(i) is the
// i-th result's input; keep lists the results kept, in order, and dups
// counts those replaced. It works on indices so that a caller keeps its
// results in any form.
func Merge(n int, input func(i int) string) (keep []int, dups int) {
	slot := make(map[string]int, n)
	for i := range n {
		in := input(i)
		if j, ok := slot[in]; ok {
			keep[j] = i
			dups++
			continue
		}
		slot[in] = len(keep)
		keep = append(keep, i)
	}
	return keep, dups
}

// A clause is where a rule comes from, as veraPDF names it: the
// specification and its clause (a section or a table).
type clause struct {
	Specification string
	Clause        string
	TestNumber    int // the rule's rank among the rules of the same clause, from 1, in audit.Rules order
}

// specNames maps the prefixes of audit.Rule.Spec to the specification's
// name veraPDF-style (with its year, as "ISO 19005-1:2005").
var specNames = []struct{ prefix, name string }{
	{"ISO 32000-1", "ISO 32000-1:2008"},
	{"ISO 32000-2", "ISO 32000-2:2020"},
	{"PDF 1.7", "PDF Reference 1.7"},
	{"RFC 2396", "RFC 2396"},
}

// ruleClause reads a rule's Spec: the ISO 32000-1 part when there is one
// (the standard), else the first part; the clause is its first section or
// table, without "§" and the words after a section number. A rule from no
// specification ("webcap": the reader's own bounds) is specification
// "webcap", clause its ID.
func ruleClause(spec, id string) (specification, cl string) {
	parts := strings.Split(spec, ";")
	pick := strings.TrimSpace(parts[0])
	for _, p := range parts {
		if p = strings.TrimSpace(p); strings.HasPrefix(p, "ISO 32000-1") {
			pick = p
			break
		}
	}
	for _, s := range specNames {
		if rest, ok := strings.CutPrefix(pick, s.prefix); ok {
			first, _, _ := strings.Cut(strings.TrimSpace(rest), ",")
			if sec, ok := strings.CutPrefix(first, "§"); ok {
				first, _, _ = strings.Cut(sec, " ")
			}
			if first == "" {
				first = "§"
			}
			return s.name, first
		}
	}
	return "webcap", id
}

// clauses is every rule's clause, numbered.
func clauses() map[string]clause {
	out := map[string]clause{}
	n := map[[2]string]int{}
	for _, r := range audit.Rules {
		s, c := ruleClause(r.Spec, r.ID)
		k := [2]string{s, c}
		n[k]++
		out[r.ID] = clause{s, c, n[k]}
	}
	return out
}

// clauseOf is a rule's clause; a rule this build does not know (from a
// newer webcap's results) is specification "webcap", clause its ID.
func clauseOf(all map[string]clause, id string) clause {
	if c, ok := all[id]; ok {
		return c
	}
	return clause{"webcap", id, 1}
}

// where is a finding's place in words: "object 12 0 R /ID", "file".
func where(f audit.Finding) string {
	w := "file"
	if !f.Object.IsZero() {
		w = "object " + f.Object.String()
	}
	if f.Key != "" {
		w += " " + f.Key
	}
	return w
}
