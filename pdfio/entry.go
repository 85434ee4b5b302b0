package pdfio

import (
	"math"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// A centry is a read's own entry of its cross-reference table (compact):
// 40 bytes where pdfcpu's is 88, with its offset (8) and the slice of
// pointers to it (8) besides: 385,000 objects of a 50 MB file held 40 MB
// of entries, live to the read's end, which the collector's headroom
// about doubles.
type centry struct {
	obj   types.Object
	off   int64 // (cOff)
	stm   int32 // the object stream's number (cStm)
	ind   int32 // the index in it (cInd)
	gen   int32
	flags uint8
}

const (
	cFree = 1 << iota
	cCompressed
	cOff
	cStm
	cInd
	cIn // the number has an entry
)

// An ent is an entry a read looks at: one of its compact index, or else
// pdfcpu's (an update's table, a read without the index). The zero ent
// is no entry.
type ent struct {
	c *centry
	p *model.XRefTableEntry
}

// pent is pdfcpu's entry e as an ent (nil: none).
func pent(e *model.XRefTableEntry) ent { return ent{p: e} }

func (e ent) none() bool { return e.c == nil && e.p == nil }

func (e ent) free() bool {
	if e.c != nil {
		return e.c.flags&cFree != 0
	}
	return e.p.Free
}

func (e ent) compressed() bool {
	if e.c != nil {
		return e.c.flags&cCompressed != 0
	}
	return e.p.Compressed
}

func (e ent) object() types.Object {
	if e.c != nil {
		return e.c.obj
	}
	return e.p.Object
}

func (e ent) setObject(o types.Object) {
	if e.c != nil {
		e.c.obj = o
		return
	}
	e.p.Object = o
}

// offset is the entry's offset, and whether it has one.
func (e ent) offset() (int64, bool) {
	if e.c != nil {
		return e.c.off, e.c.flags&cOff != 0
	}
	if e.p.Offset == nil {
		return 0, false
	}
	return *e.p.Offset, true
}

// gen is the entry's generation (0 if it has none).
func (e ent) gen() int {
	if e.c != nil {
		return int(e.c.gen)
	}
	return genOf(e.p)
}

// stream is the number of the object stream the entry names, if any.
func (e ent) stream() (int, bool) {
	if e.c != nil {
		return int(e.c.stm), e.c.flags&cStm != 0
	}
	if e.p.ObjectStream == nil {
		return 0, false
	}
	return *e.p.ObjectStream, true
}

// inStream is the object stream and index the entry names, if it names
// both.
func (e ent) inStream() (stm, ind int, ok bool) {
	if e.c != nil {
		if e.c.flags&(cStm|cInd) != cStm|cInd {
			return 0, 0, false
		}
		return int(e.c.stm), int(e.c.ind), true
	}
	if e.p.ObjectStream == nil || e.p.ObjectStreamInd == nil {
		return 0, 0, false
	}
	return *e.p.ObjectStream, *e.p.ObjectStreamInd, true
}

// entOffset is offsetOf for an ent: -1 if it has none.
func entOffset(e ent) int64 {
	if off, ok := e.offset(); ok {
		return off
	}
	return -1
}

// compactEntries makes the compact index of byNum, or nil if one of its
// numbers does not fit (a generation, a stream's number or an index past
// 32 bits: left to pdfcpu's entries).
func compactEntries(byNum []*model.XRefTableEntry) []centry {
	fits := func(p *int) bool { return p == nil || *p >= math.MinInt32 && *p <= math.MaxInt32 }
	for _, e := range byNum {
		if e != nil && !(fits(e.Generation) && fits(e.ObjectStream) && fits(e.ObjectStreamInd)) {
			return nil
		}
	}
	out := make([]centry, len(byNum))
	for n, e := range byNum {
		if e == nil {
			continue
		}
		c := &out[n]
		c.obj, c.flags = e.Object, cIn
		if e.Free {
			c.flags |= cFree
		}
		if e.Compressed {
			c.flags |= cCompressed
		}
		if e.Offset != nil {
			c.off, c.flags = *e.Offset, c.flags|cOff
		}
		if e.Generation != nil {
			c.gen = int32(*e.Generation)
		}
		if e.ObjectStream != nil {
			c.stm, c.flags = int32(*e.ObjectStream), c.flags|cStm
		}
		if e.ObjectStreamInd != nil {
			c.ind, c.flags = int32(*e.ObjectStreamInd), c.flags|cInd
		}
	}
	return out
}

// centryAt is the compact index's entry for num, or none.
func centryAt(cs []centry, num int) ent {
	if num < 0 || num >= len(cs) || cs[num].flags&cIn == 0 {
		return ent{}
	}
	return ent{c: &cs[num]}
}

// hasOff reports whether e has an offset.
func hasOff(e ent) bool {
	_, ok := e.offset()
	return ok
}

// inStream reports whether e names both an object stream and an index in
// it.
func inStream(e ent) bool {
	_, _, ok := e.inStream()
	return ok
}
