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
