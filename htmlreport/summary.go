package htmlreport

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/webcap/webcap/audit"
)

// summary is what the report's first section counts, in one pass over
// the results.
type summary struct {
	Files, Sets, Findings int
	Recorded              int    // files whose sets audit recorded (--sets)
	Status                [4]int // by audit.Status
	Severity              [3]int // by audit.Severity: Notice, Caution, Serious
	rules                 map[ruleKey]*RuleCount
	years                 map[string]int // sets by the year of /TS
	versions              map[string]int // files by SpiderInfo /V
	First, Last           string         // the earliest and latest /TS
}

type ruleKey struct {
	rule string
	sev  audit.Severity
}

// A RuleCount is the findings of one rule and severity.
type RuleCount struct {
	Rule     string
	Severity string
	Findings int
	Files    int
}

func newSummary() *summary {
	return &summary{rules: map[ruleKey]*RuleCount{}, years: map[string]int{}, versions: map[string]int{}}
}

func (s *summary) add(f entry) {
	s.Files++
	s.Status[f.status]++
	for _, x := range f.counts { // one per rule and severity
		s.Findings += x.N
		if x.Severity >= 0 && int(x.Severity) < len(s.Severity) {
			s.Severity[x.Severity] += x.N
		}
		k := ruleKey{x.Rule, x.Severity}
		c := s.rules[k]
		if c == nil {
			c = &RuleCount{Rule: text(x.Rule), Severity: x.Severity.String()}
			s.rules[k] = c
		}
		c.Findings += x.N
		c.Files++
	}
	switch {
	case f.Capture == nil && f.Result.Error != nil:
		s.versions["(not read)"]++
	case f.Capture == nil:
		s.versions["(not recorded)"]++
	case f.Capture.Version == "":
		s.versions["(no SpiderInfo /V)"]++
	default:
		s.versions[text(f.Capture.Version)]++
	}
	if f.Capture == nil {
		return
	}
	s.Recorded++
	s.Sets += len(f.Capture.Sets) + f.Capture.More
	for _, set := range f.Capture.Sets {
		if len(set.Created) < 4 {
			continue
		}
		s.years[text(set.Created[:4])]++
		if s.First == "" || set.Created < s.First {
			s.First = set.Created
		}
		if set.Created > s.Last {
			s.Last = set.Created
		}
	}
}

// Rules returns the findings counted by rule and severity, most severe
// first, then by rule.
func (s *summary) Rules() []RuleCount {
	out := make([]RuleCount, 0, len(s.rules))
	keys := make([]ruleKey, 0, len(s.rules))
	for k := range s.rules {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b ruleKey) int {
		return cmp.Or(cmp.Compare(b.sev, a.sev), cmp.Compare(a.rule, b.rule)) // errors first
	})
	for _, k := range keys {
		out = append(out, *s.rules[k])
	}
	return out
}

// A Chart is a bar chart drawn in inline SVG, its numbers also in a table.
type Chart struct {
	ID      string
	Title   string
	Label   string // the column heading of the bars' labels
	Unit    string // what the values count
	Bars    []Bar
	Width   int
	Height  int
	Empty   string // said instead of the chart when it has no bars
	Caption string
	NoTable bool // its numbers are in a table of their own (the rules')
}

// A Bar is one bar of a chart, laid out.
type Bar struct {
	Label  string
	Value  int
	Class  string // a CSS class for its colour
	Y      int    // top of the bar
	TextY  int    // baseline of its text
	Length int    // in pixels
	Desc   string // the bar's words for a screen reader
}

const (
	chartLabel = 260 // the width of the labels' column
	chartBar   = 300 // the longest bar
	chartRow   = 22
)

func newChart(id, title, label, unit string, bars []Bar) Chart {
	c := Chart{ID: id, Title: title, Label: label, Unit: unit, Width: chartLabel + chartBar + 90}
	top := 0
	for _, b := range bars {
		top = max(top, b.Value)
	}
	for i, b := range bars {
		b.Y = i*chartRow + 4
		b.TextY = b.Y + 14
		if top > 0 {
			b.Length = max(1, b.Value*chartBar/top)
		}
		if b.Value == 0 {
			b.Length = 0
		}
		b.Desc = fmt.Sprintf("%s: %s", b.Label, plural(b.Value, unit))
		c.Bars = append(c.Bars, b)
	}
	c.Height = len(bars)*chartRow + 8
	return c
}

// charts are the summary's charts.
func (s *summary) charts() []Chart {
	names := [4]string{"Well-Formed and valid", "Well-Formed, but not valid", "Not well-formed", "Not checked"}
	classes := [4]string{"ok", "bad", "worst", "none"}
	var status []Bar
	for i, n := range names {
		status = append(status, Bar{Label: n, Value: s.Status[i], Class: classes[i]})
	}
	var rules []Bar
	for _, r := range s.Rules() {
		rules = append(rules, Bar{Label: r.Rule + " (" + r.Severity + ")", Value: r.Findings, Class: "sev-" + r.Severity})
	}
	const maxRules = 40
	var more int
	if len(rules) > maxRules {
		more = len(rules) - maxRules
		rules = rules[:maxRules]
	}
	var years []Bar
	for _, y := range sortedKeys(s.years) {
		years = append(years, Bar{Label: y, Value: s.years[y], Class: "date"})
	}
	var versions []Bar
	for _, v := range sortedKeys(s.versions) {
		versions = append(versions, Bar{Label: v, Value: s.versions[v], Class: "version"})
	}
	cs := []Chart{
		newChart("status", "Files by status (in JHOVE's words)", "Status", "file", status),
		newChart("rules", "Findings by rule and severity", "Rule (severity)", "finding", rules),
		newChart("dates", "Content sets by year of capture (/TS)", "Year", "content set", years),
		newChart("versions", "Files by Web Capture version (SpiderInfo /V)", "Version", "file", versions),
	}
	cs[1].Empty, cs[1].NoTable = "No findings.", true
	if more > 0 {
		cs[1].Caption = fmt.Sprintf("The %d rules with the most severe findings; %d more in the table of rules below.", maxRules, more)
	}
	cs[2].Empty = "No content set has a valid capture date."
	if s.First != "" {
		cs[2].Caption = "From " + text(s.First) + " to " + text(s.Last) + "."
	}
	return cs
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// plural says n things: "1 file", "2 files", "1,000 files".
func plural(n int, thing string) string {
	s := thousands(n) + " " + thing
	if n != 1 {
		s += "s"
	}
	return s
}

// thousands writes n with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}
