package hostile

import (
	"time"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// sample is a Setup writing pdfbuild's named hostile sample to file and
// running webcap with args.
func sample(sampleName, file string, args ...string) func(dir string) ([]string, func(), error) {
	return Built(pdfbuild.Hostile, sampleName, file, args...)
}

func init() {
	Register(
		Case{
			Name:   "huge-xref-stream-audit",
			Part:   Bounds,
			Setup:  sample("huge-xref-stream", "xs.pdf", "audit", "--in-process", "xs.pdf"),
			Exit:   1,
			Stdout: []string{`^xs\.pdf: error WC-PDF-XREF file: not well-formed: the cross-reference section at offset \d+ inflates to more than its 13 entries need`},
			MaxCPU: 2 * time.Second,
			MaxRSS: 200 << 20,
			Before: "exit 0 \"Well-Formed and valid\" in 2.3 s and 940 MB: pdfcpu inflated the 500 MiB whole, and nothing said so (qpdf: \"Cross-reference stream data has the wrong size\")",
		},
		Case{
			Name:   "huge-xref-stream-info",
			Part:   Bounds,
			Setup:  sample("huge-xref-stream", "xs.pdf", "info", "xs.pdf"),
			Exit:   0,
			Stdout: []string{`^  ID +E55D7D08133843E6D35696CD10C772CF$`},
			MaxCPU: 2 * time.Second,
			MaxRSS: 200 << 20,
			Before: "2.3 s and 940 MB to read a 519 KB file",
		},
		Case{
			Name:      "shared-command-params-info-json",
			Part:      Bounds,
			Setup:     sample("shared-command-params", "shared.pdf", "info", "--json", "shared.pdf"),
			Exit:      0,
			Stdout:    []string{`"postDataOf": ?0\b`},
			MaxOutput: 70 << 20,  // the 60 MiB posted, once
			MaxRSS:    200 << 20, // the decoded stream, the process, and a 64 KB buffer
			Before:    "about 24 GB of JSON: the 60 MiB /P stream the 400 commands share, written once per command; then (45dc48a) its 63 MB answer in 450-520 MB and 1.8-2.4 s user+sys: encoding/json held it four times over",
		},
		Case{
			Name:   "huge-length-audit",
			Part:   Bounds,
			Setup:  sample("huge-length", "huge.pdf", "audit", "huge.pdf"),
			Exit:   4,
			Stdout: []string{`^huge\.pdf: unreadable: cannot be parsed: .*exceeds maximum supported length`},
			Before: "the same (kept as a guard: pdfcpu v0.11 ran out of memory on it)",
		},
		Case{
			Name:   "cyclic-kids-info",
			Part:   Bounds,
			Setup:  sample("cyclic-kids", "cyclic.pdf", "info", "cyclic.pdf"),
			Exit:   0,
			Stdout: []string{`^  cycle: IDS/Kids\[0\]/Kids\[0\] is \d+ 0 R, which is above it in the tree$`},
			Before: "the same (kept as a guard: pdfcpu's validation overflows the stack on it)",
		},
	)
}
