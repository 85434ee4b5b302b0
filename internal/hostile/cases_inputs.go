//go:build unix

package hostile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// The inputs part: every file a command reads is a regular file of a
// bounded size (internal/limits), checked before it is opened (a named
// pipe blocked open(2) for ever, and TERM did not end it) and before it is
// read (a link to /dev/zero, or a sparse file, was read until memory ran
// out). Then the bounds on the run: one deadline (--timeout) and one
// memory ceiling (--max-memory) over the whole of info, id, lookup, fix,
// build and audit --in-process, on files whose reading is long or large
// whatever the machine's speed (20,000 pages: about 1.4 s of CPU and 200
// MB, against --timeout 100ms and --max-memory 64MiB).
//
// Before is what webcap did at 288621d (measured on the 2-core machine,
// the hung ones killed after 5 s: they had taken no CPU).

// hungBefore is Before of the cases whose input is a named pipe.
const hungBefore = "hung in open(2) until killed (5 s, no CPU; TERM did not stop it)"

// inputSetup writes the capture sample to cap.pdf, makes pipe.* named
// pipes, zero.pdf a link to /dev/zero and sparse.pdf a 3 GiB sparse file
// (no byte written), each when named in files, and the other files given,
// then runs webcap with args.
func inputSetup(files map[string]string, args ...string) func(dir string) ([]string, func(), error) {
	return func(dir string) ([]string, func(), error) {
		for name, content := range files {
			var err error
			switch content {
			case "fifo":
				err = fifo(dir, name)
			case "zero":
				err = os.Symlink("/dev/zero", filepath.Join(dir, name))
			case "sparse":
				err = sparse(filepath.Join(dir, name), 3<<30)
			case "capture":
				var b []byte
				if b, err = pdfbuild.Sample("capture"); err == nil {
					err = Write(dir, name, b)
				}
			case "large":
				err = writeLargeCapture(filepath.Join(dir, name), largePages)
			case "larger": // (20,000 pages are read, and audited, within 64 MiB since i30mem)
				err = writeLargeCapture(filepath.Join(dir, name), 2*largePages)
			default:
				err = Write(dir, name, []byte(content))
			}
			if err != nil {
				return nil, nil, err
			}
		}
		return args, nil, nil
	}
}

