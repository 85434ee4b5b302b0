package hostile

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/webcap/webcap/seeds"
)

// Issue 29's many sites: capture --urls-from LIST --out-dir DIR. The list
// is an input like any (bounded lines, text only, checked whole before
// Chromium starts, errors naming the list and the line); a seed names its
// outputs only inside DIR; DIR is a directory, never a file or a link to
// an input; --resume redoes what is damaged and never writes through a
// link. Before: the session-start binary had no --urls-from.

// manyBefore is what the session-start binary said to every case here
// (measured: /work/webcap-old capture --urls-from LIST --out-dir out).
const manyBefore = "exit 2, 0.03 s, 19 MB: webcap: capture: unknown flag --urls-from (no list read, nothing captured)"

// manySite serves a small page at every path, and says which paths were
// asked for.
func manySite() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><title>%s</title><p>Path %s.</p>", r.URL.Path, r.URL.Path)
	}))
}

// pdfsIn is a Check that dir/sub holds exactly the PDFs of the seeds
// (by seeds.Name), each a PDF, and that nothing else of the case's
// directory but the list and sub exists.
func pdfsIn(sub string, seedURLs ...string) func(dir string) error {
	return func(dir string) error {
		for _, u := range seedURLs {
			b, err := os.ReadFile(filepath.Join(dir, sub, seeds.Name(u)+".pdf"))
			if err != nil {
				return err
			}
			if !bytes.HasPrefix(b, []byte("%PDF-")) {
				return fmt.Errorf("%s: not a PDF", seeds.Name(u))
			}
		}
		got, _ := filepath.Glob(filepath.Join(dir, sub, "*.pdf"))
		if len(got) != len(seedURLs) {
			return fmt.Errorf("%d PDFs in %s, want %d", len(got), sub, len(seedURLs))
		}
		top, _ := os.ReadDir(dir)
		for _, e := range top {
			if e.Name() != sub && e.Name() != "list.txt" {
				return fmt.Errorf("%s written outside %s", e.Name(), sub)
			}
		}
		return nil
	}
}

