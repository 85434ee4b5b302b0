package htmlreport_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/audit/export"
	"github.com/webcap/webcap/htmlreport"
	"github.com/webcap/webcap/webcapture"
)

// streamed is a Slice that is also Streamed, and counts the findings it
// gives.
type streamed struct {
	htmlreport.Slice
	read *int
}

func (s streamed) Head(i int) (htmlreport.File, audit.Status, []export.Count) {
	f := s.Slice[i]
	status, counts := f.Result.Status(), export.CountsOf(f.Result.Findings)
	f.Result.Findings = nil
	return f, status, counts
}

func (s streamed) EachFinding(i int, fn func(audit.Finding) error) error {
	for _, f := range s.Slice[i].Result.Findings {
		*s.read++
		if err := fn(f); err != nil {
			return err
		}
	}
	return nil
}

// TestStreamed: Streamed results make the report held ones make, and of
// a file of more findings than it lists it reads no more than those.
func TestStreamed(t *testing.T) {
	files := synthetic(40)
	var many []audit.Finding
	for i := range 2500 {
		sev := []audit.Severity{audit.Serious, audit.Caution, audit.Notice}[i%3]
		many = append(many, audit.Finding{Rule: fmt.Sprintf("WC-R%d", i%7), Severity: sev, Object: webcapture.Ref{Num: i + 1},
			Message: fmt.Sprintf("finding %d", i), Spec: "x"})
	}
	files[7].Result.Findings = many
	files[9].Result.Findings = many[:3] // a file not valid
	opts := htmlreport.Options{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Generator: "webcap test"}
	_, held := writeReport(t, files, opts)
	read := 0
	_, got := writeReportOf(t, streamed{files, &read}, opts)
	if !bytes.Equal(got, held) {
		t.Errorf("the report of Streamed results differs from the report of the same held (%d bytes, %d)", len(got), len(held))
	}
	if want := htmlreport.MaxFindings + 3 + 8; read > want+1 {
		t.Errorf("the report read %d findings, want at most %d (the first MaxFindings of the file of 2,500)", read, want+1)
	}
}

func writeReportOf(t *testing.T, files htmlreport.Results, opts htmlreport.Options) (string, []byte) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "report.html")
	if _, err := htmlreport.Write(context.Background(), out, files, opts); err != nil {
		t.Fatalf("Write: %v", err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return out, b
}