func sparse(path string, size int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := f.Truncate(size); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// largePages is the size of the file of the deadline and memory cases
// (writeLargeCapture, 10 MB): reading its 20,000 pages takes about a
// second of CPU and 200 MB.
const largePages = 20000

// manifest is a build manifest adding one page set to input, from
// page.html.
func manifest(input string) string {
	return fmt.Sprintf(`{"input": %q, "pageSets": [{"pages": "1", "url": "http://a.example/", "source": "page.html"}]}`, input)
}

const pageHTML = "<html><body>a page</body></html>"

func init() {
	pipe := map[string]string{"pipe.pdf": "fifo"}
	Register(
		Case{Name: "fifo-info", Part: Inputs, Setup: inputSetup(pipe, "info", "pipe.pdf"), Exit: 3,
			Stderr: []string{`^webcap: info: pipe\.pdf: is a FIFO, not a regular file$`},
			Check:  isType("pipe.pdf", fs.ModeNamedPipe), MaxCPU: cpuQuick, Before: hungBefore},
		Case{Name: "fifo-id", Part: Inputs, Setup: inputSetup(pipe, "id", "pipe.pdf"), Exit: 3,
			Stderr: []string{`^webcap: id: pipe\.pdf: is a FIFO, not a regular file$`},
			Check:  isType("pipe.pdf", fs.ModeNamedPipe), MaxCPU: cpuQuick, Before: hungBefore},
		Case{Name: "fifo-lookup", Part: Inputs, Setup: inputSetup(pipe, "lookup", "pipe.pdf", "http://a.example/"), Exit: 3,
			Stderr: []string{`^webcap: lookup: pipe\.pdf: is a FIFO, not a regular file$`},
			Check:  isType("pipe.pdf", fs.ModeNamedPipe), MaxCPU: cpuQuick, Before: hungBefore},
		Case{Name: "fifo-fix", Part: Inputs, Setup: inputSetup(pipe, "fix", "pipe.pdf", "-o", "out.pdf"), Exit: 3,
			Stderr: []string{`^webcap: fix: pipe\.pdf: is a FIFO, not a regular file$`},
			Check:  All(isType("pipe.pdf", fs.ModeNamedPipe), Absent("out.pdf")), MaxCPU: cpuQuick, Before: hungBefore},
		Case{Name: "fifo-audit-in-process", Part: Inputs, Setup: inputSetup(pipe, "audit", "--in-process", "pipe.pdf"), Exit: 3,
			Stdout: []string{`^pipe\.pdf: unreadable: is a FIFO, not a regular file$`},
			Check:  isType("pipe.pdf", fs.ModeNamedPipe), MaxCPU: cpuQuick, Before: hungBefore},
		Case{Name: "fifo-audit", Part: Inputs, Setup: inputSetup(pipe, "audit", "pipe.pdf"), Exit: 3,
			Stdout: []string{`^pipe\.pdf: unreadable: is a FIFO, not a regular file$`},
			Check:  isType("pipe.pdf", fs.ModeNamedPipe), Before: hungBefore + " (in its worker)"},
		Case{Name: "fifo-build-manifest", Part: Inputs, Setup: inputSetup(map[string]string{"pipe.json": "fifo"}, "build", "pipe.json", "-o", "out.pdf"), Exit: 3,
			Stderr: []string{`^webcap: build: pipe\.json: is a FIFO, not a regular file$`},
			Check:  All(isType("pipe.json", fs.ModeNamedPipe), Absent("out.pdf")), MaxCPU: cpuQuick, Before: hungBefore},
		Case{Name: "fifo-build-input", Part: Inputs,
			Setup: inputSetup(map[string]string{"pipe.pdf": "fifo", "m.json": manifest("pipe.pdf"), "page.html": pageHTML}, "build", "m.json", "-o", "out.pdf"), Exit: 3,
			Stderr: []string{`^webcap: build: pipe\.pdf: is a FIFO, not a regular file$`},
			Check:  All(isType("pipe.pdf", fs.ModeNamedPipe), Absent("out.pdf")), MaxCPU: cpuQuick, Before: hungBefore},
		Case{Name: "fifo-aux-manifest", Part: Inputs, Setup: inputSetup(map[string]string{"pipe.json": "fifo", "cap.pdf": "capture"}, "id", "--aux", "pipe.json", "cap.pdf"), Exit: 3,
			Stderr: []string{`^webcap: id: --aux pipe\.json: is a FIFO, not a regular file$`},
			Check:  isType("pipe.json", fs.ModeNamedPipe), MaxCPU: cpuQuick, Before: hungBefore},
		Case{Name: "fifo-sources-audit", Part: Inputs, Setup: inputSetup(map[string]string{"pipe.json": "fifo", "cap.pdf": "capture"}, "audit", "--sources", "pipe.json", "cap.pdf"), Exit: 3,
			Stderr: []string{`^webcap: audit: --sources pipe\.json: is a FIFO, not a regular file$`},
			Check:  isType("pipe.json", fs.ModeNamedPipe), MaxCPU: cpuQuick, Before: hungBefore},
		Case{Name: "fifo-report", Part: Inputs, Setup: inputSetup(map[string]string{"pipe.jsonl": "fifo"}, "report", "pipe.jsonl"), Exit: 3,
			Stderr: []string{`^webcap: report: pipe\.jsonl: is a FIFO, not a regular file$`},
			Check:  isType("pipe.jsonl", fs.ModeNamedPipe), MaxCPU: cpuQuick, Before: hungBefore},
		// A password file may be a pipe (<(pass show x)): one no program
		// writes to reads as empty, and the file needs none.
		Case{Name: "fifo-password-file", Part: Inputs, Setup: inputSetup(map[string]string{"pw": "fifo", "cap.pdf": "capture"}, "info", "--password-file", "pw", "cap.pdf"), Exit: 0,
			Stdout: []string{`^cap\.pdf: PDF `}, Check: isType("pw", fs.ModeNamedPipe), MaxCPU: cpuQuick, Before: hungBefore},

		Case{Name: "zero-info", Part: Inputs, Setup: inputSetup(map[string]string{"zero.pdf": "zero"}, "info", "zero.pdf"), Exit: 3,
			Stderr: []string{`^webcap: info: zero\.pdf: is a character device, not a regular file$`}, MaxCPU: cpuQuick, MaxRSS: rssQuick,
			Before: "exit 3 already (pdfio.Open stat'ed the file after opening it)"},
		Case{Name: "zero-id", Part: Inputs, Setup: inputSetup(map[string]string{"zero.pdf": "zero"}, "id", "zero.pdf"), Exit: 3,
			Stderr: []string{`^webcap: id: zero\.pdf: is a character device, not a regular file$`}, MaxCPU: cpuQuick, MaxRSS: rssQuick,
			Before: "read /dev/zero until killed: 3.2 GB after 5 s"},
		Case{Name: "zero-fix", Part: Inputs, Setup: inputSetup(map[string]string{"zero.pdf": "zero"}, "fix", "zero.pdf", "-o", "out.pdf"), Exit: 3,
			Stderr: []string{`^webcap: fix: zero\.pdf: is a character device, not a regular file$`}, Check: Absent("out.pdf"), MaxCPU: cpuQuick, MaxRSS: rssQuick,
			Before: "read /dev/zero until killed: 3.4 GB after 5 s"},
		// A link out of the manifest's directory is refused as such
		// (part Confine); allowed out, /dev/zero is still no regular file.
		Case{Name: "zero-build-input", Part: Inputs,
			Setup: inputSetup(map[string]string{"zero.pdf": "zero", "m.json": manifest("zero.pdf"), "page.html": pageHTML}, "build", "m.json", "-o", "out.pdf"), Exit: 4,
			Stderr: []string{`^webcap: build: m\.json: input: zero\.pdf: leads to /dev/zero, outside \.: refused`}, Check: Absent("out.pdf"), MaxCPU: cpuQuick, MaxRSS: rssQuick,
			Before: "read /dev/zero until killed: 1.8 GB after 5 s"},
		Case{Name: "zero-build-input-allowed", Part: Inputs,
			Setup: inputSetup(map[string]string{"zero.pdf": "zero", "m.json": manifest("zero.pdf"), "page.html": pageHTML}, "build", "--allow-outside", "m.json", "-o", "out.pdf"), Exit: 3,
			Stderr: []string{`^webcap: build: zero\.pdf: is a character device, not a regular file$`}, Check: Absent("out.pdf"), MaxCPU: cpuQuick, MaxRSS: rssQuick,
			Before: "read /dev/zero until killed: 1.8 GB after 5 s"},
		Case{Name: "zero-audit", Part: Inputs, Setup: inputSetup(map[string]string{"zero.pdf": "zero"}, "audit", "zero.pdf"), Exit: 3,
			Stdout: []string{`^zero\.pdf: unreadable: is a character device, not a regular file$`},
			Before: "exit 3 already (pdfio.Open stat'ed the file after opening it)"},
		Case{Name: "zero-audit-in-process", Part: Inputs, Setup: inputSetup(map[string]string{"zero.pdf": "zero"}, "audit", "--in-process", "zero.pdf"), Exit: 3,
			Stdout: []string{`^zero\.pdf: unreadable: is a character device, not a regular file$`}, MaxCPU: cpuQuick, MaxRSS: rssQuick,
			Before: "exit 3 already (pdfio.Open stat'ed the file after opening it)"},

		Case{Name: "sparse-fix", Part: Inputs, Setup: inputSetup(map[string]string{"sparse.pdf": "sparse"}, "fix", "sparse.pdf", "-o", "out.pdf"), Exit: 4,
			Stderr: []string{`^webcap: fix: sparse\.pdf: file too large: 3221225472 bytes, more than 2147483648 \(--max-file-size\)$`},
			Check:  Absent("out.pdf"), MaxCPU: cpuQuick, MaxRSS: rssQuick,
			Before: "read the 3 GiB file whole (0.9 GB after 6 s, killed)"},
		Case{Name: "sparse-id", Part: Inputs, Setup: inputSetup(map[string]string{"sparse.pdf": "sparse"}, "id", "sparse.pdf"), Exit: 4,
			Stderr: []string{`^webcap: id: sparse\.pdf: file too large: 3221225472 bytes, more than 2147483648 \(--max-file-size\)$`},
			MaxCPU: cpuQuick, MaxRSS: rssQuick, Before: "read the 3 GiB file whole (1.9 GB after 6 s, killed)"},
		Case{Name: "sparse-build-input", Part: Inputs,
			Setup: inputSetup(map[string]string{"sparse.pdf": "sparse", "m.json": manifest("sparse.pdf"), "page.html": pageHTML}, "build", "m.json", "-o", "out.pdf"), Exit: 4,
			Stderr: []string{`^webcap: build: sparse\.pdf: file too large: 3221225472 bytes, more than 2147483648 \(--max-file-size\)$`},
			Check:  Absent("out.pdf"), MaxCPU: cpuQuick, MaxRSS: rssQuick,
			Before: "read the 3 GiB file whole (2.5 GB after 6 s, killed)"},
		Case{Name: "sparse-audit", Part: Inputs, Setup: inputSetup(map[string]string{"sparse.pdf": "sparse"}, "audit", "sparse.pdf"), Exit: 4,
			Stdout: []string{`^sparse\.pdf: unreadable: file too large: 3221225472 bytes, more than 2147483648 \(--max-file-size\)$`},
			Before: "exit 4 already (pdfio.Open's size check)"},
		Case{Name: "max-file-size-info", Part: Inputs, Setup: inputSetup(map[string]string{"cap.pdf": "capture"}, "info", "--max-file-size", "1KiB", "cap.pdf"), Exit: 4,
			Stderr: []string{`^webcap: info: cap\.pdf: file too large: \d+ bytes, more than 1024 \(--max-file-size\)$`}, MaxCPU: cpuQuick, MaxRSS: rssQuick,
			Before: "no --max-file-size (exit 2, unknown flag); the limit was 2 GiB, in pdfio.Open only"},
	)
	big := map[string]string{"big.pdf": "large"}
	Register(
		Case{Name: "deadline-info", Part: Bounds, Setup: inputSetup(big, "info", "--timeout", "100ms", "big.pdf"), Exit: 4,
			Stderr: []string{`^webcap: info: big\.pdf: took longer than --timeout 100ms$`}, NotStdout: []string{`.`}, MaxCPU: cpuStopped,
			Before: "no --timeout (exit 2, unknown flag); read to the end in 1.35 s of CPU, 195 MB"},
		Case{Name: "deadline-fix", Part: Bounds, Setup: inputSetup(big, "fix", "--timeout", "100ms", "big.pdf", "-o", "out.pdf"), Exit: 4,
			Stderr: []string{`^webcap: fix: big\.pdf: took longer than --timeout 100ms$`}, Check: Absent("out.pdf"), MaxCPU: cpuStopped,
			Before: "no --timeout (exit 2, unknown flag); ran to the end in 1.65 s of CPU, 220 MB"},
		Case{Name: "deadline-build", Part: Bounds,
			Setup: inputSetup(map[string]string{"big.pdf": "large", "m.json": manifest("big.pdf"), "page.html": pageHTML}, "build", "--timeout", "100ms", "m.json", "-o", "out.pdf"), Exit: 4,
			Stderr: []string{`^webcap: build: big\.pdf: took longer than --timeout 100ms$`}, Check: Absent("out.pdf"), MaxCPU: cpuStopped,
			Before: "no --timeout (exit 2, unknown flag); ran to the end in 1.75 s of CPU, 226 MB"},
		Case{Name: "deadline-lookup", Part: Bounds, Setup: inputSetup(big, "lookup", "--timeout", "100ms", "big.pdf", "http://a.example/"), Exit: 4,
			Stderr: []string{`^webcap: lookup: big\.pdf: took longer than --timeout 100ms$`}, MaxCPU: cpuStopped,
			Before: "no --timeout (exit 2, unknown flag); ran to the end in 1.65 s of CPU, 210 MB"},
		Case{Name: "deadline-audit-in-process", Part: Bounds, Setup: inputSetup(big, "audit", "--in-process", "--timeout", "100ms", "big.pdf"), Exit: 4,
			Stdout: []string{`^big\.pdf: unreadable: took longer than --timeout 100ms$`}, MaxCPU: cpuStopped,
			Before: "exit 4 already, but --timeout bounded pdfcpu's parse only, not the walk and the rules"},
		Case{Name: "memory-info", Part: Bounds, Setup: inputSetup(map[string]string{"big.pdf": "larger"}, "info", "--max-memory", "64MiB", "big.pdf"), Exit: 4,
			Stderr: []string{`^webcap: info: big\.pdf: took more memory than --max-memory 64 MiB$`}, MaxRSS: rssStopped,
			Before: "no --max-memory (exit 2, unknown flag); read in 195 MB"},
		Case{Name: "memory-fix", Part: Bounds, Setup: inputSetup(big, "fix", "--max-memory", "64MiB", "big.pdf", "-o", "out.pdf"), Exit: 4,
			Stderr: []string{`^webcap: fix: big\.pdf: took more memory than --max-memory 64 MiB$`}, Check: Absent("out.pdf"), MaxRSS: rssStopped,
			Before: "no --max-memory (exit 2, unknown flag); ran in 220 MB"},
		Case{Name: "memory-audit-in-process", Part: Bounds, Setup: inputSetup(map[string]string{"big.pdf": "larger"}, "audit", "--in-process", "--max-memory", "64MiB", "big.pdf"), Exit: 4,
			Stderr: []string{`^webcap: audit: took more memory than --max-memory 64 MiB$`}, MaxRSS: rssStopped,
			Before: "--max-memory bounded audit's workers only: exit 0 in 222 MB"},
	)
}

// Bounds of the cases: a refusal before any read takes next to nothing;
// a run stopped by its deadline takes a fraction of the second its file
// needs; one stopped at 64 MiB of heap stays well under the 200 MB the
// file needs (the runtime and pdfcpu's buffers besides the Go heap).
const (
	cpuQuick   = 2e9 // 2 s: webcap's start, on a shared machine
	rssQuick   = 100 << 20
	cpuStopped = 1e9 // 1 s
	rssStopped = 150 << 20
)
