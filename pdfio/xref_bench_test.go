package pdfio

import (
	"testing"

	pb "github.com/webcap/webcap/internal/pdfbuild"
)

// BenchmarkLastStartXRef checks the cross-reference table of a 10,000-page
// capture (62,000 entries), as every update and every read does.
func BenchmarkLastStartXRef(b *testing.B) {
	file := pb.BigBroken(10000, false)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := lastStartXRef(file); err != nil {
			b.Fatal(err)
		}
	}
}
