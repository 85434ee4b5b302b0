package record

import (
	"bytes"
	"testing"
)

// BenchmarkResultBuildCase10k is the read back of BenchmarkBuildCase10k's
// build alone (Result.Read: pdfio's Update.Result), the build itself
// outside the timer: the document build audits, from the update's plan
// and the input's Document where they describe the output.
func BenchmarkResultBuildCase10k(b *testing.B) {
	path, data := buildCase(b, 10000)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		m, err := ParseManifest(bytes.NewReader(data), path)
		if err != nil {
			b.Fatal(err)
		}
		res, err := Apply(m, Options{ReadBack: true})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := res.Read("out.pdf"); err != nil {
			b.Fatal(err)
		}
	}
}
