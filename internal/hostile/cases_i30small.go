package hostile

import (
	"time"
)

// Safety leftovers of issue 30 (branch i30small).
//
// capture-3000-visible-links-write-max-memory: 20 pages of 3,000 visible
// links each under --max-memory 128 MiB. The crawl's heap holds the 20
// pages within the ceiling (the printed pages read lazily), and the write
// of what it kept (the structures, the internal links) took 751 MB,
// unwatched. The write now runs under the same ceiling: past it, it
// stops, nothing is written (no output, no temporary file), and the
// command exits 4 naming the file and the flag.
//
// ordered-without-jsonl-audit, ordered-without-jsonl-capture-many,
// ordered-without-urls-from: --ordered orders --jsonl's lines; without
// them it was accepted and did nothing (audit read the file, capture
// started Chromium). It is now a usage error naming the flag it needs,
// found before anything is read or started (one rule: cli's
// checkOrdered), as is a list's flag given without --urls-from.
func init() {
	Register(
		Case{
			Name:   "ordered-without-jsonl-audit",
			Part:   Outputs,
			Setup:  files(map[string]string{"a.pdf": "not a pdf"}, "audit", "--ordered", "a.pdf"),
			Exit:   2,
			Stderr: []string{`^webcap: audit: --ordered is the order of --jsonl's lines: give --jsonl$`},
			Before: "exit 4 in 0.03 s: a.pdf audited (unreadable), --ordered ignored",
		},
		Case{
			Name:   "ordered-without-jsonl-capture-many",
			Part:   Outputs,
			Setup:  files(map[string]string{"list.txt": "http://127.0.0.1:1/\n", "chromium": standIn}, "capture", "--urls-from", "list.txt", "--out-dir", "o", "--ordered", "--chromium", "./chromium"),
			Exit:   2,
			Stderr: []string{`^webcap: capture: --ordered is the order of --jsonl's lines: give --jsonl$`},
			Check:  only("chromium", "list.txt"),
			Before: "exit 3 in 0.10 s: --ordered ignored, o/ made and Chromium started for the seed",
		},
		Case{
			Name:   "ordered-without-urls-from",
			Part:   Outputs,
			Setup:  files(map[string]string{"chromium": standIn}, "capture", "--ordered", "--chromium", "./chromium", "http://127.0.0.1:1/", "-o", "out.pdf"),
			Exit:   2,
			Stderr: []string{`^webcap: capture: --ordered is for a list of seeds: give --urls-from LIST$`},
			Check:  only("chromium"),
			Before: "exit 3: --ordered ignored, Chromium started",
		},
	)
	Register(
		Case{
			Name:    "capture-3000-visible-links-write-max-memory",
			Part:    Bounds,
			Browser: true,
			Slow:    true,
			Setup:   serve(&manyLinks{n: 3000, shown: true}, "capture", "--max-memory", "128MiB", "--levels", "2", "--max-pages", "20", "-o", "out.pdf", "{url}/"),
			Exit:    4,
			Stderr:  []string{`^webcap: capture: out\.pdf: not written: writing the \d+ pages captured took more memory than --max-memory 128 MiB$`},
			Check:   only(),
			MaxRSS:  400 << 20,
			MaxTree: 3 << 30,
			MaxCPU:  60 * time.Second,
			Before:  "exit 0 after 43 s, 19.4 s CPU, 717 MB (tree 696 MB): 20 pages written, the write unwatched",
		},
	)
}
