package capture

import (
	"bytes"
	"context"
	"crypto/md5"
	"errors"
	"github.com/webcap/webcap/internal/pdfcheck"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
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
	res, err := Capture(ctx, b, []string{srv.URL + "/"}, testOptions(Options{Levels: 2, IgnoreRobots: true}))
	if err != nil {
		t.Fatal(err)
	}
	status := func(textOnly bool) map[string]string {
		t.Helper()
		r, err := Refresh(ctx, b, res.PDF, "capture.pdf", RefreshOptions{Options: testOptions(Options{IgnoreRobots: true, Allow: Loopback}), TextOnly: textOnly, DryRun: true})
		if err != nil {
			t.Fatal(err)
		}
		if r.PDF != nil {
			t.Error("a dry run made a file")
		}
		out := map[string]string{}
		for _, c := range r.Changes {
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

// Refresh writes: changed pages are replaced in place (their sets keep
// their objects and get the new identifiers), a new page is added, the
// result audits clean, its links are internal, and refreshing it again
// finds nothing changed but stamps the sources' check time.
func TestRefreshWrite(t *testing.T) {
	b := newBrowser(t)
	var mu sync.Mutex
	site := map[string]string{
		"/":          `<html><head><title>Home</title></head><body><img src="/logo.gif"><p>Welcome</p><a href="/t">t</a> <a href="/m">m</a> <a href="/photo.gif">photo</a></body></html>`,
		"/t":         `<html><body><p>Old text</p><a href="/">home</a></body></html>`,
		"/m":         `<html><body><p class="a">Same text</p></body></html>`,
		"/logo.gif":  string(gif),
		"/photo.gif": string(photo),
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		body, ok := site[r.URL.Path]
		switch {
		case !ok:
			http.NotFound(w, r)
			return
		case strings.HasSuffix(r.URL.Path, ".gif"):
			w.Header().Set("Content-Type", "image/gif")
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
		w.Write([]byte(body))
	}))
	defer srv.Close()
	ctx := context.Background()
	opts := testOptions(Options{Levels: 2, IgnoreRobots: true, Allow: Loopback})
	first, err := Capture(ctx, b, []string{srv.URL + "/"}, opts)
	if err != nil {
		t.Fatal(err)
	}
	d0, _ := pdfio.ReadBytes(first.PDF, "capture.pdf", pdfio.Options{})
	setOf := func(d *pdfio.Document) map[string]*pdfio.ContentSet {
		out := map[string]*pdfio.ContentSet{}
		for _, cs := range d.Sets {
			if cs.IsPageSet() {
				out[strings.TrimPrefix(cs.Sources[0].URLs.URL, srv.URL)] = cs
			}
		}
		return out
	}
	before := setOf(d0)

	mu.Lock()
	site["/t"] = `<html><body><p>New text</p><a href="/">home</a></body></html>`
	site["/m"] = `<html><body><p class="b">Same text</p><a href="/n">n</a></body></html>`
	site["/logo.gif"] = string(photo)
	site["/photo.gif"] = string(gif)
	site["/"] = strings.Replace(site["/"], `</body>`, `<a href="/n">n</a></body>`, 1)
	site["/n"] = `<html><body>new page</body></html>`
	mu.Unlock()
	// Its write past its bound (Options.WriteBound): nothing written.
	bounded := RefreshOptions{Options: opts}
	bounded.WriteBound = func(ctx context.Context) (context.Context, func()) { return &doneAfter{Context: ctx, n: 1}, func() {} }
	var ws *WriteStoppedError
	if r, err := Refresh(ctx, b, first.PDF, "capture.pdf", bounded); !errors.As(err, &ws) || r == nil || r.PDF != nil {
		t.Errorf("a refresh past its write's bound: %v; want a *WriteStoppedError, nothing written", err)
	}
	r, err := Refresh(ctx, b, first.PDF, "capture.pdf", RefreshOptions{Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	if r.Replaced != 4 || r.Added != 1 || r.Checked != 0 {
		t.Errorf("replaced %d, added %d, checked %d; want 4, 1, 0: %+v", r.Replaced, r.Added, r.Checked, r.Changes)
	}
	if !bytes.HasPrefix(r.PDF, first.PDF) {
		t.Fatal("the file's bytes are not a prefix of the refreshed file")
	}
	pdfcheck.CheckNameTrees(t, r.PDF) // every tree, walked by qpdf
	d, err := pdfio.ReadBytes(r.PDF, "refreshed.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	noAuditErrors(t, d)
	after := setOf(d)
	if len(after) != 5 || len(d.Pages) != len(d0.Pages)+1 {
		t.Errorf("%d page sets, %d pages; want 5 and %d", len(after), len(d.Pages), len(d0.Pages)+1)
	}
	for path, cs := range before {
		if after[path] == nil || after[path].Ref != cs.Ref {
			t.Errorf("%s: set %v, want the same object %v", path, after[path], cs.Ref)
			continue
		}
		if bytes.Equal([]byte(*after[path].ID), []byte(*cs.ID)) {
			t.Errorf("%s: ID unchanged", path)
		}
	}
	// /t's set: its ID is the MD5 of what is served now, and its page
	// shows the new text.
	tID := md5.Sum([]byte(site["/t"]))
	if ts := after["/t"]; ts == nil || string(*ts.ID) != string(tID[:]) {
		t.Errorf("/t: ID %v, want MD5 of the new page", ts)
	}
	if pdftotext, err := exec.LookPath("pdftotext"); err == nil {
		p := filepath.Join(t.TempDir(), "r.pdf")
		os.WriteFile(p, r.PDF, 0o644)
		n := strconv.Itoa(pageNumber(d, after["/t"].Objects[0]))
		out, err := exec.Command(pdftotext, "-f", n, "-l", n, p, "-").Output()
		if err != nil || !strings.Contains(string(out), "New text") {
			t.Errorf("pdftotext of /t's page %s: %v %q", n, err, out)
		}
	}
	checkInternalLinks(t, &Result{PDF: r.PDF, Links: r.Links})
	// The photo's image set moved with its page: one image set, the new ID.
	for _, cs := range d.Sets {
		if cs.IsImageSet() {
			if id := md5.Sum(gif); string(*cs.ID) != string(id[:]) || len(cs.Objects) != 1 || pageOfImage(d, cs.Objects[0]) == 0 {
				t.Errorf("image set %v: ID %s, O %v", cs.Ref, cs.ID.Hex(), cs.Objects)
			}
		}
	}

	// Again, an hour later (by the clock that times the answers): nothing
	// changed, every source stamped.
	later := opts
	later.now = func() time.Time { return time.Now().Add(time.Hour) }
	r2, err := Refresh(ctx, b, r.PDF, "refreshed.pdf", RefreshOptions{Options: later})
	if err != nil {
		t.Fatal(err)
	}
	if r2.Replaced != 0 || r2.Added != 0 || r2.Checked != 5 {
		t.Errorf("second refresh: replaced %d, added %d, checked %d; want 0, 0, 5: %+v", r2.Replaced, r2.Added, r2.Checked, r2.Changes)
	}
	d2, _ := pdfio.ReadBytes(r2.PDF, "again.pdf", pdfio.Options{})
	for path, cs := range setOf(d2) {
		old := after[path].Sources[0].Updated
		if ts := cs.Sources[0].Updated; ts == nil || old == nil || ts.Raw == old.Raw {
			t.Errorf("%s: source /TS %v, was %v: not stamped", path, ts, old)
		}
	}
	noAuditErrors(t, d2)
}

func pageNumber(d *pdfio.Document, ref webcapture.Ref) int {
	for _, p := range d.Pages {
		if p.Ref == ref {
			return p.Number
		}
	}
	return 0
}

// pageOfImage says whether an image XObject is in use by a page: the
// number of a page whose resources name it, else 0.
func pageOfImage(d *pdfio.Document, ref webcapture.Ref) int {
	for _, im := range d.Images {
		if im.Ref == ref {
			return 1
		}
	}
	return 0
}

// Refresh of a capture whose URLs carry a user and password (issue 27:
// seen once to time out as unreachable): with the credentials kept, every
// page is checked, unchanged, through robots.txt (read without them: it
// is the origin's, not a user's), the credentials going to their host
// only; without them, the server's 401 makes the page unreachable, said
// at once.
func TestRefreshCredentials(t *testing.T) {
	b := newBrowser(t)
	var mu sync.Mutex
	sent := map[string][]string{} // "own" path or "other" -> Authorization headers received
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		sent["other"] = append(sent["other"], r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "image/gif")
		w.Write(photo)
	}))
	defer other.Close()
	otherURL := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		sent[r.URL.Path] = append(sent[r.URL.Path], r.Header.Get("Authorization"))
		mu.Unlock()
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte("User-agent: *\nDisallow: /private\n"))
			return
		}
		if user, pw, ok := r.BasicAuth(); !ok || user != "alice" || pw != "s3cret" {
			w.Header().Set("WWW-Authenticate", `Basic realm="test"`)
			http.Error(w, "who are you?", http.StatusUnauthorized)
			return
		}
		switch r.URL.Path {
		case "/logo.gif":
			w.Header().Set("Content-Type", "image/gif")
			w.Write(gif)
		case "/b":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<title>B</title><p>Bee`))
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<title>Home</title><img src="/logo.gif"><img src="` + otherURL + `/img.gif"><a href="/b">b</a> <a href="/private">p</a>`))
		}
	}))
	defer srv.Close()
	u := strings.Replace(srv.URL, "http://", "http://alice:s3cret@", 1) + "/"
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	for _, tc := range []struct {
		name   string
		keep   bool
		status string // of every page
		reason string
	}{
		{"kept", true, StatusUnchanged, ""},
		{"left out", false, StatusUnreachable, "401 Unauthorized"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Capture(ctx, b, []string{u}, testOptions(Options{Levels: 2, KeepCredentials: tc.keep}))
			if err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			clear(sent)
			mu.Unlock()
			r, err := Refresh(ctx, b, res.PDF, "capture.pdf", RefreshOptions{Options: testOptions(Options{Allow: Loopback, PageTimeout: 60 * time.Second}), DryRun: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Changes) != 2 {
				t.Errorf("changes %+v, want / and /b", r.Changes)
			}
			for _, c := range r.Changes {
				if c.Status != tc.status || !strings.Contains(c.Reason, tc.reason) {
					t.Errorf("%s: %s (%s), want %s (%s)", c.URL, c.Status, c.Reason, tc.status, tc.reason)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			for who, auth := range sent {
				want := "Basic YWxpY2U6czNjcmV0" // the page's host, but for robots.txt
				if who == "other" || who == "/robots.txt" || !tc.keep {
					want = ""
				}
				for _, a := range auth {
					if a != want {
						t.Errorf("%s got Authorization %q, want %q", who, a, want)
					}
				}
			}
			if len(sent["/robots.txt"]) != 1 || len(sent["/private"]) != 0 {
				t.Errorf("robots.txt read %d times, /private fetched %d times; want once and never", len(sent["/robots.txt"]), len(sent["/private"]))
			}
			if tc.keep && len(sent["other"]) == 0 {
				t.Errorf("the other host's image was not fetched: %v", sent)
			}
		})
	}
}
