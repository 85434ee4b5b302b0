package hostile

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/webcap/webcap/internal/proctree"

	"github.com/webcap/webcap/seeds"
)

// Issue 29's many-sites leftovers (capture --urls-from LIST --out-dir DIR).
//
// capture-many-output-exists: a list captured once, run again without
// --resume or --force (its last seed's PDF is there). Every seed's outputs
// are now checked before a worker, a Chromium or a request starts: a
// usage error naming the list's line and the file, nothing fetched or
// written. Before, the run started Chromium, captured the seeds before
// that one, then failed it (exit 3).
//
// capture-many-browser-killed: the worker's Chromium is killed (SIGKILL,
// as the kernel's OOM killer does) while the second of four seeds is held
// by the server. That seed fails, saying so, nothing written (--resume
// captures it again); the worker starts another Chromium for the next
// seeds, which are captured. Before, every later seed of the worker
// failed with the dead browser.
//
// capture-many-jsonl-ordered: --workers 2 --jsonl --ordered over three
// seeds, the first held by the server until the third is asked for (so
// after the second is done): the lines come in list order, as audit's
// --ordered gives them (batch.Run decides for both). Before, there was
// no --ordered, and the lines came as each seed was done.

func init() {
	const list = "list.txt"
	var asked atomic.Int64 // requests the server of capture-many-output-exists saw
	Register(Case{Name: "capture-many-output-exists", Part: Outputs,
		Setup: func(dir string) ([]string, func(), error) {
			asked.Store(0)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				asked.Add(1)
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprint(w, "<!doctype html><title>p</title><p>A page.")
			}))
			text := srv.URL + "/p1.html\n" + srv.URL + "/p2.html\n" + srv.URL + "/p3.html\n"
			if err := Write(dir, "out/"+seeds.Name(srv.URL+"/p3.html")+".pdf", []byte("%PDF-1.7 of an earlier run\n")); err != nil {
				return nil, nil, err
			}
			return []string{"capture", "--urls-from", list, "--out-dir", "out", "--wait-idle", "50ms"}, srv.Close, Write(dir, list, []byte(text))
		},
		Exit:   2,
		Stderr: []string{`capture: --urls-from list\.txt:3: out/127\.0\.0\.1-\d+-p3\.html-[0-9a-f]{16}\.pdf: exists \(--resume keeps it when complete, --force replaces it\)`},
		Check: func(dir string) error {
			if n := asked.Load(); n > 0 {
				return fmt.Errorf("%d requests reached the server", n)
			}
			pdfs, _ := filepath.Glob(filepath.Join(dir, "out", "*.pdf"))
			if len(pdfs) != 1 {
				return fmt.Errorf("%d PDFs in out, want the one there before", len(pdfs))
			}
			b, err := os.ReadFile(pdfs[0])
			if err != nil || string(b) != "%PDF-1.7 of an earlier run\n" {
				return fmt.Errorf("%s changed (%v)", pdfs[0], err)
			}
			return nil
		},
		MaxCPU: cpuQuick, MaxRSS: 96 << 20,
		Before: "exit 3, 0.94 s CPU, 219 MB (tree 267 MB), 4.4 s wall: Chromium started, seeds 1-2 fetched and captured into out/, then seed 3 failed: exists (WEBCAP_HOSTILE_BEFORE=/work/webcap-old; by hand, 3.5-4.7 s wall in 3 runs)"})
}

// killBrowsers kills (SIGKILL) the Chromium browser processes under this
// process that run in dir (those of the case's webcap: cases run side by
// side), not their renderers and helpers (which have --type=; Chromium
// writes its command line as one string), and says how many.
func killBrowsers(dir string) int {
	dir, _ = filepath.EvalSymlinks(dir)
	n := 0
	for _, pid := range proctree.Tree(os.Getpid())[1:] {
		line := strings.Join(proctree.Args(pid), " ")
		cwd, _ := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "cwd"))
		if strings.Contains(line, "chrom") && !strings.Contains(line, "--type=") && cwd == dir &&
			syscall.Kill(pid, syscall.SIGKILL) == nil {
			n++
		}
	}
	return n
}

