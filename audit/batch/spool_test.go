package batch

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/webcapture"
)

// findings is n findings of three rules and severities, interleaved.
func findings(n int) []audit.Finding {
	rules := []struct {
		rule string
		sev  audit.Severity
	}{{"WC-URLS-SOURCE", audit.Caution}, {"WC-CS-ID", audit.Serious}, {"WC-PDF-XREF", audit.Serious}, {"WC-INFO", audit.Notice}}
	out := make([]audit.Finding, n)
	for i := range out {
		r := rules[i%len(rules)]
		out[i] = audit.Finding{Rule: r.rule, Severity: r.sev, Object: webcapture.Ref{Num: i % 7, Gen: i % 2},
			Key: "/K", Message: fmt.Sprintf("finding %d \"quoted\" \u00e9", i), Spec: "ISO 32000-1"}
	}
	return out
}

func TestSpool(t *testing.T) {
	for _, tc := range []struct {
		name    string
		n       int
		limit   int
		spilled bool
	}{
		{"none", 0, 0, false},
		{"held", 100, 0, false},
		{"at the limit", 10, 10, false},
		{"one past the limit", 11, 10, true},
		{"spilled", 1000, 10, true},
		{"never spilled", 1000, -1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "spool") // made when it spills
			in := findings(tc.n)
			s := &Spool{Dir: dir, Limit: tc.limit, First: 3}
			for _, f := range in {
				if err := s.Add(f); err != nil {
					t.Fatal(err)
				}
			}
			got, err := s.Close()
			if err != nil {
				t.Fatal(err)
			}
			if got.Spilled() != tc.spilled {
				t.Errorf("Spilled() = %v, want %v", got.Spilled(), tc.spilled)
			}
			want := sortLikeCheck(in) // the order audit.Check gives
			var back []audit.Finding
			if err := got.Each(func(f audit.Finding) error { back = append(back, f); return nil }); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, want) && len(want) > 0 {
				t.Errorf("Each gave %d findings, not the %d in Check's order", len(back), len(want))
			}
			if got.Len() != tc.n {
				t.Errorf("Len() = %d, want %d", got.Len(), tc.n)
			}
			checkSummary(t, got.Summary, in, 3)
			// A worker hands the findings on as JSON.
			b, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			var again Findings
			if err := json.Unmarshal(b, &again); err != nil {
				t.Fatal(err)
			}
			if again.Len() != got.Len() || again.Spilled() != got.Spilled() {
				t.Errorf("through JSON: %d findings (spilled %v), want %d (%v)", again.Len(), again.Spilled(), got.Len(), got.Spilled())
			}
			if err := got.Remove(); err != nil {
				t.Fatal(err)
			}
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Errorf("Remove left %d files", len(left))
			}
		})
	}
}

// sortLikeCheck is findings errors first, each severity in order.
func sortLikeCheck(in []audit.Finding) []audit.Finding {
	var out []audit.Finding
	for _, sev := range []audit.Severity{audit.Serious, audit.Caution, audit.Notice} {
		for _, f := range in {
			if f.Severity == sev {
				out = append(out, f)
			}
		}
	}
	return out
}

func checkSummary(t *testing.T, s Summary, in []audit.Finding, first int) {
	t.Helper()
	count := map[code]int{}
	var firsts []audit.Finding
	var errs, warns, infos int
	syntax := false
	for _, f := range in {
		c := code{f.Severity, f.Rule}
		count[c]++
		if count[c] <= first {
			firsts = append(firsts, f)
		}
		switch f.Severity {
		case audit.Serious:
			errs++
			syntax = syntax || audit.IsSyntaxRule(f.Rule)
		case audit.Caution:
			warns++
		default:
			infos++
		}
	}
	if s.Errors != errs || s.Warnings != warns || s.Infos != infos || s.Syntax != syntax {
		t.Errorf("Summary counts %d/%d/%d syntax %v, want %d/%d/%d %v", s.Errors, s.Warnings, s.Infos, s.Syntax, errs, warns, infos, syntax)
	}
	for _, c := range s.Codes {
		if count[code{c.Severity, c.Rule}] != c.Count {
			t.Errorf("Summary counts %d of %s %v, want %d", c.Count, c.Rule, c.Severity, count[code{c.Severity, c.Rule}])
		}
	}
	if len(s.Codes) != len(count) {
		t.Errorf("Summary has %d codes, want %d", len(s.Codes), len(count))
	}
	if !reflect.DeepEqual(s.First, firsts) && len(firsts) > 0 {
		t.Errorf("Summary.First = %d findings, want the first %d of each code (%d)", len(s.First), first, len(firsts))
	}
}

func TestSummaryStatus(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    Summary
		err  *audit.FileError
		want audit.Status
	}{
		{"clean", Summary{Warnings: 3}, nil, audit.Valid},
		{"an error", Summary{Errors: 1}, nil, audit.NotValid},
		{"a syntax error", Summary{Errors: 1, Syntax: true}, nil, audit.NotWellFormed},
		{"not read", Summary{}, &audit.FileError{Kind: audit.Invalid}, audit.NotWellFormed},
		{"not examined", Summary{}, &audit.FileError{Kind: audit.Unavailable}, audit.Unchecked},
	} {
		if got := tc.s.Status(tc.err); got != tc.want {
			t.Errorf("%s: Status = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestSpoolWriteError: a spool that cannot spill says so, from Add and
// from Close.
func TestSpoolWriteError(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s := &Spool{Dir: filepath.Join(file, "under"), Limit: 1} // a directory that cannot be made
	var err error
	for _, f := range findings(3) {
		if err = s.Add(f); err != nil {
			break
		}
	}
	if err == nil {
		t.Fatal("Add into a missing directory: no error")
	}
	found, cerr := s.Close()
	if cerr == nil {
		t.Error("Close after a failed Add: no error")
	}
	found.Remove()
}
