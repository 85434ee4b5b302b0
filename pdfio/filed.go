package pdfio

import (
	"bytes"
	"errors"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// A file with a classic cross-reference table holds its objects at the
// top level, and lazyParse parses every one of them (the reader's checks
// look at each object's type): on the 111 MB output of a build of 100,000
// page sets the parsed pages, content sets and name-tree leaves were
// 150 MB of maps live to the end of the read, beside the file and the
// Document. A read lets go of each once it has read it (repack), as it
// does of the objects of object streams: its entry then holds a
// filedObject, and a later visit parses the object again from the file,
// as lazyParse parsed it the first time. Only the dictionaries the fast
// parser parsed whole are let go of (lazyParseShared's filed): parsed
// again by the same parser from the same bytes, each is the same value.

// A filedObject stands in a read's table for a top-level dictionary the
// read let go of: the entry's Offset says where it is, and the decoder
// parses it again when it is used (decoder.load). It takes no memory.
type filedObject struct{}

func (filedObject) Clone() types.Object { return filedObject{} }
func (filedObject) PDFString() string   { return "" }
func (filedObject) String() string      { return "" }

// An objSet is a set of object numbers, a bit each.
type objSet []uint64

func (s *objSet) add(n int) {
	if n < 0 {
		return
	}
	if w := n / 64; w >= len(*s) {
		*s = append(*s, make([]uint64, w+1-len(*s))...)
	}
	(*s)[n/64] |= 1 << (n % 64)
}

func (s objSet) has(n int) bool {
	return n >= 0 && n/64 < len(s) && s[n/64]&(1<<(n%64)) != 0
}

// filedText is the text of the top-level object at off, from its header
// to its keyword "endobj" (lazyParse found the keyword right after its
// value, and none within: filed).
func filedText(b []byte, off int64) ([]byte, error) {
	if off < 0 || off >= int64(len(b)) {
		return nil, errors.New("its offset is outside the file")
	}
	rest := b[off:]
	i := bytes.Index(rest, []byte("endobj"))
	if i < 0 {
		return nil, errors.New("no endobj follows it")
	}
	return rest[:i], nil
}

// filedDict parses again the dictionary at off that lazyParse parsed
// (lazy.value, lazy.load), into a map of free when there is one.
func filedDict(b []byte, off int64, share *valueShare, free *[]types.Dict) (types.Dict, error) {
	_, _, at, ok := objHeader(b, off)
	if !ok {
		return nil, errors.New("no object header at its offset")
	}
	p := objParser{b: b, i: at, share: share, free: free}
	o, ok := p.value(0)
	d, isDict := o.(types.Dict)
	if !ok || !isDict {
		return nil, errors.New("it no longer parses as a dictionary")
	}
	return d, nil
}
