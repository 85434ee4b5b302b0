package record

import (
	"bytes"
	"testing"

	"github.com/webcap/webcap/internal/pdfcheck"
)

// A build of 4,200 page sets (internal/pdfbuild's generated case: HTML and
// text pages of a wget mirror, redirects, image sets) writes URLS and IDS
// trees with intermediate nodes, and qpdf's walk of them finds every key
// in order under correct /Limits: an oracle that is not pdfio's reader.
func TestBuildNameTreesQPDF(t *testing.T) {
	path, data := buildCase(t, 4200)
	m, err := ParseManifest(bytes.NewReader(data), path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Apply(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	trees := pdfcheck.CheckNameTrees(t, res.Output)
	if trees == nil {
		t.Skip("qpdf not installed")
	}
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
