package audit

import (
	"fmt"
	"sort"
	"strings"
)

// A Summary counts findings by severity and by rule: what a program that
// has just written a file says of it.
type Summary struct {
	Severities map[Severity]int // findings of each severity; absent when none
	Rules      map[string]int   // findings of each rule; absent when none

	severity map[string]Severity // each rule's severity, as its findings say
}

// Summarize counts findings.
func Summarize(findings []Finding) Summary {
	s := Summary{Severities: map[Severity]int{}, Rules: map[string]int{}, severity: map[string]Severity{}}
	for _, f := range findings {
		s.Severities[f.Severity]++
		s.Rules[f.Rule]++
		s.severity[f.Rule] = f.Severity
	}
	return s
}

// Count returns the number of findings of severity sev.
func (s Summary) Count(sev Severity) int { return s.Severities[sev] }

// RulesOf returns the rules that have findings of severity sev, each as
// "RULE (N)", in rule ID order.
func (s Summary) RulesOf(sev Severity) []string {
	var out []string
	for id, n := range s.Rules {
		if s.severity[id] == sev {
			out = append(out, fmt.Sprintf("%s (%d)", id, n))
		}
	}
	sort.Strings(out)
	return out
}

// String returns the verdict on the file: "audits with no error", or
// "errors remain: " and the rules with errors ("WC-IDS-KEY (1),
// WC-TREE-ORDER (2)").
func (s Summary) String() string {
	if s.Count(Serious) == 0 {
		return "audits with no error"
	}
	return "errors remain: " + strings.Join(s.RulesOf(Serious), ", ")
}
