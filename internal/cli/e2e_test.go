package cli

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/webcap/webcap/capture"
	"github.com/webcap/webcap/internal/pdfcheck"
)

// e2eSite is the end-to-end test's site: pages under /docs/ linking to
// each other, a shared logo and an image of one page, a redirect chain to
// the home page, a page outside the path (/blog/), a page on another host
// and a form. Files can be changed while it runs.
type e2eSite struct {
	mu    sync.Mutex
	files map[string]string // path -> body; content type by extension
	srv   *httptest.Server
	other *httptest.Server // "another site": localhost instead of 127.0.0.1
	posts int
}

var gifBytes = "GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"

func newE2ESite(t *testing.T) *e2eSite {
	s := &e2eSite{}
	s.other = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<title>Elsewhere</title><p>another site</p>`))
	}))
	t.Cleanup(s.other.Close)
	ext := strings.Replace(s.other.URL, "127.0.0.1", "localhost", 1) + "/ext.html"
	s.files = map[string]string{
		"/docs/index.html": `<html><head><title>Docs</title></head><body><img src="/img/logo.gif"><p>Welcome to the docs.</p>` +
			`<a href="a.html">a</a> <a href="b.html">b</a> <a href="/blog/post.html">blog</a> <a href="` + ext + `">elsewhere</a> ` +
			`<a href="form.html">form</a></body></html>`,
		"/docs/a.html":      `<html><head><title>A</title></head><body><img src="/img/logo.gif"><p>Alpha text.</p><a href="deep/c.html">c</a> <a href="index.html#top">home</a></body></html>`,
		"/docs/b.html":      `<html><head><title>B</title></head><body><img src="/img/logo.gif"><img src="/img/b.gif"><p>Beta text.</p></body></html>`,
		"/docs/deep/c.html": `<html><head><title>C</title></head><body><p class="old">Gamma text.</p><a href="../a.html">a</a></body></html>`,
		"/docs/form.html":   `<html><head><title>Form</title></head><body><form method="post" action="search"><input name="q"><input type="submit"></form></body></html>`,
		"/blog/post.html":   `<html><head><title>Post</title></head><body><p>A post.</p><a href="more.html">more</a></body></html>`,
		"/blog/more.html":   `<html><head><title>More</title></head><body><p>More.</p></body></html>`,
		"/img/logo.gif":     gifBytes,
		"/img/b.gif":        strings.Replace(gifBytes, "\xff\xff\xff", "\x00\xff\x00", 1),
	}
	mux := http.NewServeMux()
	mux.Handle("/docs/start", http.RedirectHandler("/docs/", http.StatusFound))
	mux.Handle("/docs/{$}", http.RedirectHandler("/docs/index.html", http.StatusMovedPermanently))
	mux.HandleFunc("/docs/search", func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		s.mu.Lock()
		s.posts++
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<title>Search</title><p>%d results for %s</p>", len(r.PostForm.Get("q")), r.PostForm.Get("q"))
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		body, ok := s.file(r.URL.Path)
		if !ok {
			http.NotFound(w, r)
			return
		}
		if strings.HasSuffix(r.URL.Path, ".gif") {
			w.Header().Set("Content-Type", "image/gif")
		} else {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
		w.Write([]byte(body))
	})
	s.srv = httptest.NewServer(mux)
	t.Cleanup(s.srv.Close)
	return s
}

func (s *e2eSite) file(path string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.files[path]
	return b, ok
}

func (s *e2eSite) set(path, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files[path] = body
}

// pageID is a page set's identifier computed by its definition from the
// served bytes: MD5 of the page, then of each image's MD5 in order.
func (s *e2eSite) pageID(path string, images ...string) string {
	h := md5.New()
	b, _ := s.file(path)
	h.Write([]byte(b))
	for _, im := range images {
		ib, _ := s.file(im)
		sum := md5.Sum([]byte(ib))
		h.Write(sum[:])
	}
	return strings.ToUpper(hex.EncodeToString(h.Sum(nil)))
}

// images are the images of each page, in order of reference.
var e2eImages = map[string][]string{
	"/docs/index.html": {"/img/logo.gif"},
	"/docs/a.html":     {"/img/logo.gif"},
	"/docs/b.html":     {"/img/logo.gif", "/img/b.gif"},
}

// runJSON runs webcap with args and decodes its JSON output into v.
func runJSON(t *testing.T, v any, args ...string) int {
	t.Helper()
	ios, _, stdout, stderr := Test()
	code := Main(context.Background(), args, ios)
	if err := json.Unmarshal(stdout.Bytes(), v); err != nil {
		t.Fatalf("webcap %q: exit %d, output is not JSON: %v\n%s%s", args, code, err, stdout, stderr)
	}
	checkSchema(t, stdout.Bytes())
	return code
}

// TestEndToEnd is the end-to-end case, through the commands as a
// user runs them: capture a local site with levels 1 to 3 and both flags,
// audit it, read it back with info --json and compare with what the
// server served, check links and rendering, then refresh after a text, an
// image and a markup-only change.
func TestEndToEnd(t *testing.T) {
	browserSuite(t)
	s := newE2ESite(t)
	base := s.srv.URL
	ext := strings.Replace(s.other.URL, "127.0.0.1", "localhost", 1) + "/ext.html"
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		flags []string
		want  []string // captured URLs, by path (or ext)
	}{
		{"levels 1", []string{"--levels", "1"}, []string{"/docs/index.html"}},
		{"levels 2 same site", []string{"--levels", "2", "--same-site"},
			[]string{"/docs/index.html", "/docs/a.html", "/docs/b.html", "/blog/post.html", "/docs/form.html"}},
		{"levels 3 same path", []string{"--levels", "3", "--same-path"},
			[]string{"/docs/index.html", "/docs/a.html", "/docs/b.html", "/docs/form.html", "/docs/deep/c.html"}},
		{"levels 3 both", []string{"--levels", "3", "--same-site", "--same-path"},
			[]string{"/docs/index.html", "/docs/a.html", "/docs/b.html", "/docs/form.html", "/docs/deep/c.html"}},
		{"levels 3 anywhere", []string{"--levels", "3"},
			[]string{"/docs/index.html", "/docs/a.html", "/docs/b.html", "/blog/post.html", ext, "/docs/form.html", "/docs/deep/c.html", "/blog/more.html"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".pdf")
			args := append([]string{"capture", "--json", "--ignore-robots", "--wait-idle", "50ms"}, tc.flags...)
			var sum struct {
				Pages []struct {
					URL string `json:"url"`
				} `json:"captured"`
				Skips  []capture.Skip `json:"skipped"`
				Errors int            `json:"auditErrors"`
			}
			if code := runJSON(t, &sum, append(args, base+"/docs/start", "-o", out)...); code != 0 {
				t.Fatalf("capture: exit %d: %+v", code, sum)
			}
			var got []string
			for _, p := range sum.Pages {
				got = append(got, strings.TrimPrefix(p.URL, base))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("captured %q, want %q", got, tc.want)
			}
			checkE2ECapture(t, s, out, tc.want)
		})
	}

	// Refresh the same-path capture after one page's text, one image and
	// one page's markup change.
	file := filepath.Join(dir, "levels-3-same-path.pdf")
	a, _ := s.file("/docs/a.html")
	s.set("/docs/a.html", strings.Replace(a, "Alpha text.", "Alpha text, revised.", 1))
	s.set("/img/b.gif", strings.Replace(gifBytes, "\xff\xff\xff", "\x00\x00\xff", 1))
	c, _ := s.file("/docs/deep/c.html")
	s.set("/docs/deep/c.html", strings.Replace(c, `class="old"`, `class="new"`, 1))
	for _, tc := range []struct {
		textOnly bool
		changed  []string
	}{
		{false, []string{"/docs/a.html", "/docs/b.html", "/docs/deep/c.html"}},
		{true, []string{"/docs/a.html"}},
	} {
		args := []string{"refresh", "--json", "--dry-run", "--ignore-robots", "--wait-idle", "50ms", "--allow-private"}
		if tc.textOnly {
			args = append(args, "--text-only")
		}
		var rep struct {
			Pages []capture.Change `json:"changes"`
		}
		if code := runJSON(t, &rep, append(args, file)...); code != 1 {
			t.Errorf("refresh --text-only=%v: exit %d, want 1", tc.textOnly, code)
		}
		var changed []string
		for _, c := range rep.Pages {
			switch c.Status {
			case "changed":
				changed = append(changed, strings.TrimPrefix(c.URL, base))
			case "unchanged":
			default:
				t.Errorf("refresh --text-only=%v: %s is %s", tc.textOnly, c.URL, c.Status)
			}
		}
		sort.Strings(changed)
		if !slices.Equal(changed, tc.changed) {
			t.Errorf("refresh --text-only=%v: changed %q, want exactly %q", tc.textOnly, changed, tc.changed)
		}
	}
	// Writing: the changed pages replaced; the result matches the site now.
	refreshed := filepath.Join(dir, "refreshed.pdf")
	var rep struct {
		Replaced int `json:"replaced"`
		Checked  int `json:"checked"`
		Errors   int `json:"auditErrors"`
	}
	if code := runJSON(t, &rep, "refresh", "--json", "--ignore-robots", "--wait-idle", "50ms", "--allow-private", file, "-o", refreshed); code != 0 || rep.Replaced != 3 || rep.Checked != 2 {
		t.Errorf("refresh -o: exit %d, %+v; want 3 replaced, 2 checked", code, rep)
	}
	checkE2ECapture(t, s, refreshed, []string{"/docs/index.html", "/docs/a.html", "/docs/b.html", "/docs/form.html", "/docs/deep/c.html"})

	// The form, submitted by POST.
	posted := filepath.Join(dir, "posted.pdf")
	var sum struct {
		Errors int `json:"auditErrors"`
	}
	if code := runJSON(t, &sum, "capture", "--json", "--ignore-robots", "--wait-idle", "50ms", "--post", "q=capture", base+"/docs/search", "-o", posted); code != 0 || s.posts != 1 {
		t.Errorf("capture --post: exit %d, %d posts", code, s.posts)
	}
	var info infoJSON
	runJSON(t, &info, "info", "--json", posted)
	if c := info.SpiderInfo.Commands[0]; c.Method != "POST" || c.PostData == nil || *c.PostData != "q=capture" || info.ContentSets[0].Sources[0].Submission != "POST" {
		t.Errorf("the form's command %+v, source %+v", c, info.ContentSets[0].Sources[0])
	}
}

// infoJSON is the part of info --json the test reads.
type infoJSON struct {
	Pages      int `json:"pages"`
	SpiderInfo struct {
		Commands []struct {
			URL      string   `json:"url"`
			Levels   int64    `json:"levels"`
			Flags    []string `json:"flags"`
			Method   string   `json:"method"`
			PostData *string  `json:"postData"`
		} `json:"commands"`
	} `json:"spiderInfo"`
	ContentSets []struct {
		Subtype     string  `json:"subtype"`
		Pages       []int   `json:"pages"`
		ID          *string `json:"id"`
		ContentType *string `json:"contentType"`
		Sources     []struct {
			URL        string     `json:"url"`
			Alias      bool       `json:"alias"`
			Chains     [][]string `json:"chains"`
			Submission string     `json:"submission"`
		} `json:"sources"`
	} `json:"contentSets"`
}

// checkCapture audits a capture, reads it back with info --json and
// compares it with what the site serves: one page set per captured URL
// with the served content type and the identifier computed from the
// served bytes, the home page's redirect chain; then its internal links
// and its rendering.
func checkE2ECapture(t *testing.T, s *e2eSite, file string, want []string) {
	t.Helper()
	base := s.srv.URL
	ios, _, stdout, _ := Test()
	if code := Main(context.Background(), []string{"audit", "--in-process", file}, ios); code != 0 {
		t.Errorf("audit: exit %d\n%s", code, stdout)
	}
	var info infoJSON
	if code := runJSON(t, &info, "info", "--json", file); code != 0 {
		t.Fatalf("info: exit %d", code)
	}
	var got []string
	for _, cs := range info.ContentSets {
		if cs.Subtype != "SPS" {
			t.Errorf("a %s set: no page here is an image", cs.Subtype)
			continue
		}
		src := cs.Sources[0]
		path := strings.TrimPrefix(src.URL, base)
		got = append(got, path)
		if !strings.HasPrefix(path, "/") {
			continue // the other site's page
		}
		if ct, _ := s.contentType(path); cs.ContentType == nil || *cs.ContentType != ct {
			t.Errorf("%s: content type %v, want %s", path, cs.ContentType, ct)
		}
		if id := s.pageID(path, e2eImages[path]...); cs.ID == nil || *cs.ID != id {
			t.Errorf("%s: ID %v, want %s (from the served bytes)", path, cs.ID, id)
		}
		if path == "/docs/index.html" {
			if len(src.Chains) != 1 || !slices.Equal(src.Chains[0], []string{base + "/docs/start", base + "/docs/", src.URL}) {
				t.Errorf("home page chains %q", src.Chains)
			}
		}
	}
	sort.Strings(got)
	if want = slices.Sorted(slices.Values(want)); !slices.Equal(got, want) {
		t.Errorf("info: page sets of %q, want %q", got, want)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) > 1 && pdfcheck.InternalLinks(t, data) == 0 {
		t.Error("no internal link")
	}
	pdfcheck.Render(t, data, info.Pages)
}

func (s *e2eSite) contentType(path string) (string, bool) {
	if strings.HasSuffix(path, ".gif") {
		return "image/gif", true
	}
	return "text/html; charset=utf-8", true
}
