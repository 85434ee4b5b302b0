package export

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/webcapture"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// goldenResults are results whose findings repeat: a rule's errors apart
// from each other, a warning message twice, a rule found at two
// severities, a rule this build does not know, and a file not read.
func goldenResults() Slice {
	obj := webcapture.Ref{Num: 7}
	return Slice{
		{Input: "a.pdf", Size: 100, SHA256: "ab", Findings: []audit.Finding{
			{Rule: "WC-TREE-ORDER", Severity: audit.Serious, Object: obj, Key: "/Names", Message: "first <out> of order", Spec: "ISO 32000-1 §7.9.6"},
			{Rule: "WC-CS-ID", Severity: audit.Serious, Object: webcapture.Ref{Num: 4}, Key: "/ID", Message: "no /ID", Spec: "ISO 32000-1 Table 352"},
			{Rule: "WC-TREE-ORDER", Severity: audit.Serious, Object: obj, Message: "second & \"quoted\"\nline", Spec: "ISO 32000-1 §7.9.6"},
			{Rule: "WC-NEW-RULE", Severity: audit.Serious, Message: "newer", Spec: "webcap"},
			{Rule: "WC-MEMBER-ID", Severity: audit.Caution, Object: obj, Key: "/ID", Message: "the same warning", Spec: "ISO 32000-1 §14.10.6"},
			{Rule: "WC-CS-ID", Severity: audit.Caution, Message: "a warning of an error rule", Spec: "ISO 32000-1 Table 352"},
			{Rule: "WC-MEMBER-ID", Severity: audit.Caution, Object: obj, Key: "/ID", Message: "the same warning", Spec: "ISO 32000-1 §14.10.6"},
			{Rule: "WC-INFO-V-VALUE", Severity: audit.Notice, Key: "/V", Message: "a note", Spec: "ISO 32000-1 Table 350"},
		}},
		{Input: "clean.pdf", Size: 10},
		{Input: "notes.pdf", Findings: []audit.Finding{{Rule: "WC-INFO-V-VALUE", Severity: audit.Notice, Message: "only a note", Spec: "x"}}},
		{Input: "gone.pdf", Error: &audit.FileError{Message: "open gone.pdf: permission denied", Kind: audit.Unavailable}},
		{Input: "bad.pdf", Error: &audit.FileError{Message: "not a PDF", Kind: audit.Invalid}},
	}
}

// TestGolden: each format writes what it wrote when it held a file's
// findings whole (testdata/golden.*, written then), held or Streamed.
func TestGolden(t *testing.T) {
	for _, f := range []Format{VeraPDF, PREMIS, Archivematica, SARIF, JUnit} {
		t.Run(f.String(), func(t *testing.T) {
			path := filepath.Join("testdata", "golden."+f.String())
			var held bytes.Buffer
			if err := Write(&held, f, goldenResults(), opts); err != nil {
				t.Fatal(err)
			}
			if *update {
				if err := os.WriteFile(path, held.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if held.String() != string(want) {
				t.Errorf("Write(%v) = %d bytes, want %s's %d", f, held.Len(), path, len(want))
			}
			var stream bytes.Buffer
			if err := Write(&stream, f, streamed{goldenResults()}, opts); err != nil {
				t.Fatal(err)
			}
			if stream.String() != string(want) {
				t.Errorf("Write(%v) of Streamed results = %d bytes, want %s's %d", f, stream.Len(), path, len(want))
			}
		})
	}
}
