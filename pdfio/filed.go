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

// A slimStream stands in a read's table for a top-level stream without a
// filter whose /Length is an integer (lazy.load; pdfbuild.Big's pages'
// contents, an image or a metadata stream written plain): its
// dictionary, where its bytes begin in the file, and its length, 24
// bytes where pdfcpu's StreamDict is 120. The decoder makes that
// StreamDict of it again where the stream is used (decoder.load,
// decoder.streamOf), as lazyParse made it (the same dictionary and
// length, its bytes the same slice of the file). A read of a 50 MB
// capture of 77,000 pages holds 8 MB less to its end.
type slimStream struct {
	dict   types.Dict
	off    int64
	length *int64
}

func (s slimStream) Clone() types.Object {
	d, _ := s.dict.Clone().(types.Dict)
	return slimStream{d, s.off, s.length} // (its bytes are still the file's)
}
func (s slimStream) PDFString() string { return s.dict.PDFString() }
func (s slimStream) String() string    { return s.dict.String() }

// slimmed is sd as a slimStream, if it is one: no filter, a direct
// /Length, its bytes the file's from its offset, nothing decoded.
func slimmed(sd types.StreamDict) (slimStream, bool) {
	ok := sd.StreamLength != nil && sd.StreamLengthObjNr == nil && sd.FilterPipeline == nil &&
		sd.Content == nil && !sd.IsPageContent && sd.CSComponents == 0 &&
		int64(len(sd.Raw)) == *sd.StreamLength && cap(sd.Raw) == len(sd.Raw)
	if !ok {
		return slimStream{}, false
	}
	return slimStream{sd.Dict, sd.StreamOffset, sd.StreamLength}, true
}

// expand is the StreamDict s stands for, its bytes in file.
func (s slimStream) expand(file []byte) types.StreamDict {
	sd := types.NewStreamDict(s.dict, s.off, s.length, nil, nil)
	if end := s.off + *s.length; s.off >= 0 && end <= int64(len(file)) {
		sd.Raw = file[s.off:end:end]
	}
	return sd
}
