package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// runText runs webcap with args and returns its stdout; the exit status must
// be want.
func runText(t *testing.T, want int, args ...string) string {
	t.Helper()
	ios, _, stdout, stderr := Test()
	if code := Main(context.Background(), args, ios); code != want {
		t.Fatalf("webcap %q: exit %d, want %d\n%s", args, code, want, stderr)
	}
	return stdout.String()
}

// countLines counts, by the group its first submatch names, the lines
// matching line, and adds the counts of the lines matching more (group,
// then count).
func countLines(text string, line, more *regexp.Regexp) (shown, hidden map[string]int) {
	shown, hidden = map[string]int{}, map[string]int{}
	for _, l := range strings.Split(text, "\n") {
		if m := more.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[2])
			hidden[m[1]] += n
		} else if m := line.FindStringSubmatch(l); m != nil {
			shown[m[1]]++
		}
	}
	return shown, hidden
}

// The text of audit, fix and info shows the first perRule lines of each
// rule, then a line per rule counting the rest, which with those shown
// makes every finding of --json (and of --verbose); the text is the same
// on every run.
func TestTextOutputSummarised(t *testing.T) {
	dir := t.TempDir()
	in, big := filepath.Join(dir, "broken.pdf"), filepath.Join(dir, "big.pdf")
	if err := os.WriteFile(in, pdfbuild.BigBroken(1500, false), 0o644); err != nil {
		t.Fatal(err)
	}
	// Enough sets for more than perRule duplicate keys, a defect info lists.
	if err := os.WriteFile(big, pdfbuild.BigBroken(4000, false), 0o644); err != nil {
		t.Fatal(err)
	}

	text := runText(t, 1, "audit", "--in-process", in)
	if again := runText(t, 1, "audit", "--in-process", in); again != text {
		t.Error("audit's text differs between two runs")
	}
	var doc struct {
		Files []struct {
			Findings []struct{ Rule, Severity string }
		}
	}
	if err := json.Unmarshal([]byte(runText(t, 1, "audit", "--in-process", "--json", in)), &doc); err != nil {
		t.Fatal(err)
	}
	all := map[string]int{}
	for _, f := range doc.Files[0].Findings {
		all[f.Severity+" "+f.Rule]++
	}
	name := regexp.QuoteMeta(in)
	shown, hidden := countLines(text,
		regexp.MustCompile(`^`+name+`: (\w+ WC-[A-Z-]+) (?:object|file)`),
		regexp.MustCompile(`^`+name+`: (\w+ WC-[A-Z-]+): (\d+) more not shown \(--verbose or --json lists every finding\)$`))
	checkCounts(t, "audit", all, shown, hidden)
	verbose, _ := countLines(runText(t, 1, "audit", "--in-process", "--verbose", in),
		regexp.MustCompile(`^`+name+`: (\w+ WC-[A-Z-]+) (?:object|file)`), regexp.MustCompile(`^never (.)(\d)$`))
	if fmt.Sprint(verbose) != fmt.Sprint(all) {
		t.Errorf("audit --verbose shows %v, want every finding %v", verbose, all)
	}

	plan := runText(t, 0, "fix", "--dry-run", in)
	var fix struct{ Repairs []struct{ Rules []string } }
	if err := json.Unmarshal([]byte(runText(t, 0, "fix", "--dry-run", "--json", in)), &fix); err != nil {
		t.Fatal(err)
	}
	all = map[string]int{}
	for _, r := range fix.Repairs {
		all["fix: "+strings.Join(r.Rules, ",")]++
	}
	shown, hidden = countLines(plan, regexp.MustCompile(`^(fix: [A-Z,-]+)(?: object|:) `),
		regexp.MustCompile(`^(fix: [A-Z,-]+): (\d+) more not shown \(--verbose or --json lists every one\)$`))
	checkCounts(t, "fix", all, shown, hidden)
	if n := strings.Count(runText(t, 0, "fix", "--dry-run", "-v", in), "\nfix: "); n != len(fix.Repairs)-1 && n != len(fix.Repairs) {
		t.Errorf("fix --dry-run -v shows %d repairs, want all %d", n, len(fix.Repairs))
	}

	info := runText(t, 0, "info", big)
	var doc2 struct{ Defects []struct{ Kind string } }
	if err := json.Unmarshal([]byte(runText(t, 0, "info", "--json", big)), &doc2); err != nil {
		t.Fatal(err)
	}
	all = map[string]int{}
	for _, d := range doc2.Defects {
		all[d.Kind]++
	}
	shown, hidden = countLines(info, regexp.MustCompile(`^  ([a-z-]+): (?:[^0-9]|\d+ [^m])`),
		regexp.MustCompile(`^  ([a-z-]+): (\d+) more not shown \(--verbose or --json lists every defect\)$`))
	checkCounts(t, "info", all, shown, hidden)
}

// checkCounts checks that each group shows min(perRule, all) lines and
// counts the rest, and that some group was cut (the input is meant to
// have more than perRule of one).
func checkCounts(t *testing.T, cmd string, all, shown, hidden map[string]int) {
	t.Helper()
	cut := false
	for g, n := range all {
		if shown[g] != min(n, perRule) || shown[g]+hidden[g] != n {
			t.Errorf("%s: %s: %d shown and %d counted, want %d shown of %d", cmd, g, shown[g], hidden[g], min(n, perRule), n)
		}
		cut = cut || n > perRule
	}
	for g := range shown {
		if all[g] == 0 {
			t.Errorf("%s: %s shown, not in --json", cmd, g)
		}
	}
	if !cut {
		t.Errorf("%s: no group has more than %d lines: %v", cmd, perRule, all)
	}
}
