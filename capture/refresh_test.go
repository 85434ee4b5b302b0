package capture

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/webcap/webcap/pdfio"
)

// Refresh after the server changes one page's text, one image, and one
// page's markup only: by ID all three pages changed; by text only, just
// the one whose text changed.
func TestRefresh(t *testing.T) {
	b := newBrowser(t)
	var mu sync.Mutex
	site := map[string]string{
		"/":     `<html><head><title>Home</title></head><body><img src="/logo.gif"><p>Welcome</p><a href="/t">t</a> <a href="/m">m</a></body></html>`,
		"/t":    `<html><body><p>Old text</p></body></html>`,
		"/m":    `<html><body><p class="a">Same text</p></body></html>`,
		"/logo": string(gif),
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.URL.Path == "/logo.gif" {
			w.Header().Set("Content-Type", "image/gif")
			w.Write([]byte(site["/logo"]))
			return
		}
		body, ok := site[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(body))
	}))
	defer srv.Close()
	ctx := context.Background()
	res, err := Capture(ctx, b, []string{srv.URL + "/"}, Options{Levels: 2, IgnoreRobots: true})
	if err != nil {
		t.Fatal(err)
	}
	d, err := pdfio.ReadBytes(res.PDF, "capture.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	status := func(textOnly bool) map[string]string {
		t.Helper()
		changes, _, err := Refresh(ctx, b, d, RefreshOptions{Options: Options{IgnoreRobots: true}, TextOnly: textOnly})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, c := range changes {
			out[c.URL[len(srv.URL):]] = c.Status
		}
		return out
	}
	if got := status(false); got["/"] != "unchanged" || got["/t"] != "unchanged" || got["/m"] != "unchanged" || len(got) != 3 {
		t.Fatalf("nothing changed yet: %v", got)
	}
	mu.Lock()
	site["/t"] = `<html><body><p>New text</p></body></html>`
	site["/m"] = `<html><body><p class="b">Same text</p></body></html>`
	site["/logo"] = string(photo)
	mu.Unlock()
	if got := status(false); got["/"] != "changed" || got["/t"] != "changed" || got["/m"] != "changed" {
		t.Errorf("by ID: %v, want all three changed", got)
	}
	if got := status(true); got["/"] != "unchanged" || got["/t"] != "changed" || got["/m"] != "unchanged" {
		t.Errorf("by text: %v, want only /t changed", got)
	}
	// A page the server no longer has is gone; one it links to now is new.
	mu.Lock()
	delete(site, "/m")
	site["/"] = `<html><head><title>Home</title></head><body><img src="/logo.gif"><p>Welcome</p><a href="/t">t</a> <a href="/n">n</a></body></html>`
	site["/n"] = `<html><body>new</body></html>`
	mu.Unlock()
	if got := status(true); got["/m"] != "gone" || got["/n"] != "new" {
		t.Errorf("after removing /m and adding /n: %v", got)
	}
	// A page still linked but answering 404 is gone too, not changed.
	mu.Lock()
	site["/"] = `<html><head><title>Home</title></head><body><img src="/logo.gif"><p>Welcome</p><a href="/t">t</a> <a href="/m">m</a></body></html>`
	mu.Unlock()
	if got := status(true); got["/m"] != "gone" {
		t.Errorf("/m answering 404: %v", got)
	}
}
