package cli

import (
	"fmt"
	"io"
	"testing"

	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/pdfio"
)

// BenchmarkInfoJSON is the JSON half of "webcap info --json" on generated
// captures (internal/pdfbuild.Big, a page set per page): the file is read
// once, outside the timer, and each round writes its report to io.Discard.
// bench/peers.sh (ONLY=read) measures the whole process against pdfcpu's
// api.ReadContext.
func BenchmarkInfoJSON(b *testing.B) {
	for _, n := range []int{20000} {
		d, err := pdfio.ReadBytes(pdfbuild.Big(n, true), "big.pdf", pdfio.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("sets=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := writeInfoJSON(io.Discard, d); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
