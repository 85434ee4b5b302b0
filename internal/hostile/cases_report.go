//go:build unix

package hostile

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// report's shards: a line is refused at its first byte when it cannot be
// an audit --jsonl object, and once it passes the longest line report
// reads (256 MiB); stdin is read within --max-file-size. Before, a line
// was read whole however long (a file of zeros is one line), and a file
// that was no results said "0 files audited", exit 0.
//
// Before is what the session-start binary did, as the filer of issue 27
// measured it (the unbounded ones are not run again on the shared
// machine).

// zeros is an endless stream of zero bytes (cat /dev/zero).
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// spaces is an endless line that starts as an audit --jsonl object: "{"
// and then spaces, without a newline.
type spaces struct{ started bool }

func (s *spaces) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	if !s.started && len(p) > 0 {
		p[0], s.started = '{', true
	}
	return len(p), nil
}

func init() {
	const notResults = `line 1: not an audit --jsonl object: it starts with `
	Register(
		Case{Name: "report-sparse-shard", Part: Inputs,
			Setup: func(dir string) ([]string, func(), error) {
				return []string{"report", "z.jsonl"}, nil, sparse(filepath.Join(dir, "z.jsonl"), 1900<<20)
			},
			Exit:   4,
			Stderr: []string{`^webcap: report: z\.jsonl: ` + notResults + `"\\x00\\x00`},
			MaxCPU: cpuQuick, MaxRSS: rssQuick,
			Before: `3.9 GB, then "0 files audited", exit 0 (truncate -s 1900M z.jsonl)`},
		Case{Name: "report-stdin-zeros", Part: Inputs,
			Setup:     func(string) ([]string, func(), error) { return []string{"report", "-"}, nil, nil },
			StdinFrom: func() io.Reader { return io.LimitReader(zeros{}, 2600<<20) },
			Exit:      4,
			Stderr:    []string{`^webcap: report: stdin: ` + notResults + `"\\x00`},
			MaxCPU:    cpuQuick, MaxRSS: rssQuick,
			Before: "5.4 GB and a 2.6 GB temporary file (head -c 2600M /dev/zero | webcap report -)"},
		Case{Name: "report-stdin-endless", Part: Inputs,
			Setup:     func(string) ([]string, func(), error) { return []string{"report", "-"}, nil, nil },
			StdinFrom: func() io.Reader { return zeros{} },
			Exit:      4,
			Stderr:    []string{`^webcap: report: stdin: ` + notResults + `"\\x00`},
			MaxCPU:    cpuQuick, MaxRSS: rssQuick,
			Before: "unbounded: read until memory ran out (cat /dev/zero | webcap report -)"},
		Case{Name: "report-stdin-over-max-file-size", Part: Inputs,
			Setup: func(string) ([]string, func(), error) {
				return []string{"report", "--max-file-size", "8MiB", "-"}, nil, nil
			},
			StdinFrom: func() io.Reader { return &spaces{} },
			Exit:      4,
			Stderr:    []string{`^webcap: report: stdin: file too large: \d+ bytes, more than 8388608 \(--max-file-size\)$`},
			Env:       []string{"TMPDIR=."},
			Check:     noReportCopy,
			MaxCPU:    cpuQuick, MaxRSS: rssQuick,
			Before: "unbounded: the line read whole, and copied to a temporary file, until memory or the disk ran out"},
		Case{Name: "report-not-results", Part: Inputs, Setup: inputSetup(map[string]string{"cap.pdf": "capture"}, "report", "cap.pdf"),
			Exit:   4,
			Stderr: []string{`^webcap: report: cap\.pdf: ` + notResults + `"%PDF-`},
			MaxCPU: cpuQuick, MaxRSS: rssQuick,
			Before: `exit 3 "line 1: invalid character '%' looking for beginning of value"; a file of zeros: "0 files audited", exit 0`},
	)
}

// noReportCopy is a Check that report left no copy of stdin in the
// temporary directory the case gives it ($TMPDIR is the case's own).
func noReportCopy(dir string) error {
	m, _ := filepath.Glob(filepath.Join(dir, "webcap-report-*"))
	if len(m) > 0 {
		return fmt.Errorf("left behind: %s", strings.Join(m, ", "))
	}
	return nil
}
