package hostile

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// Issue 30's findings streamed: a file whose URLS tree has millions of
// keys, each a finding (WC-URLS-SOURCE: the keys name none of the one
// content set's source URLs). Before, audit held every finding of a file
// three times over (the audit's list, its JSON in the worker, the line
// decoded in audit): 3.0 GB for 2,000,000 findings, past the default
// --max-memory (24 times the file's 90 MB) and past 1 GiB, so that the
// file was "unreadable" (exit 4). Now the findings past 20,000 are
// spilled to files as they are found (audit/batch.Spool) and written from
// there: the file is audited within the memory its document takes.

// huge writes the capture of n URLS keys, each a finding, as huge.pdf,
// and a directory tmp for TMPDIR.
func huge(n int, args ...string) func(dir string) ([]string, func(), error) {
	return func(dir string) ([]string, func(), error) {
		if err := os.Mkdir(filepath.Join(dir, "tmp"), 0o755); err != nil {
			return nil, nil, err
		}
		return append(args, "huge.pdf"), nil, Write(dir, "huge.pdf", pdfbuild.HugeObject(n))
	}
}

// emptyDir is a Check that dir's directory name holds nothing: no spilled
// finding left behind.
func emptyDir(name string) func(dir string) error {
	return func(dir string) error {
		left, err := os.ReadDir(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		if len(left) > 0 {
			return fmt.Errorf("%s holds %d files after the run, first %s", name, len(left), left[0].Name())
		}
		return nil
	}
}

func init() {
	Register(
		Case{
			Name:   "huge-findings-audit",
			Part:   Bounds,
			Setup:  huge(2000000, "audit", "--max-memory", "1GiB", "--timeout", "10m"),
			Env:    []string{"TMPDIR=tmp"},
			Exit:   1,
			Stdout: []string{`^huge\.pdf: warning WC-URLS-SOURCE: 1999990 more not shown`, `^1 file audited: 1 error, 2000002 warnings, 0 notes, 0 unreadable$`},
			Check:  emptyDir("tmp"),
			MaxCPU: 60 * time.Second, MaxRSS: 1 << 30,
			Slow: true,
			Before: "webcap-old, this case (--max-memory 1GiB): exit 4, huge.pdf unreadable (\"took more memory than --max-memory\"), 5.1 s CPU, 904 MB; " +
				"without --max-memory (24 times the file: 2.0 GiB): exit 4 at 1.8 GB; with --max-memory 5GiB: read, 19.6 s CPU, 3.0 GB",
		},
		Case{
			Name:   "many-findings-jsonl-spilled",
			Part:   Bounds,
			Setup:  huge(50000, "audit", "--jsonl"),
			Env:    []string{"TMPDIR=tmp"},
			Exit:   1,
			Stdout: []string{`^\{"schema":"webcap.audit-file/1","input":"huge.pdf",.*"message":"URLS key \\"http://www.example.com/00049999.html\\" names none.*"jhoveStatus":"Well-Formed, but not valid"\}$`},
			Check:  emptyDir("tmp"),
			MaxRSS: 256 << 20,
			Before: "webcap-old, this case: the same 12.6 MB line, 1.3 s CPU, 87 MB (every finding held, three times: 3.0 GB at 2,000,000); " +
				"it passes there too: the case keeps the spilled line byte for byte and the spool's files removed",
		},
	)
}
