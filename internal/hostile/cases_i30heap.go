package hostile

import "time"

// Issue 30, the collector's share of a large build: Go's memory limit
// under --max-memory keeps 1/8 of the ceiling as headroom, but 64 MiB at
// most (limits.softLimit), so that under the default 1 GiB it is 960 MiB,
// not 896. A build of 100,000 page sets holds some 800 MB live while its
// result is read back for the audit: at 896 MiB the collector ran back to
// back there. The build still fits the default ceiling, and its peak
// stays within 1.3 times pdfcpu ReadContext's on its input (828 MB).

func init() {
	Register(
		Case{
			Name: "build-100000-sets-default-memory", Part: Bounds,
			Setup:  buildSets(100000),
			Exit:   0,
			Stdout: []string{`^input\.pdf: 100008 content sets and 4 commands written to out\.pdf \(\d+ bytes appended; the input's \d+ bytes are unchanged\)$`},
			Check:  written("out.pdf"),
			MaxCPU: 60 * time.Second, MaxRSS: 1026 << 20, // 1,076 MB: 1.3 times ReadContext's 828 MB
			Slow:   true,
			Before: "webcap-old, this case: exit 0, the same out.pdf and output, 12.5 s CPU (10.3 user + 2.2 sys), 909 MiB peak; GODEBUG=gctrace=1: 26 collections, 9 of them back to back with the live heap at 754-822 MB against goals of 806-827 MB (i30heap: 8.8 s CPU, 929 MiB, 13 collections, 3 with goals of 846-880 MB)",
		},
	)
}