func init() {
	const list = "list.txt"
	var killed atomic.Int64
	var urls []string
	Register(Case{Name: "capture-many-browser-killed", Part: Bounds, Browser: true,
		Setup: func(dir string) ([]string, func(), error) {
			killed.Store(-1)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/hold.html" && killed.CompareAndSwap(-1, 0) {
					killed.Store(int64(killBrowsers(dir))) // answered once Chromium is killed
				}
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprintf(w, "<!doctype html><title>%s</title><p>Page %s.", r.URL.Path, r.URL.Path)
			}))
			urls = []string{srv.URL + "/one.html", srv.URL + "/hold.html", srv.URL + "/three.html", srv.URL + "/four.html"}
			return []string{"capture", "--urls-from", list, "--out-dir", "out", "--wait-idle", "50ms"}, srv.Close, Write(dir, list, []byte(strings.Join(urls, "\n")+"\n"))
		},
		Exit: 3,
		Stderr: []string{
			`capture: \[2/4\] http://127\.0\.0\.1:\d+/hold\.html: failed: Chromium exited \(signal: killed\) while the seed was captured: nothing written \(the next seed starts another; --resume captures this one again\)`,
			`capture: \[3/4\] http://127\.0\.0\.1:\d+/three\.html: captured, 1 page set`,
			`capture: \[4/4\] http://127\.0\.0\.1:\d+/four\.html: captured, 1 page set`,
		},
		Check: func(dir string) error {
			if n := killed.Load(); n != 1 {
				return fmt.Errorf("%d Chromium browser processes killed, want 1", n)
			}
			if _, err := os.Lstat(filepath.Join(dir, "out", seeds.Name(urls[1])+".pdf")); !os.IsNotExist(err) {
				return fmt.Errorf("the held seed's PDF: %v, want none", err)
			}
			return pdfsIn("out", urls[0], urls[2], urls[3])(dir)
		},
		MaxCPU: 60e9, MaxTree: 3 << 30,
		Before: "exit 1, 0.84 s CPU, 219 MB (tree 257 MB): the held seed and both after it failed, \"no page could be captured ... browser process exited: signal: killed: context canceled\" (WEBCAP_HOSTILE_BEFORE=/work/webcap-old)"})
}

func init() {
	const list = "list.txt"
	Register(Case{Name: "capture-many-jsonl-ordered", Part: Outputs, Browser: true,
		Setup: func(dir string) ([]string, func(), error) {
			third := make(chan struct{})
			var once atomic.Bool
			release := func() {
				if once.CompareAndSwap(false, true) {
					close(third)
				}
			}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/hold.html":
					<-third // the other worker is done with two.html
				case "/three.html":
					release()
				}
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprintf(w, "<!doctype html><title>%s</title><p>Page %s.", r.URL.Path, r.URL.Path)
			}))
			text := srv.URL + "/hold.html\n" + srv.URL + "/two.html\n" + srv.URL + "/three.html\n"
			// The cleanup releases hold.html too, whatever webcap did.
			return []string{"capture", "--urls-from", list, "--out-dir", "out", "--workers", "2", "--jsonl", "--ordered", "--wait-idle", "50ms"},
				func() { release(); srv.Close() }, Write(dir, list, []byte(text))
		},
		Exit: 0,
		Stdout: []string{`\A\{[^\n]*"seed":"http://127\.0\.0\.1:\d+/hold\.html","line":1,[^\n]*"status":"captured"[^\n]*\n` +
			`\{[^\n]*"line":2,[^\n]*"status":"captured"[^\n]*\n\{[^\n]*"line":3,[^\n]*"status":"captured"[^\n]*\n\z`},
		Stderr: []string{`capture: \[1/3\] http://127\.0\.0\.1:\d+/two\.html: captured`}, // progress: as each is done
		MaxCPU: 60e9, MaxTree: 3 << 30,
		Before: "exit 2, 0.01 s CPU, 62 MB: webcap: capture: unknown flag: --ordered (WEBCAP_HOSTILE_BEFORE=/work/webcap-old); without it, lines came as each seed was done, as they still do by default"})
}
