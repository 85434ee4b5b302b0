package hostile

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"

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
		Before: "exit 3 after 3.5-4.7 s wall (3 runs), Chromium started, seeds 1-2 captured into out/, then seed 3 failed: exists (measured: /work/webcap-old capture --urls-from list.txt --out-dir o2 --wait-idle 50ms, 3 local pages, the third's PDF there)"})
}
