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
// another stream than the one before it. And a read's slimStreams
// (slimStreams, below).

// A read keeps a top-level stream without a filter whose /Length is an
// integer as a slimStream (pdfio/filed.go), its dictionary, offset and
// length, and makes pdfcpu's StreamDict of it again where it is used.
// slimStreams is a classic file of such streams where a read looks at
// them: an image XObject with /ID that a page uses, another that nothing
// uses (found by the scan of every object), a Form XObject with /ID, and
// beside them the stream that stays pdfcpu's, one whose /Length is an
// indirect integer, and empty ones (the pages' contents, a resource).
func slimStreams() []byte {
	b := pdfbuild.New()
	image := func(id string) pdfbuild.Ref {
		return b.Add(&pdfbuild.Stream{Dict: pdfbuild.D("Type", pdfbuild.Name("XObject"), "Subtype", pdfbuild.Name("Image"), "Width", 1, "Height", 1,
			"ColorSpace", pdfbuild.Name("DeviceGray"), "BitsPerComponent", 8, "ID", pdfbuild.Hex(id)), Data: []byte{0x80}})
	}
	used, _ := image("0123456789abcdef"), image("fedcba9876543210")
	form := b.Add(&pdfbuild.Stream{Dict: pdfbuild.D("Type", pdfbuild.Name("XObject"), "Subtype", pdfbuild.Name("Form"), "BBox", pdfbuild.Array{0, 0, 1, 1},
		"ID", pdfbuild.Hex("00112233445566778899aabbccddeeff")), Data: []byte("0 0 1 1 re f")})
	length := b.Add(3)
	indirect := b.Add(&pdfbuild.Stream{Dict: pdfbuild.D("Length", length), Data: []byte("q Q")})
	empty := b.Add(&pdfbuild.Stream{Dict: pdfbuild.D(), Data: nil})
	pages, _ := b.PageTree(2, func(i int) pdfbuild.Dict {
		if i == 0 {
			return pdfbuild.D("Resources", pdfbuild.D("XObject", pdfbuild.D("Fm0", indirect)))
		}
		return pdfbuild.D("Resources", pdfbuild.D("XObject", pdfbuild.D("Im0", used, "Fm0", form, "Fm1", empty)))
	})
	b.Root = b.Add(pdfbuild.D("Type", pdfbuild.Name("Catalog"), "Pages", pages))
	return b.Bytes()
}

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
			Name:   "slim-streams-info",
			Part:   Bounds,
			Setup:  lazyFile("slim.pdf", slimStreams, "info", "--json", "slim.pdf"),
			Exit:   0,
			Stdout: []string{`"counts":\{"contentSets":0,"pageSets":0,"imageSets":0,"orphans":0,"pages":2,"pagesWithID":0,"images":2,"imagesWithID":2,"defects":0\}`},
			MaxCPU: 2 * time.Second, MaxRSS: 64 << 20,
			Before: "exit 0, 2 pages, both images with their /ID, no defect, in 0.00-0.01 s CPU, 20-21 MB (/work/webcap-old info --json slim.pdf; 3 runs); the same answer now, byte for byte (and audit --json)",
		},
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
