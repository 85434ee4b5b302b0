package audit

import (
	"testing"
	"time"

	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/pdfio"
)

// FuzzAudit: the reader and the auditor on any bytes — no panic, no hang,
// every finding a known rule with a message.
func FuzzAudit(f *testing.F) {
	for _, name := range pb.Samples() {
		b, _ := pb.Sample(name)
		f.Add(b)
	}
	f.Add(build(spec{leaf: 1}))
	f.Add(build(spec{xrefStream: true}))
	f.Add(build(embeddedSpec(nil, nil, nil))) // a file that carries its WARC
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := pdfio.ReadBytes(data, "fuzz.pdf", pdfio.Options{Timeout: 5 * time.Second, MaxTreeNodes: 10000})
		if err != nil {
			return
		}
		for _, fd := range Check(d, Options{}) {
			if _, ok := ruleByID[fd.Rule]; !ok || fd.Message == "" {
				t.Fatalf("finding %+v", fd)
			}
		}
	})
}
