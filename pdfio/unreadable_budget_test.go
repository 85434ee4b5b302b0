package pdfio

import (
	"bytes"
	"testing"
)

// The searches for misplaced objects share one budget of bytes read: a
// file of "N 0 obj" headers with no "endobj" after them, each a candidate,
// would otherwise be read to its end once per candidate (here 120,000
// times over 1 MB: 60 GB).
func TestRecoverBudget(t *testing.T) {
	r := &reader{b: bytes.Repeat([]byte("7 0 obj\n"), 120000)}
	var cands []int64
	for i := range 120000 {
		cands = append(cands, int64(8*i))
	}
	budget := recoverBudget(len(r.b))
	if _, _, ok := r.parseAt(cands, 7, 0, &budget); ok {
		t.Fatal("an object without endobj was recovered")
	}
	if budget > 0 {
		t.Errorf("%d bytes of the budget left: the search read less than it must have, or did not count it", budget)
	}
}
