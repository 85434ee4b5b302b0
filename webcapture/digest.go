package webcapture

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"sync"
)

// ImageSetID returns an image set's identifier: the MD5 of the original
// image file's bytes as retrieved (PDF 1.7 §10.9.2), not of the decoded
// image. r is read to its end in constant memory.
func ImageSetID(r io.Reader) (ID, error) { return digest(r) }

// PDFSourceID returns the identifier of a page set made from a PDF file:
// the MD5 of the file's own bytes. Streams external to the PDF are
// auxiliary data but are left out (PDF 1.7 Appendix H, note 164).
func PDFSourceID(r io.Reader) (ID, error) { return digest(r) }

// copyBufs holds the read buffers of digest: large reads keep a file's
// MD5 at the speed of MD5 itself.
var copyBufs = sync.Pool{New: func() any { b := make([]byte, 256<<10); return &b }}

func digest(r io.Reader) (ID, error) {
	var id ID
	h := md5.New()
	var err error
	if wt, ok := r.(io.WriterTo); ok { // in memory already: no buffer
		_, err = wt.WriteTo(h)
	} else {
		buf := copyBufs.Get().(*[]byte)
		_, err = io.CopyBuffer(h, r, *buf)
		copyBufs.Put(buf)
	}
	if err != nil {
		return id, err
	}
	h.Sum(id[:0])
	return id, nil
}

// AuxEncoding is how the identifiers of a page's auxiliary files are fed to
// MD5 after the page's own bytes. The specification says only "strings
// representing the digital identifiers"; see the package documentation.
type AuxEncoding int

// The three representations.
const (
	AuxRaw      AuxEncoding = iota // the 16 bytes of each identifier (the default)
	AuxHexUpper                    // 32 upper-case hex digits
	AuxHexLower                    // 32 lower-case hex digits
)

func (e AuxEncoding) String() string {
	switch e {
	case AuxHexUpper:
		return "HEX"
	case AuxHexLower:
		return "hex"
	}
	return "raw"
}

// ParseAuxEncoding parses "raw", "HEX" (upper-case hex) or "hex".
func ParseAuxEncoding(s string) (AuxEncoding, error) {
	switch s {
	case "raw":
		return AuxRaw, nil
	case "HEX":
		return AuxHexUpper, nil
	case "hex":
		return AuxHexLower, nil
	}
	return 0, fmt.Errorf("webcapture: auxiliary identifier form %q: want raw, HEX or hex", s)
}

func (e AuxEncoding) appendID(dst []byte, id ID) []byte {
	switch e {
	case AuxHexUpper:
		return append(dst, strings.ToUpper(hex.EncodeToString(id[:]))...)
	case AuxHexLower:
		return hex.AppendEncode(dst, id[:])
	}
	return append(dst, id[:]...)
}