func init() {
	const list = "list.txt"
	listed := func(text string) func(dir string) ([]string, func(), error) {
		return func(dir string) ([]string, func(), error) {
			return []string{"capture", "--urls-from", list, "--out-dir", "out"}, nil, Write(dir, list, []byte(text))
		}
	}
	Register(
		Case{Name: "capture-many-long-line", Part: Inputs,
			Setup: func(dir string) ([]string, func(), error) {
				f, err := os.Create(filepath.Join(dir, list))
				if err != nil {
					return nil, nil, err
				}
				defer f.Close()
				f.WriteString("http://127.0.0.1:1/")
				chunk := bytes.Repeat([]byte("a"), 1<<20)
				for range 100 { // a 100 MB line
					if _, err := f.Write(chunk); err != nil {
						return nil, nil, err
					}
				}
				return []string{"capture", "--urls-from", list, "--out-dir", "out"}, nil, nil
			},
			Exit: 2, Stderr: []string{`--urls-from list\.txt:1: longer than 16384 bytes`},
			Check:  Absent("out"),
			MaxCPU: cpuQuick, MaxRSS: 96 << 20,
			Before: manyBefore},
		Case{Name: "capture-many-nul", Part: Inputs,
			Setup: listed("http://127.0.0.1:1/\nhttp://127.0.0.1:2/\x00\x00\x00\n"),
			Exit:  2, Stderr: []string{`--urls-from list\.txt:2: a NUL byte: not a text list`},
			Check: Absent("out"), MaxCPU: cpuQuick,
			Before: manyBefore},
		Case{Name: "capture-many-duplicate-seed", Part: Inputs,
			Setup: listed("http://127.0.0.1:1/a\n# again, with other flags\nhttp://127.0.0.1:1/a --levels 2\n"),
			Exit:  2, Stderr: []string{`list\.txt:3: http://127\.0\.0\.1:1/a: the seed of line 1 again`},
			Check: Absent("out"), MaxCPU: cpuQuick,
			Before: manyBefore},
		// A million seeds, the last line bad: every line is read and
		// checked (canonicalized) before anything starts, in bounded
		// memory (about 150 bytes a seed kept).
		Case{Name: "capture-many-million-lines", Part: Bounds, Slow: true,
			Setup: func(dir string) ([]string, func(), error) {
				var b strings.Builder
				for i := range 999_999 {
					fmt.Fprintf(&b, "http://s%d.example/p/%d --levels 2\n", i%977, i)
				}
				b.WriteString("http://bad.example/ --levels 0\n")
				return []string{"capture", "--urls-from", list, "--out-dir", "out"}, nil, Write(dir, list, []byte(b.String()))
			},
			Exit: 2, Stderr: []string{`list\.txt:1000000: --levels 0: 1 captures the start page only`},
			Check:  Absent("out"),
			MaxCPU: 15e9, MaxRSS: 450 << 20,
			Before: "exit 2, 0.46 s, 19 MB: webcap: capture: unknown flag --urls-from (no list read)"},
		Case{Name: "capture-many-out-dir-file", Part: Outputs,
			Setup: func(dir string) ([]string, func(), error) {
				if err := Write(dir, "out", []byte("keep me")); err != nil {
					return nil, nil, err
				}
				return []string{"capture", "--urls-from", list, "--out-dir", "out"}, nil, Write(dir, list, []byte("http://127.0.0.1:1/\n"))
			},
			Exit: 2, Stderr: []string{`capture: out: not a directory`},
			Check: Unchanged("out", []byte("keep me")), MaxCPU: cpuQuick,
			Before: manyBefore},
		Case{Name: "capture-many-out-dir-link-to-input", Part: Outputs,
			Setup: func(dir string) ([]string, func(), error) {
				if err := os.Symlink(list, filepath.Join(dir, "out")); err != nil {
					return nil, nil, err
				}
				return []string{"capture", "--urls-from", list, "--out-dir", "out"}, nil, Write(dir, list, []byte("http://127.0.0.1:1/\n"))
			},
			Exit: 2, Stderr: []string{`capture: out: not a directory`},
			Check: Unchanged(list, []byte("http://127.0.0.1:1/\n")), MaxCPU: cpuQuick,
			Before: manyBefore},
		// A seed's output already there as a link to an input: --resume
		// does not take it for a capture, and nothing is written through
		// it (found before Chromium starts).
		Case{Name: "capture-many-output-link-to-input", Part: Outputs,
			Setup: func(dir string) ([]string, func(), error) {
				seed := "http://127.0.0.1:1/"
				if err := os.Mkdir(filepath.Join(dir, "out"), 0o755); err != nil {
					return nil, nil, err
				}
				if err := os.Symlink("../"+list, filepath.Join(dir, "out", seeds.Name(seed)+".pdf")); err != nil {
					return nil, nil, err
				}
				return []string{"capture", "--urls-from", list, "--out-dir", "out", "--resume", "--jsonl"}, nil, Write(dir, list, []byte(seed+"\n"))
			},
			Exit:   2,
			Stderr: []string{`list\.txt:1: out/127\.0\.0\.1-1-[0-9a-f]{16}\.pdf: a symbolic link, not a regular file: not replaced`},
			Check:  Unchanged(list, []byte("http://127.0.0.1:1/\n")), MaxCPU: cpuQuick,
			Before: manyBefore},
	)
	// Seeds whose slugs collide (a/b and a-b), and one that climbs out
	// (.. in its path, raw and percent-encoded): each PDF in out, under a
	// name of its own, nothing outside.
	var climb, slash, dash, pct string
	Register(Case{Name: "capture-many-names", Part: Outputs, Browser: true,
		Setup: func(dir string) ([]string, func(), error) {
			srv := manySite()
			climb, slash, dash, pct = srv.URL+"/../../etc", srv.URL+"/a/b", srv.URL+"/a-b", srv.URL+"/%2e%2e/%2e%2e/etc/passwd"
			text := strings.Join([]string{climb, slash, dash, pct}, "\n") + "\n"
			return []string{"capture", "--urls-from", list, "--out-dir", "out", "--jsonl", "--wait-idle", "50ms"}, srv.Close, Write(dir, list, []byte(text))
		},
		Exit:   0,
		Stdout: []string{`"seed":"http://127\.0\.0\.1:\d+/\.\./\.\./etc","line":1,"pdf":"out/127\.0\.0\.1-\d+-etc-[0-9a-f]{16}\.pdf"`},
		Check: func(dir string) error {
			if seeds.Name(slash) == seeds.Name(dash) {
				return errors.New("a/b and a-b have one name")
			}
			return pdfsIn("out", climb, slash, dash, pct)(dir)
		},
		MaxCPU: 60e9, MaxTree: 3 << 30,
		Before: manyBefore})
	// --resume over a damaged PDF (and the temporary file a killed run
	// left): the seed is captured again, the damage said.
	Register(Case{Name: "capture-many-resume-corrupt", Part: Outputs, Browser: true,
		Setup: func(dir string) ([]string, func(), error) {
			srv := manySite()
			seed := srv.URL + "/"
			name := seeds.Name(seed)
			if err := Write(dir, "out/"+name+".pdf", []byte("%PDF-1.7\n1 0 obj\n<< /Type /Catalog")); err != nil {
				return nil, nil, err
			}
			if err := Write(dir, "out/."+name+".pdf.1234.tmp", []byte("%PDF-1.7\n")); err != nil {
				return nil, nil, err
			}
			return []string{"capture", "--urls-from", list, "--out-dir", "out", "--resume", "--jsonl", "--wait-idle", "50ms"}, srv.Close, Write(dir, list, []byte(seed+"\n"))
		},
		Exit:   0,
		Stdout: []string{`"status":"captured","pages":1,"sets":1`, `"message":"redone: out/127\.0\.0\.1-\d+-[0-9a-f]{16}\.pdf: `},
		Check: func(dir string) error {
			tmps, _ := filepath.Glob(filepath.Join(dir, "out", ".*.tmp"))
			if len(tmps) > 0 {
				return fmt.Errorf("left: %v", tmps)
			}
			pdfs, _ := filepath.Glob(filepath.Join(dir, "out", "*.pdf"))
			if len(pdfs) != 1 {
				return fmt.Errorf("%d PDFs", len(pdfs))
			}
			b, err := os.ReadFile(pdfs[0])
			if err != nil || !bytes.Contains(b, []byte("%%EOF")) {
				return fmt.Errorf("%s not rewritten whole: %v", pdfs[0], err)
			}
			return nil
		},
		MaxCPU: 60e9, MaxTree: 3 << 30,
		Before: manyBefore})
}
