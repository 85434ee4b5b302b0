package hostile

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Safety leftovers of issue 30 (branch i30small).
//
// capture-3000-visible-links-write-max-memory: 20 pages of 3,000 visible
// links each under --max-memory 128 MiB. The crawl's heap holds the 20
// pages within the ceiling (the printed pages read lazily), and the write
// of what it kept (the structures, the internal links) took 717 MB,
// unwatched. The write now runs under the same ceiling
// (capture.Options.WriteBound); a write past it stops, and the pages are
// written again, the first half of them, until they fit: what fits is
// written, the others are said (skipped, kind memory-limit), and the
// command exits 4 as for a crawl that stopped at the ceiling.
//
// ordered-without-jsonl-audit, ordered-without-jsonl-capture-many,
// ordered-without-urls-from: --ordered orders --jsonl's lines; without
// them it was accepted and did nothing (audit read the file, capture
// started Chromium). It is now a usage error naming the flag it needs,
// found before anything is read or started (one rule: cli's
// checkOrdered), as is a list's flag given without --urls-from.
//
// capture-many-interrupt-while-checked: Ctrl-C (SIGINT) once a list of a
// million seeds is read from stdin, while their outputs are checked
// (seeds.Config.Writable, before any worker or Chromium starts). The
// read and the check now look at the command's context: it exits 130 at
// once, nothing made or written. Before, the interrupt was acted on only
// once the whole list was read and checked.
//
// report-line-million-findings: one shard line of 1,000,000 warnings
// (149 MB), made a veraPDF report. report holds one line's findings at a
// time, decoded whole: some six times the line (the longest line read,
// 256 MiB, about 1.8 GB), which the help and docs/scale.md now say; its
// job lists the first 100,000 distinct log messages, then one counting
// the others (export's maxLogMessages: their counts were held, one per
// message).
func init() {
	Register(Case{
		Name: "report-line-million-findings",
		Part: Bounds,
		Slow: true,
		Setup: func(dir string) ([]string, func(), error) {
			return []string{"report", "--format", "verapdf", "-o", "out.xml", "shard.jsonl"}, nil, findingsLine(filepath.Join(dir, "shard.jsonl"), 1_000_000)
		},
		Exit: 0,
		Check: func(dir string) error {
			b, err := os.ReadFile(filepath.Join(dir, "out.xml"))
			if err == nil && !strings.Contains(string(b), `<logMessage occurrences="900000" level="INFO">webcap lists at most 100000 distinct log messages a file: the other messages&#39; 900000 occurrences are not listed</logMessage>`) {
				err = fmt.Errorf("out.xml (%d bytes) does not count the messages past 100,000", len(b))
			}
			return err
		},
		MaxRSS: 1200 << 20,
		MaxCPU: 60 * time.Second,
		Before: "exit 0, 6.2-6.7 s CPU, 879-882 MB, a 165 MB out.xml listing every message (its line's findings held whole; their counts one per message)",
	})
}

// findingsLine writes a shard of one audit --jsonl line of n warnings,
// each its own message.
func findingsLine(name string, n int) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	w.WriteString(`{"schema":"webcap.audit-file/1","input":"a.pdf","size":1,"findings":[`)
	for i := range n {
		if i > 0 {
			w.WriteByte(',')
		}
		fmt.Fprintf(w, `{"rule":"WC-URLS-SOURCE","severity":"warning","message":"URLS key \"http://www.example.com/%08d.html\" names none","object":"4 0 R","key":"/SI"}`, i)
	}
	w.WriteString("],\"jhoveStatus\":\"Well-Formed and valid\"}\n")
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func init() {
	var listDir string // the case's directory, for the list's reader
	Register(Case{
		Name: "capture-many-interrupt-while-checked",
		Part: Bounds,
		Setup: func(dir string) ([]string, func(), error) {
			listDir = dir
			if err := Write(dir, "chromium", []byte(standIn)); err != nil {
				return nil, nil, err
			}
			if err := os.Chmod(filepath.Join(dir, "chromium"), 0o755); err != nil {
				return nil, nil, err
			}
			return []string{"capture", "--urls-from", "-", "--out-dir", "out", "--jsonl", "--chromium", "./chromium"}, nil, nil
		},
		StdinFrom:  func() io.Reader { return &seedList{n: 1_000_000, done: filepath.Join(listDir, "read")} },
		SignalWhen: "read",
		Signal:     syscall.SIGINT,
		StopWithin: time.Second,
		Exit:       130,
		Stderr:     []string{`^webcap: capture: interrupted \(interrupt\)$`},
		Check:      only("chromium", "read"),
		Before:     "exit 130 5.3 s after the SIGINT (the whole list read and checked first), 5.5 s CPU, 354 MB, out/ made, and a million --jsonl lines (233 MB) saying each seed interrupted",
	})
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
			Stdout:  []string{`^skipped +\d+ URLs: captured, not written: writing it with the pages before it took more memory than --max-memory 128 MiB: `},
			Stderr:  []string{`^webcap: capture: stopped early: took more memory than --max-memory 128 MiB: the \d+ pages? captured before (is|are) in out\.pdf$`},
			Check:   pagesIn("out.pdf", 1, 200),
			MaxRSS:  450 << 20,
			MaxTree: 3 << 30,
			MaxCPU:  60 * time.Second,
			Before:  "exit 0 after 43 s, 19.4 s CPU, 717 MB (tree 696 MB): 20 pages written, the write unwatched",
		},
	)
}

// seedList is a list of n seeds (http://127.0.0.1:1/p/I), made as it is
// read; at its end it writes the file done.
type seedList struct {
	n, i int
	buf  []byte
	done string
}

func (l *seedList) Read(p []byte) (int, error) {
	for len(l.buf) < len(p) && l.i < l.n {
		l.buf = fmt.Appendf(l.buf, "http://127.0.0.1:1/p/%d\n", l.i)
		l.i++
	}
	if len(l.buf) == 0 {
		if l.done != "" {
			os.WriteFile(l.done, nil, 0o644)
			l.done = ""
		}
		return 0, io.EOF
	}
	n := copy(p, l.buf)
	l.buf = l.buf[n:]
	return n, nil
}
