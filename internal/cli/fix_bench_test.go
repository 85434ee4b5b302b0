package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// BenchmarkFix10k runs "webcap fix" on a generated capture of 10,000 page
// sets whose trees are damaged the ways fix repairs (pdfbuild.BigBroken):
// parse, plan, update, write and the audit of the result. bench/fix.sh
// compares the whole process with qpdf rewriting the file.
func BenchmarkFix10k(b *testing.B) {
	dir := b.TempDir()
	in := filepath.Join(dir, "broken.pdf")
	if err := os.WriteFile(in, pdfbuild.BigBroken(10000, false), 0o644); err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(dir, "fixed.pdf")
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		os.Remove(out)
		ios := &IOStreams{In: eofReader{}, Out: io.Discard, ErrOut: io.Discard}
		if code := Main(context.Background(), []string{"fix", in, "-o", out}, ios); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
