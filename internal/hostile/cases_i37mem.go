package hostile

import (
	"time"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// Issue 30, the memory of reads: the entries of a read's cross-reference
// streams share the numbers they point to (pdfio's lazy.shared): the
// object stream's number, one int for the entries listed one after
// another in the same stream, and the index in it, one of a list of
// 0, 1, 2... up to 4,096 shared by every stream. The edges: an object
// stream of 5,000 objects (indexes past the shared list, each its own),
// and objects dealt to 27 streams in turn, so that each entry names
// another stream than the one before it.

// objStmCapture is pdfbuild.Big(2000, true) with object streams of size
// objects each, dealt in turn if spread.
func objStmCapture(size int, spread bool) func() []byte {
	return func() []byte {
		b := pdfbuild.New()
		b.XRefStream, b.ObjectStreams = true, true
		b.ObjStmSize, b.ObjStmSpread = size, spread
		return pdfbuild.BigOf(b, 2000)
	}
}

func init() {
	Register(
		Case{
			Name:   "objstm-5000-objects-info",
			Part:   Bounds,
			Setup:  lazyFile("big.pdf", objStmCapture(5000, false), "info", "--json", "big.pdf"),
			Exit:   0,
			Stdout: []string{bigCounts(2000)},
			MaxCPU: 5 * time.Second, MaxRSS: 96 << 20,
			Before: "exit 0, 2,000 pages and sets, no defect, in 0.04-0.06 s CPU, 28-29 MB (/work/webcap-old info --json big.pdf: 2 object streams of 5,000 and 3,068 objects; 3 runs); the same answer now, byte for byte",
		},
		Case{
			Name:   "objstm-spread-27-streams-info",
			Part:   Bounds,
			Setup:  lazyFile("big.pdf", objStmCapture(300, true), "info", "--json", "big.pdf"),
			Exit:   0,
			Stdout: []string{bigCounts(2000)},
			MaxCPU: 5 * time.Second, MaxRSS: 96 << 20,
			Before: "exit 0, 2,000 pages and sets, no defect, in 0.05-0.06 s CPU, 28-29 MB (/work/webcap-old info --json big.pdf: 8,068 objects dealt to 27 object streams of 300 in turn; 3 runs); the same answer now, byte for byte",
		},
	)
}
