package capture

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/sha256"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/internal/pdfcheck"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// testSite serves a small site: a redirect to the home page, pages that
// link to each other, a shared image, a page outside the path, a page
// robots.txt forbids.
func testSite(t *testing.T) *httptest.Server {
	srv, _ := recordedSite(t)
	return srv
}

// sentBodies holds what a test server's handlers wrote, by path: the
// entity bodies as the server sent them, before any transfer encoding.
type sentBodies struct {
	mu     sync.Mutex
	byPath map[string][]byte
}

func (s *sentBodies) get(path string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.byPath[path]
	return b, ok
}

// bodyRecorder copies what a handler writes into sentBodies.
type bodyRecorder struct {
	http.ResponseWriter
	buf bytes.Buffer
}

func (r *bodyRecorder) Write(b []byte) (int, error) {
	r.buf.Write(b)
	return r.ResponseWriter.Write(b)
}

// recordedSite is testSite, with the bodies its handlers sent.
func recordedSite(t *testing.T) (*httptest.Server, *sentBodies) {
	pages := map[string]string{
		"/site/index.html":   `<html><head><title>Home</title></head><body><img src="logo.gif"><a href="a.html">a</a> <a href="/other/x.html">x</a> <a href="private.html">p</a></body></html>`,
		"/site/a.html":       `<html><head><title>A</title></head><body><img src="/site/logo.gif"><a href="b.html">b</a> <a href="index.html">home</a> <a href="photo.gif">photo</a></body></html>`,
		"/site/b.html":       `<html><head><title>B</title></head><body>deep<img srcset="/site/logo.gif 1x, /site/big.gif 2x" src="/site/logo.gif"></body></html>`,
		"/site/private.html": `<html><body>private</body></html>`,
		"/other/x.html":      `<html><head><title>X</title></head><body>outside</body></html>`,
	}
	mux := http.NewServeMux()
	mux.Handle("/", http.RedirectHandler("/site/index.html", http.StatusFound))
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("User-agent: *\nDisallow: /site/private.html\n"))
	})
	mux.HandleFunc("/site/photo.gif", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/gif")
		w.Write(photo)
	})
	mux.HandleFunc("/site/photo-copy.gif", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/gif")
		w.Write(photo)
	})
	mux.HandleFunc("/site/big.gif", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/gif")
		w.Write(append([]byte{}, gif...))
	})
	mux.HandleFunc("/site/logo.gif", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/gif")
		w.Write(gif)
	})
	for path, body := range pages {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(body))
		})
	}
	sent := &sentBodies{byPath: map[string][]byte{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &bodyRecorder{ResponseWriter: w}
		mux.ServeHTTP(rec, r)
		sent.mu.Lock()
		sent.byPath[r.URL.Path] = rec.buf.Bytes()
		sent.mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	return srv, sent
}

// photo is a 2x1 GIF, different from gif.
var photo = []byte("GIF89a\x02\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x02\x00\x01\x00\x00\x02\x02\x44\x0a\x00;")

func TestCapture(t *testing.T) {
	b := newBrowser(t)
	srv, sent := recordedSite(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	res, err := Capture(ctx, b, []string{srv.URL + "/"}, testOptions(Options{Levels: 3, Flags: webcapture.SamePath}))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range res.Pages {
		got = append(got, strings.TrimPrefix(p.URL, srv.URL))
	}
	// SamePath of "/" is the whole site; robots.txt keeps private.html out.
	if want := "/site/index.html /site/a.html /other/x.html /site/b.html /site/photo.gif"; strings.Join(got, " ") != want {
		t.Errorf("captured %v, want %s", got, want)
	}
	// The browser's cache is off: every page that shows the logo fetched
	// it itself.
	for _, p := range res.Pages {
		if !strings.HasPrefix(p.URL, srv.URL+"/site/") || strings.HasSuffix(p.URL, ".gif") {
			continue
		}
		has := false
		for _, r := range p.Responses {
			has = has || r.URL == srv.URL+"/site/logo.gif"
		}
		if !has {
			t.Errorf("%s: the logo was not requested (served from the browser's cache?)", p.URL)
		}
	}
	skipped := false
	for _, s := range res.Skips {
		skipped = skipped || (strings.HasSuffix(s.URL, "/site/private.html") && strings.Contains(s.Reason, "robots.txt"))
	}
	if !skipped {
		t.Errorf("private.html not skipped for robots.txt: %+v", res.Skips)
	}
	d, err := pdfio.ReadBytes(res.PDF, "capture.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	noAuditErrors(t, d)
	if d.Info == nil || len(d.Info.Commands) == 0 {
		t.Fatal("no SpiderInfo command")
	}
	// The settings say how the pages were rendered: in /G what any engine
	// would be told, in /C under Chromium's engine name how it ran.
	if c := d.Info.Commands[0]; c.Settings == nil || len(c.Settings.Engines) != 1 || c.Settings.Engines[0].Err != nil ||
		!strings.HasPrefix(string(c.Settings.Engines[0].Key), "webcap:chromium:1") {
		t.Errorf("command settings: %+v", c.Settings)
	} else {
		g := c.Settings.Global
		if g["Media"] != webcapture.String("print") || g["Background"] != true || g["IdleQuietMs"] != int64(50) || g["StillQuietMs"] != int64(50) ||
			fmt.Sprint(g["PageSize"]) != "[612 792]" || fmt.Sprint(g["Margins"]) != "[28.35 28.35 28.35 28.35]" ||
			g["Bookmarks"] != webcapture.String("sites") || g["Tags"] != webcapture.String("SpdrArt") {
			t.Errorf("/G %v", g)
		}
		e, _ := c.Settings.Engines[0].Settings.(webcapture.Dict)
		if e["Cache"] != false || e["LazyLoading"] != webcapture.String("eager") || e["Sandbox"] != b.Sandboxed() || e["RestartEvery"] != int64(DefaultRestartEvery) {
			t.Errorf("/C %v", e)
		}
	}
	if len(d.Sets) != 6 || d.Info == nil || len(d.Info.Commands) != 1 || d.Info.Commands[0].Depth() != 3 {
		t.Fatalf("%d sets, SpiderInfo %+v", len(d.Sets), d.Info)
	}
	// Links between captured pages go to named destinations of their
	// pages; the URI actions are kept in /PA.
	if res.Links == 0 {
		t.Error("no link was made internal")
	}
	t.Logf("%d links made internal", res.Links)
	checkInternalLinks(t, res)
	pdfcheck.Render(t, res.PDF, len(d.Pages))
	// The image URL: a page set and an image set with one ID, under one
	// IDS key and one URLS key whose value is an array of both.
	photoID := md5.Sum(photo)
	for _, e := range d.IDS.Entries {
		if e.Key == string(photoID[:]) && (!e.Array || len(e.Sets) != 2 || e.Sets[0].Subtype == e.Sets[1].Subtype) {
			t.Errorf("IDS entry of the photo: %+v", e)
		}
	}
	imageSets := 0
	for _, cs := range d.Sets {
		if cs.IsImageSet() {
			imageSets++
			if string(*cs.ID) != string(photoID[:]) || len(cs.Objects) != 1 || len(cs.RefCounts) != 1 || cs.RefCounts[0] != 1 {
				t.Errorf("image set: ID %s, O %v, R %v", cs.ID.Hex(), cs.Objects, cs.RefCounts)
			}
		}
	}
	if imageSets != 1 {
		t.Errorf("%d image sets, want 1", imageSets)
	}
	checkSHA256(t, d, srv.URL, sent)
	// The home page's set: reached through a redirect, its ID over the
	// served bytes and the logo's.
	for _, cs := range d.Sets {
		si := cs.Sources[0]
		if si.URLs.URL != srv.URL+"/site/index.html" {
			continue
		}
		if !si.URLs.Alias || len(si.URLs.Chains) != 1 || si.URLs.Chains[0][0] != srv.URL+"/" {
			t.Errorf("home page source: %+v", si.URLs)
		}
		h := md5.New()
		h.Write([]byte(`<html><head><title>Home</title></head><body><img src="logo.gif"><a href="a.html">a</a> <a href="/other/x.html">x</a> <a href="private.html">p</a></body></html>`))
		logo := md5.Sum(gif)
		h.Write(logo[:])
		if !bytes.Equal([]byte(*cs.ID), h.Sum(nil)) {
			t.Errorf("home page ID %s is not MD5(page, MD5(logo))", cs.ID.Hex())
		}
		if cs.Title == nil || cs.Title.String() != "Home" {
			t.Errorf("title %v", cs.Title)
		}
	}
}

// checkSHA256 checks that every source information of d has the /WCSHA256
// of the bytes the test server sent for its URL (crypto/sha256 over the
// recorded body, not over anything webcap kept).
func checkSHA256(t *testing.T, d *pdfio.Document, base string, sent *sentBodies) {
	t.Helper()
	n := 0
	for _, cs := range d.Sets {
		for _, si := range cs.Sources {
			body, ok := sent.get(strings.TrimPrefix(si.URLs.URL, base))
			switch {
			case !ok:
				t.Errorf("%s: the server sent no such URL", si.URLs.URL)
			case si.SHA256 == nil:
				t.Errorf("%s: no /WCSHA256", si.URLs.URL)
			case string(*si.SHA256) != string(sha256Of(body)):
				t.Errorf("%s: /WCSHA256 %x, want %x, the SHA-256 of the %d bytes the server sent", si.URLs.URL, []byte(*si.SHA256), sha256Of(body), len(body))
			default:
				n++
			}
		}
	}
	if n == 0 {
		t.Error("no source information to check")
	}
}

func sha256Of(b []byte) []byte { s := sha256.Sum256(b); return s[:] }

// checkInternalLinks checks the capture's links with pdfcheck.InternalLinks.
func checkInternalLinks(t *testing.T, res *Result) {
	t.Helper()
	if n := pdfcheck.InternalLinks(t, res.PDF); n < res.Links {
		t.Errorf("%d GoTo links with /PA found, %d made", n, res.Links)
	}
}

// A page slower than the page time limit is skipped with the reason; the
// rest is captured.
func TestCaptureSlowPage(t *testing.T) {
	b := newBrowser(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<title>Home</title><a href="/slow">slow</a> <a href="/fast">fast</a>`))
	})
	mux.HandleFunc("/fast", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<title>Fast</title>`))
	})
	// The slow page answers only when its request is cancelled; its time
	// is up (as the page time limit would say) once it has been asked for.
	asked := make(chan struct{}, 1)
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		asked <- struct{}{}
		<-r.Context().Done()
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	opts := testOptions(Options{Levels: 2, IgnoreRobots: true})
	opts.pageContext = func(ctx context.Context, u string) (context.Context, context.CancelFunc) {
		if !strings.HasSuffix(u, "/slow") {
			return context.WithCancel(ctx)
		}
		pctx, cancel := context.WithCancelCause(ctx)
		go func() {
			select {
			case <-asked:
				cancel(context.DeadlineExceeded)
			case <-pctx.Done():
			}
		}()
		return pctx, func() { cancel(nil) }
	}
	res, err := Capture(context.Background(), b, []string{srv.URL + "/"}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pages) != 2 {
		t.Errorf("%d pages captured, want 2 (home, fast)", len(res.Pages))
	}
	found := false
	for _, s := range res.Skips {
		found = found || (s.URL == srv.URL+"/slow" && strings.Contains(s.Reason, "page time limit"))
	}
	if !found {
		t.Errorf("the slow page is not skipped for its time: %+v", res.Skips)
	}
	// --max-pages stops the crawl with links still queued.
	res, err = Capture(context.Background(), b, []string{srv.URL + "/"}, testOptions(Options{Levels: 2, MaxPages: 1, IgnoreRobots: true}))
	if err != nil || len(res.Pages) != 1 {
		t.Errorf("MaxPages 1: %v, %d pages", err, len(res.Pages))
	}
	// MaxBytes: no page is started once the limit is reached.
	res, err = Capture(context.Background(), b, []string{srv.URL + "/"}, testOptions(Options{Levels: 2, MaxBytes: 10, IgnoreRobots: true}))
	if err != nil || len(res.Pages) != 1 {
		t.Fatalf("MaxBytes 10: %v, %d pages", err, len(res.Pages))
	}
	limited := 0
	for _, s := range res.Skips {
		if strings.Contains(s.Reason, "byte limit was reached") {
			limited++
		}
	}
	if limited != 2 {
		t.Errorf("MaxBytes 10: %d pages skipped for the byte limit, want 2 (slow, fast): %+v", limited, res.Skips)
	}
}

