package audit

import (
	"strings"
	"testing"

	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/pdfio"
)

func TestSummarize(t *testing.T) {
	for _, tc := range []struct {
		sample  string
		counts  [3]int // Notice, Caution, Serious
		verdict string
	}{
		{"capture", [3]int{0, 2, 0}, "audits with no error"},
		{"residue", [3]int{0, 3, 0}, "audits with no error"},
		{"damaged", [3]int{0, 2, 11}, "errors remain: WC-DANGLING (1), WC-IDS-KEY (1), WC-TREE-DUPLICATE (1), " +
			"WC-TREE-LIMITS (2), WC-TREE-NODE (2), WC-TREE-ORDER (2), WC-TREE-VALUE (1), WC-URLS-CANONICAL (1)"},
	} {
		t.Run(tc.sample, func(t *testing.T) {
			b, err := pb.Sample(tc.sample)
			if err != nil {
				t.Fatal(err)
			}
			d, err := pdfio.ReadBytes(b, tc.sample+".pdf", pdfio.Options{})
			if err != nil {
				t.Fatal(err)
			}
			findings := Check(d, Options{})
			s := Summarize(findings)
			for sev, want := range tc.counts {
				if got := s.Count(Severity(sev)); got != want {
					t.Errorf("Count(%v) = %d, want %d", Severity(sev), got, want)
				}
			}
			total := 0
			for _, n := range s.Rules {
				total += n
			}
			if total != len(findings) {
				t.Errorf("Rules count %d findings, want %d", total, len(findings))
			}
			if got := s.String(); got != tc.verdict {
				t.Errorf("String() = %q, want %q", got, tc.verdict)
			}
		})
	}
	if got := (Summary{}).String(); got != "audits with no error" {
		t.Errorf("Summary{}.String() = %q, want the verdict of no finding", got)
	}
}

// Every reference is to the PDF specifications, an RFC, the WARC standard
// (ISO 28500) or the Arlington model, never to a file outside the module.
func TestRuleSpecsCitePublicSources(t *testing.T) {
	for _, r := range Rules {
		for _, part := range strings.Split(r.Spec, "; ") {
			ok := false
			for _, p := range []string{"PDF 1.7 ", "ISO 32000-1 ", "ISO 32000-2 ", "RFC ", "ISO 28500:", "Arlington", "webcap"} {
				ok = ok || strings.HasPrefix(part, p)
			}
			if !ok {
				t.Errorf("%s cites %q: want a PDF 1.7, ISO 32000, ISO 28500 or RFC section", r.ID, part)
			}
		}
	}
}
