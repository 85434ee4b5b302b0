package audit

import (
	"fmt"
	"testing"

	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/pdfio"
)

// BenchmarkCheck is the audit's own share of "webcap audit" on generated
// captures (internal/pdfbuild.Big, a page set per page, both xref
// flavours): the file is read once, outside the timer. bench/peers.sh
// (ONLY=read) measures the whole process against pdfcpu's api.ReadContext.
func BenchmarkCheck(b *testing.B) {
	for _, objstm := range []bool{false, true} {
		const n = 20000
		d, err := pdfio.ReadBytes(pdfbuild.Big(n, objstm), "big.pdf", pdfio.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("sets=%d/objstm=%v", n, objstm), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if f := Check(d, Options{}); len(f) != 1 { // the warning on SpiderInfo /V 1.25, as Acrobat writes
					b.Fatalf("%d findings, first %v", len(f), f[0])
				}
			}
		})
	}
}
