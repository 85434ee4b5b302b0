package pdfio

import (
	"fmt"
	"testing"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// BenchmarkRead compares pdfcpu's parse alone (the baseline the reader is
// held to: at most 1.2x its time) with the whole read, on generated captures
// (internal/pdfbuild.Big: a page set per page, IDS and URLS trees of 64-entry
// leaves). bench/big.sh measures the same through the binaries, with peak
// memory.
func BenchmarkRead(b *testing.B) {
	for _, c := range bigCases {
		data := pdfbuild.Big(c.n, c.objstm)
		n := c.n
		opts := Options{}.withDefaults()
		b.Run(fmt.Sprintf("pdfcpu-parse/%s", c), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := parse(data, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("pdfio-read/%s", c), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				d, err := ReadBytes(data, "big.pdf", opts)
				if err != nil || len(d.Sets) != n {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWalk is the reader's own share of BenchmarkRead: pdfcpu's parse
// done once, outside the loop, then only the walk over what it built (the
// trees, pages, object scan, image usage, well-formedness check), with the
// parsed file live on the heap as it is in a real read.
//
// With object streams, pdfcpu leaves the objects in them unparsed and the
// walk parses those it reaches; the walk keeps them parsed (in the table),
// so the parse is done again for each round, outside the timer.
func BenchmarkWalk(b *testing.B) {
	for _, objstm := range []bool{false, true} {
		c := bigCase{20000, objstm}
		b.Run(c.String(), func(b *testing.B) {
			data := pdfbuild.Big(c.n, c.objstm)
			opts := Options{}.withDefaults()
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				ctx, err := parse(data, opts)
				if err != nil {
					b.Fatal(err)
				}
				ctx.Read.RS = nil
				b.StartTimer()
				if d := newReader(ctx, newDecoder(ctx.XRefTable, opts), "big.pdf", opts, data).read(); len(d.Sets) != c.n {
					b.Fatalf("%d sets, want %d", len(d.Sets), c.n)
				}
			}
		})
	}
}

// A bigCase is a generated capture for the benchmarks: n pages, with
// classic cross-reference tables or with an xref stream and object
// streams.
type bigCase struct {
	n      int
	objstm bool
}

var bigCases = []bigCase{{5000, false}, {20000, false}, {5000, true}, {20000, true}}

func (c bigCase) String() string {
	if c.objstm {
		return fmt.Sprintf("objstm/pages=%d", c.n)
	}
	return fmt.Sprintf("xref/pages=%d", c.n)
}
