package hostile

import "github.com/webcap/webcap/internal/pdfbuild"

// sample is a Setup writing pdfbuild's named hostile sample to file and
// running webcap with args.
func sample(sampleName, file string, args ...string) func(dir string) ([]string, func(), error) {
	return Built(pdfbuild.Hostile, sampleName, file, args...)
}

func init() {
	Register(
		Case{
			Name:      "shared-command-params-info-json",
			Part:      Bounds,
			Setup:     sample("shared-command-params", "shared.pdf", "info", "--json", "shared.pdf"),
			Exit:      0,
			Stdout:    []string{`"postDataOf": ?0\b`},
			MaxOutput: 70 << 20, // the 60 MiB posted, once
			Before:    "about 24 GB of JSON: the 60 MiB /P stream the 400 commands share, written once per command",
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
