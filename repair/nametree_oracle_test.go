package repair

import (
	"testing"

	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/internal/pdfcheck"
)

// fix of 4,500 broken page sets (unsorted leaves, wrong /Limits, duplicate,
// stale and non-canonical keys) rebuilds both trees with intermediate
// nodes, and qpdf's walk finds every key in order under correct /Limits:
// an oracle that is not pdfio's reader. The input's trees fail that walk.
func TestFixNameTreesQPDF(t *testing.T) {
	orig := pb.BigBroken(4500, false)
	if _, problems, ok := pdfcheck.NameTrees(t, orig); !ok {
		t.Skip("qpdf not installed")
	} else if len(problems) == 0 {
		t.Error("qpdf's walk finds nothing wrong in the broken input")
	}
	_, out, _ := fixOnce(t, orig)
	trees := pdfcheck.CheckNameTrees(t, out)
	for _, name := range []string{"URLS", "IDS"} {
		w := trees[name]
		if w == nil {
			t.Fatalf("no %s tree", name)
		}
		t.Logf("%s: %d keys, depth %d, %d nodes (%d intermediate)", name, len(w.Keys), w.Depth, w.Nodes, w.Intermediate)
		if len(w.Keys) < 4200 || w.Intermediate == 0 {
			t.Errorf("%s: %d keys, %d intermediate nodes; want at least 4,200 and one", name, len(w.Keys), w.Intermediate)
		}
	}
}
