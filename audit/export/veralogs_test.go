package export

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"hash/maphash"
	"testing"

	"github.com/webcap/webcap/audit"
)

// A file's log messages are listed once each, in the order first found,
// with their occurrences, at most max of them: the occurrences of the
// others are one message that says so (their counts are not held).
func TestVeraPDFLogsBounded(t *testing.T) {
	// Message i (a warning at object i+1) occurs i+1 times, the first
	// occurrences in order, then the repeats.
	var found []audit.Finding
	for i := range 5 {
		for range i + 1 {
			found = append(found, audit.Finding{Rule: "WC-X", Severity: audit.Caution, Message: fmt.Sprintf("message %d", i)})
		}
	}
	found = append(found, audit.Finding{Rule: "WC-Y", Severity: audit.Serious, Message: "an error: not a log message"})
	tests := []struct {
		max  int
		want []int // the occurrences listed; the last is the others' when fewer than 5 messages are listed
	}{
		{100, []int{1, 2, 3, 4, 5}},
		{5, []int{1, 2, 3, 4, 5}},
		{3, []int{1, 2, 3, 4 + 5}},
		{1, []int{1, 2 + 3 + 4 + 5}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.max), func(t *testing.T) {
			var buf bytes.Buffer
			x := &xmlw{w: &buf, enc: xml.NewEncoder(&buf)}
			writeMRRLogs(x, fileOf(audit.FileResult{Input: "a.pdf", Findings: found}), logSeeds{maphash.MakeSeed(), maphash.MakeSeed()}, tc.max)
			if x.err == nil {
				x.err = x.enc.Flush()
			}
			if x.err != nil {
				t.Fatal(x.err)
			}
			var logs mrrLogs
			if err := xml.Unmarshal(buf.Bytes(), &logs); err != nil {
				t.Fatalf("%v\n%s", err, buf.Bytes())
			}
			var got []int
			for i, m := range logs.Messages {
				got = append(got, m.Occurrences)
				if i < tc.max && m.Text != fmt.Sprintf("WC-X %s: message %d", where(found[0]), i) && m.Text != fmt.Sprintf("WC-X: message %d", i) {
					t.Errorf("message %d: %q", i, m.Text)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) || logs.Count != len(tc.want) {
				t.Errorf("logsCount %d, occurrences %v; want %d, %v", logs.Count, got, len(tc.want), tc.want)
			}
			if len(tc.want) < 5 {
				if last := logs.Messages[len(logs.Messages)-1].Text; last != fmt.Sprintf("webcap lists at most %d distinct log messages a file: the other messages' %d occurrences are not listed", tc.max, tc.want[len(tc.want)-1]) {
					t.Errorf("the last message: %q", last)
				}
			}
		})
	}
}
