package hostile

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// A capture's WARC holds every answer the server sent (issue 28, item 1):
// robots.txt, a redirect chain (/old-news 301 → /news-archive 302 →
// /news) whose rendering joins the /news set captured before it, a 404
// image, a link to a 404 page, and an image fetched again. Before, only the renderings kept as
// pages were archived, and only the 200 answers of the files webcap
// fetched itself: the chain, robots.txt and the 404 webcap fetched were
// lost, and the archive could not back /old-news, a URLS key of the PDF.

// chainSite serves that site, logging each path it answers into the
// case's file "served" (one a line).
func chainSite(dir string) http.Handler {
	pages := map[string]string{
		"/index.html": `<!doctype html><title>Home</title><img src="/logo.gif"><img src="/gone.gif"><a href="/news">news</a> <a href="/old-news">old news</a> <a href="/missing">missing</a>`,
		"/news":       `<!doctype html><title>News</title><img src="/logo.gif"><p>News.</p>`,
		"/logo.gif":   "GIF89a\x01\x00\x01\x00\x00\x00\x00;",
		"/robots.txt": "User-agent: *\nDisallow: /private\n",
	}
	var mu sync.Mutex
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if f, err := os.OpenFile(filepath.Join(dir, "served"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			fmt.Fprintln(f, r.URL.Path)
			f.Close()
		}
		mu.Unlock()
		switch p := r.URL.Path; {
		case p == "/old-news":
			http.Redirect(w, r, "/news-archive", http.StatusMovedPermanently)
		case p == "/news-archive":
			http.Redirect(w, r, "/news", http.StatusFound)
		case pages[p] == "":
			http.NotFound(w, r)
		default:
			if strings.HasSuffix(p, ".gif") {
				w.Header().Set("Content-Type", "image/gif")
			}
			w.Header().Set("Cache-Control", "no-store")
			fmt.Fprint(w, pages[p])
		}
	})
}

// servedArchived is a Check that every path the server answered (the file
// "served") is a response or revisit record of the WARC name, as often.
func servedArchived(name string) func(dir string) error {
	return func(dir string) error {
		b, err := os.ReadFile(filepath.Join(dir, "served"))
		if err != nil {
			return err
		}
		served := strings.Fields(string(b))
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		defer f.Close()
		z, err := gzip.NewReader(f) // every member, one after the other
		if err != nil {
			return err
		}
		var archived []string
		typ := ""
		sc := bufio.NewScanner(z)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if v, ok := strings.CutPrefix(line, "WARC-Type: "); ok {
				typ = v
			}
			if v, ok := strings.CutPrefix(line, "WARC-Target-URI: "); ok && (typ == "response" || typ == "revisit") {
				if i := strings.Index(v, "://"); i >= 0 {
					if j := strings.IndexByte(v[i+3:], '/'); j >= 0 {
						archived = append(archived, v[i+3+j:])
					}
				}
				typ = ""
			}
		}
		if err := sc.Err(); err != nil {
			return err
		}
		slices.Sort(served)
		slices.Sort(archived)
		if !slices.Equal(served, archived) {
			return fmt.Errorf("the server answered %d requests (%s), the WARC holds %d responses and revisits (%s)",
				len(served), strings.Join(served, " "), len(archived), strings.Join(archived, " "))
		}
		return nil
	}
}

func init() {
	Register(Case{Name: "capture-warc-every-answer", Part: Loss, Browser: true,
		Setup: func(dir string) ([]string, func(), error) {
			srv := httptest.NewServer(chainSite(dir))
			return []string{"capture", "--json", "--levels", "2", "--wait-idle", "50ms", "--warc", "w.warc.gz", srv.URL + "/index.html", "-o", "out.pdf"},
				func() { srv.CloseClientConnections(); srv.Close() }, nil
		},
		Exit:    0,
		Check:   servedArchived("w.warc.gz"),
		MaxCPU:  60e9,
		MaxRSS:  1 << 30,
		MaxTree: 3 << 30,
		Before:  "exit 0, 1.25 s CPU, 227 MB: the server answered 12 requests, the WARC held 5 responses and revisits (missing /robots.txt, /old-news, /news-archive, the 2nd /news, /missing (a 404 page), the 2nd /gone.gif, the 3rd /logo.gif)"})
}
