package repair

import (
	"testing"

	"github.com/webcap/webcap/audit"
	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/pdfio"
)

// fixOnce does what "webcap fix" does in the library: one parse for the
// document and the update, the plan, the update, and the result read from
// the parse and the update.
func fixOnce(tb testing.TB, orig []byte) (*Plan, []byte, *pdfio.Document) {
	tb.Helper()
	u, err := pdfio.OpenUpdate(orig, "broken.pdf", pdfio.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	d, err := u.Document()
	if err != nil {
		tb.Fatal(err)
	}
	p, err := NewPlan(d, nil)
	if err != nil {
		tb.Fatal(err)
	}
	out, err := p.ApplyTo(u)
	if err != nil {
		tb.Fatal(err)
	}
	d2, err := u.Result(out, "fixed.pdf")
	if err != nil {
		tb.Fatal(err)
	}
	return p, out, d2
}

// The generated broken capture of the benchmarks has the damage it says,
// and fix repairs all of it.
func TestFixBigBroken(t *testing.T) {
	for _, objstm := range []bool{false, true} {
		orig := pb.BigBroken(1000, objstm)
		d, err := pdfio.ReadBytes(orig, "broken.pdf", pdfio.Options{})
		if err != nil {
			t.Fatal(err)
		}
		before := map[string]int{}
		for _, f := range audit.Check(d, audit.Options{}) {
			if f.Severity == audit.Serious {
				before[f.Rule]++
			}
		}
		for _, rule := range []string{"WC-URLS-CANONICAL", "WC-IDS-KEY", "WC-TREE-DUPLICATE", "WC-TREE-ORDER", "WC-TREE-LIMITS"} {
			if before[rule] == 0 {
				t.Errorf("objstm=%v: the broken capture has no %s error", objstm, rule)
			}
		}
		p, _, d2 := fixOnce(t, orig)
		if len(p.Collisions) > 0 || len(p.Left) > 0 {
			t.Errorf("objstm=%v: %d collisions, %d left alone", objstm, len(p.Collisions), len(p.Left))
		}
		memberIDs := 0
		for _, c := range p.Changes {
			if c.Rules[0] == "WC-MEMBER-ID" {
				memberIDs++
			}
		}
		if memberIDs == 0 {
			t.Errorf("objstm=%v: no page got its /ID back", objstm)
		}
		if n := audit.Summarize(audit.Check(d2, audit.Options{})).Count(audit.Serious); n != 0 {
			t.Errorf("objstm=%v: %d errors remain after fix", objstm, n)
		}
	}
}

// BenchmarkFix10k is fix in the library on 10,000 broken page sets:
// parse, read, plan, update and the result's read (the audits are
// audit's). bench/fix.sh compares the whole command with qpdf.
func BenchmarkFix10k(b *testing.B) {
	orig := pb.BigBroken(10000, false)
	b.SetBytes(int64(len(orig)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		fixOnce(b, orig)
	}
}

// BenchmarkPlan10k is NewPlan alone on 10,000 broken page sets.
func BenchmarkPlan10k(b *testing.B) {
	d, err := pdfio.ReadBytes(pb.BigBroken(10000, false), "broken.pdf", pdfio.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := NewPlan(d, nil); err != nil {
			b.Fatal(err)
		}
	}
}
