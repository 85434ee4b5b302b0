package record_test

import (
	"bytes"
	"path/filepath"
	"slices"
	"testing"

	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/record"
)

// TestApplyWARC: a set built from a WARC file gets the archive's redirect
// chains and WARC-Date where the manifest gives none, and keeps the
// manifest's where it gives them (warc/testdata/small.warc: the home page
// and logo at 2026-01-02T03:04:05Z, http://example.com/ redirecting to the
// home page).
func TestApplyWARC(t *testing.T) {
	arc, err := filepath.Abs("../warc/testdata/small.warc")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name        string
		redirects   [][]string
		captured    string
		wantAliases []string
	}{
		{"from the archive", nil, "", []string{"http://example.com/"}},
		{"the manifest's", [][]string{}, "2025-12-31T00:00:00Z", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := &record.Manifest{Input: "web.pdf", InputData: pb.Web(false),
				PageSets: []record.PageSet{{Pages: "1-3", URL: "http://www.example.com/", Redirects: tc.redirects, Captured: tc.captured}}}
			res, err := record.Apply(m, record.Options{WARC: arc})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Sets[0].Aliases; !slices.Equal(got, tc.wantAliases) {
				t.Errorf("Aliases = %q, want %q", got, tc.wantAliases)
			}
			want := "D:20260102030405Z"
			if tc.captured != "" {
				want = "D:20251231000000Z"
			}
			if !bytes.Contains(res.Output, []byte("/TS ("+want+")")) {
				t.Errorf("the output has no /TS (%s)", want)
			}
		})
	}
}
