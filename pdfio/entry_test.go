package pdfio

import (
	"math"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// TestCompactEntries: a read's compact index says what pdfcpu's entries
// say, and declines numbers past 32 bits (pdfcpu's entries are kept).
func TestCompactEntries(t *testing.T) {
	i := func(v int) *int { return &v }
	o := func(v int64) *int64 { return &v }
	byNum := []*model.XRefTableEntry{
		{Free: true, Offset: o(0), Generation: i(65535)},
		{Offset: o(1234), Generation: i(0), Object: types.Dict{}},
		nil,
		{Compressed: true, ObjectStream: i(1), ObjectStreamInd: i(7), Object: packedObject{}},
		{Offset: o(99), Generation: i(3), ObjectStream: i(1)},
		{},
	}
	cs := compactEntries(byNum)
	if len(cs) != len(byNum) {
		t.Fatalf("compactEntries: %d entries, want %d", len(cs), len(byNum))
	}
	for n := -1; n <= len(byNum); n++ {
		var p *model.XRefTableEntry
		if n >= 0 && n < len(byNum) {
			p = byNum[n]
		}
		c, want := centryAt(cs, n), pent(p)
		if c.none() != (p == nil) {
			t.Fatalf("entry %d: none() = %v, want %v", n, c.none(), p == nil)
		}
		if p == nil {
			continue
		}
		coff, cok := c.offset()
		woff, wok := want.offset()
		cs1, cs2, cin := c.inStream()
		ws1, ws2, win := want.inStream()
		cstm, cstmOK := c.stream()
		wstm, wstmOK := want.stream()
		if c.free() != want.free() || c.compressed() != want.compressed() || coff != woff || cok != wok ||
			c.gen() != want.gen() || cs1 != ws1 || cs2 != ws2 || cin != win || cstm != wstm || cstmOK != wstmOK ||
			typeName(c.object()) != typeName(want.object()) {
			t.Errorf("entry %d: the compact entry differs from pdfcpu's", n)
		}
	}
	c := centryAt(cs, 1)
	c.setObject(types.Integer(5))
	if c.object() != types.Integer(5) || byNum[1].Object == types.Integer(5) {
		t.Errorf("setObject: %v (pdfcpu's %v), want 5 in the compact entry only", c.object(), byNum[1].Object)
	}
	for _, e := range []*model.XRefTableEntry{
		{Generation: i(math.MaxInt32 + 1)},
		{Compressed: true, ObjectStream: i(math.MaxInt32 + 1), ObjectStreamInd: i(0)},
		{Compressed: true, ObjectStream: i(1), ObjectStreamInd: i(math.MinInt32 - 1)},
	} {
		if cs := compactEntries([]*model.XRefTableEntry{nil, e}); cs != nil {
			t.Errorf("compactEntries of a number past 32 bits: %d entries, want none", len(cs))
		}
	}
}
