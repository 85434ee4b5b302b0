package cli

import (
	"crypto/md5"
	"encoding/hex"
	"image/color"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
)

// TestCaptureWARCComplete is issue 28's complete archive: a site with a
// redirect chain (/old-news 301 → /news-archive 302 → /news, linked
// after /news: its rendering joins the /news set captured before), a page
// whose image is a 404, a link to a 404 page, and an image two pages
// fetch (sent no-store), robots.txt read. The server's every answer is a response or revisit
// record of capture --warc (node-warc reads them), and id --warc follows
// the chain from /old-news to the /news set's identifier, MD5 computed
// here from the bytes the server sent.
func TestCaptureWARCComplete(t *testing.T) {
	browserSuite(t)
	node, err1 := exec.LookPath("node")
	npm, err2 := exec.LookPath("npm")
	if err1 != nil || err2 != nil {
		t.Skip("node or npm is not installed (apt-get install nodejs npm): the capture's WARC is not read by node-warc")
	}
	logo := gifOf(t, 3, 2, color.RGBA{200, 0, 0, 255})
	news := []byte(`<!DOCTYPE html><html><head><title>News</title></head><body><img src="/logo.gif"><p>News.</p></body></html>`)
	sent := map[string][]byte{
		"/index.html": []byte(`<!DOCTYPE html><html><head><title>Home</title></head><body><img src="/logo.gif"><img src="/gone.gif"><a href="/news">news</a> <a href="/old-news">old news</a> <a href="/missing">missing</a></body></html>`),
		"/news":       news,
		"/logo.gif":   logo,
		"/robots.txt": []byte("User-agent: *\nDisallow: /private\n"),
	}
	var mu sync.Mutex
	var logged []string // "METHOD path status", as the server answered
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		status := http.StatusOK
		defer func() {
			mu.Lock()
			logged = append(logged, r.Method+" "+r.URL.Path+" "+http.StatusText(status))
			mu.Unlock()
		}()
		switch p := r.URL.Path; {
		case p == "/old-news":
			status = http.StatusMovedPermanently
			http.Redirect(w, r, "/news-archive", status)
		case p == "/news-archive":
			status = http.StatusFound
			http.Redirect(w, r, "/news", status)
		case sent[p] == nil:
			status = http.StatusNotFound
			http.NotFound(w, r)
		default:
			switch {
			case strings.HasSuffix(p, ".gif"):
				w.Header().Set("Content-Type", "image/gif")
			case strings.HasSuffix(p, ".txt"):
				w.Header().Set("Content-Type", "text/plain")
			default:
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
			}
			w.Header().Set("Cache-Control", "no-store")
			w.Write(sent[p])
		}
	}))
	defer srv.Close()
	base := srv.URL
	dir := t.TempDir()
	pdf, archive := filepath.Join(dir, "site.pdf"), filepath.Join(dir, "w.warc.gz")
	var sum struct {
		Errors int `json:"auditErrors"`
	}
	if code := runJSON(t, &sum, "capture", "--json", "--levels", "2", "--wait-idle", "50ms", "--warc", archive, base+"/index.html", "-o", pdf); code != 0 {
		t.Fatalf("capture: exit %d: %+v", code, sum)
	}
	srv.Close() // no more answers: what follows reads the WARC only
	mu.Lock()
	served := append([]string(nil), logged...)
	mu.Unlock()

	var archived []string
	for _, r := range nodeWARC(t, node, npm, archive) {
		if r.Type == "response" || r.Type == "revisit" {
			archived = append(archived, strings.TrimPrefix(r.URI, base))
		}
	}
	var paths []string
	for _, s := range served {
		paths = append(paths, strings.Fields(s)[1])
	}
	sort.Strings(paths)
	sort.Strings(archived)
	if strings.Join(paths, " ") != strings.Join(archived, " ") {
		t.Errorf("the server answered %d requests:\n%s\nthe WARC holds %d responses and revisits: %s", len(served), strings.Join(served, "\n"), len(archived), strings.Join(archived, " "))
	}
	for _, want := range []string{"/robots.txt", "/old-news", "/news-archive", "/gone.gif", "/missing"} {
		if !strings.Contains(" "+strings.Join(archived, " ")+" ", " "+want+" ") {
			t.Errorf("%s: not in the WARC", want)
		}
	}

	// Every URL the PDF names for a set (its URLS keys: the set's URL
	// and its redirect chains) has a response record.
	var info struct {
		ContentSets []struct {
			Sources []struct {
				URL    string     `json:"url"`
				Chains [][]string `json:"chains"`
			} `json:"sources"`
		} `json:"contentSets"`
	}
	if code := runJSON(t, &info, "info", "--json", pdf); code != 0 {
		t.Fatalf("info: exit %d", code)
	}
	keys := 0
	for _, cs := range info.ContentSets {
		for _, src := range cs.Sources {
			urls := []string{src.URL}
			for _, ch := range src.Chains {
				urls = append(urls, ch...)
			}
			for _, u := range urls {
				keys++
				if !slices.Contains(archived, strings.TrimPrefix(u, base)) {
					t.Errorf("%s: a URL of the PDF, no response record", u)
				}
			}
		}
	}
	if keys < 5 { // index, news, old-news, news-archive, logo
		t.Errorf("the PDF names %d URLs, want at least 5 (the chain included)", keys)
	}

	h := md5.New()
	h.Write(news)
	s := md5.Sum(logo)
	h.Write(s[:])
	want := hex.EncodeToString(h.Sum(nil))
	var id struct {
		ID string `json:"id"`
	}
	if code := runJSON(t, &id, "id", "--json", "--warc", archive, base+"/old-news"); code != 0 || !strings.EqualFold(id.ID, want) {
		t.Errorf("id --warc %s/old-news: exit %d, ID %q, want %s (the /news set's)", base, code, id.ID, want)
	}
	ios, _, stdout, stderr := Test()
	if code := Main(t.Context(), []string{"audit", "--in-process", "--sources", archive, pdf}, ios); code != 0 {
		t.Errorf("audit --sources %s: exit %d\n%s%s", archive, code, stdout, stderr)
	}
}
