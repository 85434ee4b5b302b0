package cli

import (
	"fmt"
	"sort"
)

// The text output of audit, report, fix and info's defects list shows the
// first perRule lines of each rule (in each file), then one line per rule
// with the count of the rest: a file with two million broken keys made
// 746 MB of audit text and 502 MB of fix text, which no one reads and a
// log or a terminal chokes on. Ten lines show what a rule's damage looks
// like; --verbose shows every line, and --json, --jsonl and the export
// formats always hold every finding. The summary is deterministic: the
// lines shown are the first in the command's own order, and the counts
// follow, sorted by rule.

// perRule is how many lines of one rule the text output shows, per file.
const perRule = 10

// A ruleLimit decides which lines of one file's text output are shown.
type ruleLimit struct {
	all    bool // --verbose: every line
	shown  map[string]int
	hidden map[string]int
}

func newRuleLimit(all bool) *ruleLimit {
	return &ruleLimit{all: all, shown: map[string]int{}, hidden: map[string]int{}}
}

// show reports whether a line of rule (the group it is counted in) is
// shown, and counts it.
func (l *ruleLimit) show(rule string) bool {
	if l.all || l.shown[rule] < perRule {
		l.shown[rule]++
		return true
	}
	l.hidden[rule]++
	return false
}

// eachHidden calls f for each rule with lines not shown, sorted by rule,
// with their count: f writes the line that says so.
func (l *ruleLimit) eachHidden(f func(rule string, n int)) {
	rules := make([]string, 0, len(l.hidden))
	for r := range l.hidden {
		rules = append(rules, r)
	}
	sort.Strings(rules)
	for _, r := range rules {
		f(r, l.hidden[r])
	}
}

// notShown is the end of a line that counts what was not shown: n more
// of what, which --verbose or the command's JSON (jsonFlag) lists.
func notShown(n int, what, jsonFlag string) string {
	return fmt.Sprintf("%d more not shown (--verbose or %s lists every %s)", n, jsonFlag, what)
}
