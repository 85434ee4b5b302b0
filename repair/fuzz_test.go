package repair

import (
	"testing"
	"time"

	"github.com/webcap/webcap/canon"
	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/pdfio"
)

// FuzzFix runs fix as a whole (parse, plan, write, read again) on any
// bytes. Invariant: every key readable in the input (a key whose value
// leads to a content set) is readable in the output, as written or as the
// plan rewrites it (a URLS key canonicalized, an IDS key its set's /ID),
// unless the plan is refused or cannot be written, and then nothing is
// written at all.
func FuzzFix(f *testing.F) {
	for _, name := range pb.Samples() {
		b, _ := pb.Sample(name)
		f.Add(b)
	}
	lc := newLossCapture()
	f.Add(lc.file)
	f.Add(shiftEntry(lc.file, lc.leaf, 7))
	f.Add(shiftEntry(lc.file, lc.kid, 7))
	f.Add(shiftEntry(lc.file, lc.value, 7))
	f.Add(capture(true, nil, nil))
	f.Add(pb.BigBroken(40, false))
	c, err := canon.New(nil)
	if err != nil {
		f.Fatal(err)
	}
	opts := pdfio.Options{Timeout: 5 * time.Second, MaxTreeNodes: 10000}
	f.Fuzz(func(t *testing.T, data []byte) {
		u, err := pdfio.OpenUpdate(data, "in.pdf", opts)
		if err != nil {
			return
		}
		d, err := u.Document()
		if err != nil {
			return
		}
		p, err := NewPlan(d, nil)
		if err != nil || p.Refused() || p.Empty() {
			return // nothing is written
		}
		out, err := p.ApplyTo(u)
		if err != nil {
			return // nothing is written
		}
		d2, err := pdfio.ReadBytes(out, "out.pdf", opts)
		if err != nil {
			t.Fatalf("the output cannot be read: %v", err)
		}
		if err := p.Check(d2); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"IDS", "URLS"} {
			in, res := tree(d, name), tree(d2, name)
			if in == nil {
				continue
			}
			have := map[string]bool{}
			if res != nil {
				for _, e := range res.Entries {
					if len(e.Sets) > 0 {
						have[e.Key] = true
					}
				}
			}
			for _, e := range in.Entries {
				if len(e.Sets) == 0 || have[e.Key] {
					continue
				}
				alt := ""
				switch name {
				case "URLS":
					alt, _ = c.String(e.Key)
				case "IDS":
					if id := e.Sets[0].ID; id != nil {
						alt = string(*id)
					}
				}
				if !have[alt] {
					t.Fatalf("%s key %s is readable in the input but not in the output (nor as %s)", name, show(name, e.Key), show(name, alt))
				}
			}
		}
	})
}