// A start URL with a user and password: the credentials go to its host
// only (never to another host, a redirect's included), the page's images
// on that host are found for its identifier (credentials do not make
// another resource), and neither user nor password is written into the
// PDF unless KeepCredentials.
func TestCaptureCredentials(t *testing.T) {
	b := newBrowser(t)
	var mu sync.Mutex
	sent := map[string][]string{} // host -> Authorization headers received
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		sent["other"] = append(sent["other"], r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "image/gif")
		w.Write(photo)
	}))
	defer other.Close()
	otherURL := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	page := `<title>Private</title><img src="/logo.gif"><img src="` + otherURL + `/img.gif"><img src="/go">`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		sent["own"] = append(sent["own"], r.Header.Get("Authorization"))
		mu.Unlock()
		if user, pw, ok := r.BasicAuth(); !ok || user != "alice" || pw != "s3cret" {
			w.Header().Set("WWW-Authenticate", `Basic realm="test"`)
			http.Error(w, "who are you?", http.StatusUnauthorized)
			return
		}
		switch r.URL.Path {
		case "/go":
			http.Redirect(w, r, otherURL+"/redirected.gif", http.StatusFound)
		case "/logo.gif":
			w.Header().Set("Content-Type", "image/gif")
			w.Write(gif)
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(page))
		}
	}))
	defer srv.Close()
	u := strings.Replace(srv.URL, "http://", "http://alice:s3cret@", 1) + "/"
	h := md5.New()
	h.Write([]byte(page))
	for _, im := range [][]byte{gif, photo, photo} {
		sum := md5.Sum(im)
		h.Write(sum[:])
	}
	want := webcapture.ID(h.Sum(nil))
	for _, keep := range []bool{false, true} {
		res, err := Capture(context.Background(), b, []string{u}, testOptions(Options{IgnoreRobots: true, KeepCredentials: keep}))
		if err != nil {
			t.Fatal(err)
		}
		if has := bytes.Contains(res.PDF, []byte("s3cret")); has != keep {
			t.Errorf("KeepCredentials %v: password in the PDF: %v", keep, has)
		}
		if id := res.Build.Sets[0].ID; id != want {
			t.Errorf("KeepCredentials %v: ID %s, want %s (the page, its image on its host and the two on the other)", keep, id, want)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for _, a := range sent["other"] {
		if a != "" {
			t.Errorf("the other host got %q", a)
		}
	}
	for _, a := range sent["own"] {
		if a != "Basic YWxpY2U6czNjcmV0" {
			t.Errorf("the page's host got %q, want alice's credentials", a)
		}
	}
	if len(sent["other"]) == 0 || len(sent["own"]) == 0 {
		t.Errorf("requests: %v", sent)
	}
}

// result audits clean.
func TestAppend(t *testing.T) {
	b := newBrowser(t)
	srv, sent := recordedSite(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	first, err := Capture(ctx, b, []string{srv.URL + "/site/a.html", srv.URL + "/site/photo.gif"}, testOptions(Options{}))
	if err != nil {
		t.Fatal(err)
	}
	d0, err := pdfio.ReadBytes(first.PDF, "first.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Append(ctx, b, first.PDF, "first.pdf", []string{srv.URL + "/site/index.html", srv.URL + "/site/photo-copy.gif", srv.URL + "/site/a.html"},
		testOptions(Options{Levels: 2, Flags: webcapture.SamePath}))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(res.PDF, first.PDF) {
		t.Fatal("the file's bytes are not a prefix of the result")
	}
	pdfcheck.CheckNameTrees(t, res.PDF) // every tree, walked by qpdf
	var got []string
	for _, p := range res.Pages {
		got = append(got, strings.TrimPrefix(p.URL, srv.URL))
	}
	// a.html is in the file: neither fetched as a start nor as index's link.
	if want := "/site/index.html /site/photo-copy.gif"; strings.Join(got, " ") != want {
		t.Errorf("appended %v, want %s", got, want)
	}
	held := 0
	for _, s := range res.Skips {
		if strings.HasSuffix(s.URL, "/site/a.html") && strings.Contains(s.Reason, "already in first.pdf") {
			held++
		}
	}
	if held != 1 {
		t.Errorf("a.html not reported once as already in the file: %+v", res.Skips)
	}
	if res.First != len(d0.Pages)+1 {
		t.Errorf("first new page %d, want %d", res.First, len(d0.Pages)+1)
	}
	d, err := pdfio.ReadBytes(res.PDF, "appended.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range d0.Pages {
		if d.Pages[i].Ref != p.Ref {
			t.Errorf("page %d is %v, was %v", i+1, d.Pages[i].Ref, p.Ref)
		}
	}
	noAuditErrors(t, d)
	checkSHA256(t, d, srv.URL, sent) // the photo's set extended by the copy's source too
	if len(d.Info.Commands) != 5 {
		t.Errorf("%d commands, want the file's 2 and 3 new", len(d.Info.Commands))
	}
	// One image set for the photo, now with the copy's image and source.
	var images []*pdfio.ContentSet
	for _, cs := range d.Sets {
		if cs.IsImageSet() {
			images = append(images, cs)
		}
	}
	if len(images) != 1 || len(images[0].Objects) != 2 || len(images[0].Sources) != 2 || len(images[0].URLSKeys) != 2 {
		t.Errorf("image sets %d; the photo's: O %v, %d sources, URLS keys %q", len(images), images[0].Objects, len(images[0].Sources), images[0].URLSKeys)
	}
	// Old a.html links to the new index.html, and the new index.html to
	// the old a.html: both internal now.
	checkInternalLinks(t, res)
	if res.Links < 2 {
		t.Errorf("%d links made internal, want at least a.html -> index.html and back", res.Links)
	}
	// Appending only what the file has captures nothing.
	if _, err := Append(ctx, b, res.PDF, "appended.pdf", []string{srv.URL + "/site/a.html"}, testOptions(Options{})); err == nil ||
		!strings.Contains(err.Error(), "already in appended.pdf") {
		t.Errorf("appending a page the file has: %v", err)
	}
}

// A form submitted by POST (answered with a redirect to the results) and
// one by GET: the commands record the submission (F Submit, P, CT), the
// page sets' sources say how they were reached (S 2 and 1), the server
// gets the data, and refresh re-submits the form.
func TestCaptureForm(t *testing.T) {
	b := newBrowser(t)
	var mu sync.Mutex
	var posted []string
	mux := http.NewServeMux()
	mux.HandleFunc("/search", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		posted = append(posted, r.Header.Get("Content-Type")+" "+string(body))
		mu.Unlock()
		http.Redirect(w, r, "/results?"+string(body), http.StatusSeeOther)
	})
	mux.HandleFunc("/results", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<title>Results</title><p>Results for %s</p>", html.EscapeString(r.URL.Query().Get("q")))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	ctx := context.Background()
	starts := []Start{
		{URL: srv.URL + "/search", Levels: 1, Flags: webcapture.Submit, Post: []byte("q=web+capture")},
		{URL: srv.URL + "/results?q=by+get", Levels: 1, Flags: webcapture.Submit},
	}
	res, err := CaptureStarts(ctx, b, starts, testOptions(Options{IgnoreRobots: true}))
	if err != nil {
		t.Fatal(err)
	}
	if len(posted) != 1 || posted[0] != "application/x-www-form-urlencoded q=web+capture" {
		t.Errorf("the server got %q, want one form POST", posted)
	}
	if len(res.Pages) != 2 || !strings.Contains(res.Pages[0].URL, "/results?q=web+capture") || len(res.Pages[0].Chains) != 1 || len(res.Pages[0].Chains[0]) != 2 {
		t.Fatalf("pages %+v", res.Pages)
	}
	d, err := pdfio.ReadBytes(res.PDF, "form.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	noAuditErrors(t, d)
	c := d.Info.Commands[0]
	if c.FlagsOrDefault()&webcapture.Submit == 0 || c.PostData == nil || string(*c.PostData) != "q=web+capture" ||
		c.ContentType == nil || *c.ContentType != "application/x-www-form-urlencoded" {
		t.Errorf("POST command: %+v", c)
	}
	if c := d.Info.Commands[1]; c.FlagsOrDefault()&webcapture.Submit == 0 || c.PostData != nil {
		t.Errorf("GET command: %+v", c)
	}
	want := map[string]webcapture.Submission{"/results?q=web+capture": webcapture.SubmitPOST, "/results?q=by+get": webcapture.SubmitGET}
	for _, cs := range d.Sets {
		si := cs.Sources[0]
		if w, ok := want[strings.TrimPrefix(si.URLs.URL, srv.URL)]; !ok || si.SubmissionOrDefault() != w {
			t.Errorf("%s: submission %v, want %v", si.URLs.URL, si.SubmissionOrDefault(), w)
		}
	}
	// A refresh of a file from someone else resubmits no form unless told
	// to, and a dry run never sends a POST; asked to, refresh submits the
	// form again from the command.
	status := func(opts RefreshOptions) map[string]string {
		t.Helper()
		opts.Options = testOptions(Options{IgnoreRobots: true, Allow: Loopback})
		r, err := Refresh(ctx, b, res.PDF, "form.pdf", opts)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, c := range r.Changes {
			out[strings.TrimPrefix(c.URL, srv.URL)] = c.Status
		}
		return out
	}
	for _, tc := range []struct {
		opts       RefreshOptions
		post, get  string
		postedNows int
	}{
		{RefreshOptions{DryRun: true}, "unchecked", "unchecked", 1},
		{RefreshOptions{DryRun: true, Resubmit: true}, "unchecked", "unchanged", 1},
		{RefreshOptions{Resubmit: true}, "unchanged", "unchanged", 2},
	} {
		got := status(tc.opts)
		mu.Lock()
		n := len(posted)
		mu.Unlock()
		if got["/results?q=web+capture"] != tc.post || got["/results?q=by+get"] != tc.get || n != tc.postedNows {
			t.Errorf("refresh %+v: %v, %d POSTs; want POST form %s, GET form %s, %d POSTs", tc.opts, got, n, tc.post, tc.get, tc.postedNows)
		}
	}
}

// When the capture's own time is up, what was captured is kept and the
// rest is reported, both the pages being fetched and those still queued.
func TestCaptureTimeLimit(t *testing.T) {
	b := newBrowser(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<title>Home</title><a href="/s1">1</a> <a href="/s2">2</a> <a href="/s3">3</a>`))
	})
	// The capture's time is up once both tabs wait for a slow page.
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	var asked sync.WaitGroup
	asked.Add(2)
	for _, p := range []string{"/s1", "/s2", "/s3"} {
		mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) {
			if p != "/s3" {
				asked.Done()
			}
			<-r.Context().Done()
		})
	}
	srv := httptest.NewServer(mux)
	defer srv.Close()
	go func() {
		asked.Wait()
		cancel(ErrTimeLimit)
	}()
	res, err := Capture(ctx, b, []string{srv.URL + "/"}, testOptions(Options{Levels: 2, IgnoreRobots: true, Jobs: 2}))
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(res.Stopped, ErrTimeLimit) {
		t.Errorf("Stopped = %v, want the time limit", res.Stopped)
	}
	if len(res.Pages) != 1 || res.PDF == nil {
		t.Fatalf("%d pages captured, want the home page", len(res.Pages))
	}
	reasons := map[string]string{}
	for _, s := range res.Skips {
		reasons[strings.TrimPrefix(s.URL, srv.URL)] = s.Reason
	}
	for _, p := range []string{"/s1", "/s2", "/s3"} {
		if !strings.Contains(reasons[p], "the capture's time limit was reached") {
			t.Errorf("%s: skipped for %q, want the capture's time limit", p, reasons[p])
		}
	}
	d, err := pdfio.ReadBytes(res.PDF, "partial.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	noAuditErrors(t, d)
}

// Anchors: each page's anchors become named destinations under unique
// names (the anchor's name, then the escaped page-set ID), at the place
// the browser printed them; a link to a page's anchor goes there, a link
// to an anchor the page lacks goes to the page's top, and a page's links
// to its own anchors follow the renaming.
func TestCaptureAnchors(t *testing.T) {
	b := newBrowser(t)
	filler := strings.Repeat("<p>filler line</p>", 80) // pushes what follows to a second page
	site := map[string]string{
		"/one": `<title>One</title><a href="#sec">down</a>` + filler + `<h2 id="sec">Section</h2><a href="/two#part">two's part</a>`,
		"/two": `<title>Two</title><p id="top">top</p>` + filler + `<p id="part">Part</p><a href="/one#sec">one's section</a> <a href="/one#nowhere">nowhere</a>`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(site[r.URL.Path]))
	}))
	defer srv.Close()
	res, err := Capture(context.Background(), b, []string{srv.URL + "/one"}, testOptions(Options{Levels: 2, IgnoreRobots: true}))
	if err != nil {
		t.Fatal(err)
	}
	d, err := pdfio.ReadBytes(res.PDF, "anchors.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sets := map[string]*pdfio.ContentSet{}
	for _, cs := range d.Sets {
		sets[strings.TrimPrefix(cs.Sources[0].URLs.URL, srv.URL)] = cs
	}
	one, two := sets["/one"], sets["/two"]
	if one == nil || two == nil || len(one.Objects) < 2 || len(two.Objects) < 2 {
		t.Fatalf("sets %v: want two sets of two pages or more", sets)
	}
	u, err := pdfio.NewUpdate(res.PDF, "anchors.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The named destinations, read back through qpdf's view of the file,
	// checked by pdfcheck; here the names and pages.
	want := map[string]webcapture.Ref{
		webcapture.DestinationName("sec", *one.ID):  one.Objects[len(one.Objects)-1],
		webcapture.DestinationName("part", *two.ID): two.Objects[len(two.Objects)-1],
		webcapture.DestinationName("top", *two.ID):  two.Objects[0],
		webcapture.DestinationName("", *one.ID):     one.Objects[0], // for #nowhere
	}
	got := destsOf(t, res.PDF)
	for name, page := range want {
		if got[name] != page {
			t.Errorf("destination %q: page %v, want %v", name, got[name], page)
		}
	}
	// The link on /one to its own section now names the unique name.
	links, _ := u.LinkDests(one.Objects[0])
	if len(links) != 1 || links[0].Name != webcapture.DestinationName("sec", *one.ID) {
		t.Errorf("/one's link to #sec: %+v", links)
	}
	// The catalog has none of the browsers' /Dests dictionaries (whose
	// names collide between pages): pages are copied without them.
	at := bytes.LastIndex(res.PDF, []byte("/Type /Catalog"))
	start := bytes.LastIndex(res.PDF[:at], []byte(" obj"))
	if cat := res.PDF[start:at]; bytes.Contains(cat, []byte("/Dests")) {
		t.Errorf("the catalog has a /Dests dictionary: %s", cat)
	}
	checkInternalLinks(t, res)
}

// destsOf reads a file's /Names /Dests tree: name -> page.
func destsOf(t *testing.T, pdf []byte) map[string]webcapture.Ref {
	t.Helper()
	u, err := pdfio.NewUpdate(pdf, "dests.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := u.DestPages()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// noAuditErrors fails the test for each error the auditor finds in d.
func noAuditErrors(t *testing.T, d *pdfio.Document) {
	t.Helper()
	for _, f := range audit.Check(d, audit.Options{}) {
		if f.Severity == audit.Serious {
			t.Errorf("audit: %s %s: %s", f.Rule, f.Object, f.Message)
		}
	}
}

// TestCaptureScopeHoles: a capture limited to its site follows no
// redirect off the site or into what robots.txt forbids, lets no image,
// frame or script of its pages reach another loopback host, and prints
// no user:password@ of its pages' links; each refused hop is skipped and
// says why, and the page with the refused subresources is still captured.
func TestCaptureScopeHoles(t *testing.T) {
	b := newBrowser(t)
	var inner atomic.Int32
	in := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		inner.Add(1)
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Write([]byte("<title>Inner</title>INNER"))
	}))
	defer in.Close()
	otherHost := strings.Replace(in.URL, "127.0.0.1", "localhost", 1)
	var mux http.ServeMux
	srv := httptest.NewServer(&mux)
	defer srv.Close()
	withCreds := strings.Replace(srv.URL, "http://", "http://alice:s3cret@", 1)
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("User-agent: *\nDisallow: /private/\n")) })
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<title>Home</title><a href="/off">off</a> <a href="/in">in</a> <a href="` + withCreds + `/two.html">two</a>
<img src="` + in.URL + `/x.gif"><iframe src="` + otherHost + `/frame.html"></iframe>
<script>fetch("` + in.URL + `/api").catch(() => {})</script>`))
	})
	mux.Handle("/off", http.RedirectHandler(otherHost+"/landing.html", http.StatusFound))
	mux.Handle("/in", http.RedirectHandler("/private/x.html", http.StatusFound))
	mux.HandleFunc("/private/x.html", func(w http.ResponseWriter, r *http.Request) { t.Error("robots.txt forbids /private/x.html: fetched") })
	mux.HandleFunc("/two.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<title>Two</title>two`))
	})
	res, err := Capture(context.Background(), b, []string{srv.URL + "/"}, testOptions(Options{Levels: 2, Flags: webcapture.SameSite}))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, s := range res.Skips {
		kinds[strings.TrimPrefix(s.URL, srv.URL)] = s.Kind + ": " + s.Reason
	}
	for path, want := range map[string]string{
		"/off": "scope: redirects to " + otherHost + "/landing.html, outside the command's scope",
		"/in":  "robots: redirects to " + srv.URL + "/private/x.html, robots.txt of " + srv.URL + " forbids it",
	} {
		if !strings.HasPrefix(kinds[path], want) {
			t.Errorf("%s: skipped as %q, want %q…", path, kinds[path], want)
		}
	}
	if n := inner.Load(); n != 0 {
		t.Errorf("the other loopback host was asked %d times, want 0", n)
	}
	if len(res.Pages) != 2 || len(res.Pages[0].Missing) < 2 {
		t.Fatalf("%d pages captured, the first missing %v; want the home page (its image and frame left out) and two.html", len(res.Pages), res.Pages[0].Missing)
	}
	if bytes.Contains(res.PDF, []byte("s3cret")) {
		t.Error("the password of a link is in the PDF")
	}
	if res.Links != 1 {
		t.Errorf("%d links made internal, want 1 (to two.html, its user information left out)", res.Links)
	}
}

// A file fetched again after the page (one its renderer did not load) goes
// out as the browser's agent, as the page's own requests did, not as Go's.
func TestGetAgent(t *testing.T) {
	var got atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Store(r.UserAgent())
		w.Write([]byte("GIF89a"))
	}))
	defer srv.Close()
	b := &Browser{}
	for _, agent := range []string{"Mozilla/5.0 HeadlessChrome/156", ""} {
		if _, _, fe := b.get(context.Background(), srv.Client(), srv.URL+"/a.gif", agent, nil, time.Now); fe != nil {
			t.Fatal(fe)
		}
		want := agent
		if want == "" {
			want = "Go-http-client/1.1"
		}
		if ua, _ := got.Load().(string); ua != want {
			t.Errorf("agent %q: the server saw %q, want %q", agent, ua, want)
		}
	}
}
