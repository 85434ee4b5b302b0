package hostile

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
)

// Issue 29's speed target: a capture of a small static site costs near
// what the browser alone costs to print it (bench/capture-cpu.sh measures
// the ratio; this case bounds the CPU of webcap's own process and the
// Chromium processes it reaps, as wait4 reports them).
//
// capture-cpu-static-site: 12 pages, each with a style sheet, an image
// and 4 KB of text, linked from an index, captured with --jobs 1. Before,
// webcap's memory watchdog read all of /proc every 250 ms, and each tab
// kept chromedp's DOM and CSS agents on, mirroring every node and style
// sheet to webcap.

// staticSite serves an index linking to n-1 pages.
func staticSite(n int) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/style.css", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css")
		fmt.Fprint(w, "body { font-family: serif; max-width: 40em; margin: 2em auto } h1 { color: #036 } img { width: 120px }")
	})
	mux.HandleFunc("/logo.gif", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/gif")
		w.Write([]byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"))
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		var i int
		if r.URL.Path != "/" {
			if _, err := fmt.Sscanf(r.URL.Path, "/p%d.html", &i); err != nil || i < 1 || i >= n {
				http.NotFound(w, r)
				return
			}
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>Page %d</title><link rel=stylesheet href=/style.css><h1>Page %d</h1><img src=/logo.gif alt=logo><p>%s</p>`,
			i, i, strings.Repeat("Some text of the page, in a paragraph. ", 100))
		if i == 0 {
			for k := 1; k < n; k++ {
				fmt.Fprintf(w, `<a href="/p%d.html">Page %d</a> `, k, k)
			}
		}
	})
	return mux
}

func init() {
	Register(Case{Name: "capture-cpu-static-site", Part: Bounds, Browser: true,
		Setup: func(dir string) ([]string, func(), error) {
			srv := httptest.NewServer(staticSite(12))
			return []string{"capture", "--levels", "2", "--jobs", "1", "--ignore-robots", srv.URL + "/", "-o", "out.pdf"}, srv.Close, nil
		},
		Exit:    0,
		Stdout:  []string{`12 pages captured`},
		Check:   nonEmpty("out.pdf"),
		MaxCPU:  5e9, // 2.8-3.0 s since issue 29's third pass (3.5-3.9 s before it, same machine, same hour): a polling loop or a re-parse per page passes it
		MaxTree: 3 << 30,
		Before:  "exit 0, 2.56-2.82 s CPU (webcap and the Chromium processes it reaped), 219 MB (tree 296 MB); now 2.53-2.62 s: wait4 misses the processes that outlive Chromium's browser process, bench/capture-cpu.sh counts them"})
}
