package pdfio

import (
	"bytes"
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
	for _, n := range []int{5000, 20000} {
		data := pdfbuild.Big(n, false)
		opts := Options{}.withDefaults()
		b.Run(fmt.Sprintf("pdfcpu-parse/pages=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := parse(bytes.NewReader(data), opts); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("pdfio-read/pages=%d", n), func(b *testing.B) {
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
func BenchmarkWalk(b *testing.B) {
	const n = 20000
	data := pdfbuild.Big(n, false)
	opts := Options{}.withDefaults()
	ctx, err := parse(bytes.NewReader(data), opts)
	if err != nil {
		b.Fatal(err)
	}
	ctx.Read.RS = nil
	b.ReportAllocs()
	for b.Loop() {
		if d := newReader(ctx, "big.pdf", opts, data).read(); len(d.Sets) != n {
			b.Fatalf("%d sets, want %d", len(d.Sets), n)
		}
	}
}
