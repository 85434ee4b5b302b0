package cli

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/webcap/webcap/internal/browsertest"
	"image"
	"image/color"
	"image/gif"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webcap/webcap/capture"
	"github.com/webcap/webcap/internal/pdfcheck"
)

// browserSuite skips a test unless the browser suites are on
// (browsertest.Env), and fails it when they are on without Chromium.
func browserSuite(t *testing.T) { browsertest.Chromium(t) }

// captureSite is a local site of 80 pages for the capture end-to-end test:
// eight sections of eight pages, pages sharing images and each with one
// of its own, ETag and Last-Modified on every answer (and 304 to a request
// that sends them back), two redirect chains (one of 3 hops) to pages
// that are also linked directly, a 404, a slow page, a non-ASCII path, a
// page whose image below the fold loads lazily, a page whose script
// POSTs, a page referencing what must not be fetched, and an image URL.
// It records what it sent, what it was asked, and can change a page.
type captureSite struct {
	mu           sync.Mutex
	files        map[string][]byte // path (decoded) -> body
	images       map[string][]string
	conditionals int // requests with If-None-Match or If-Modified-Since
	beacons      int // POSTs from the beacon page's script
	slowHits     int
	srv          *httptest.Server
}

const sections, perSection = 8, 8

// gifOf makes a w x h GIF of one colour.
func gifOf(t *testing.T, w, h int, c color.RGBA) []byte {
	t.Helper()
	img := image.NewPaletted(image.Rect(0, 0, w, h), color.Palette{c, color.White})
	var buf bytes.Buffer
	if err := gif.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func newCaptureSite(t *testing.T) *captureSite {
	s := &captureSite{files: map[string][]byte{}, images: map[string][]string{}}
	page := func(path, title, body string, imgs ...string) {
		var b strings.Builder
		fmt.Fprintf(&b, "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>%s</title></head><body><h1>%s</h1>", title, title)
		for _, im := range imgs {
			fmt.Fprintf(&b, `<img src="%s" width="24" height="24" alt="">`, im)
		}
		b.WriteString(body + "</body></html>")
		s.files[path] = []byte(b.String())
		s.images[path] = imgs
	}
	for i := range 5 {
		s.files[fmt.Sprintf("/img/shared%d.gif", i)] = gifOf(t, 2+i, 2, color.RGBA{uint8(40 * i), 0, 0, 255})
	}
	s.files["/img/lazy.gif"] = gifOf(t, 40, 30, color.RGBA{0, 0, 200, 255})
	s.files["/img/photo.gif"] = gifOf(t, 3, 5, color.RGBA{0, 150, 0, 255})
	var home strings.Builder
	for i := range sections {
		fmt.Fprintf(&home, `<p><a href="/site/s%d/index.html">section %d</a></p>`, i, i)
		var sec strings.Builder
		for j := range perSection {
			p := fmt.Sprintf("/site/s%d/p%d.html", i, j)
			own := fmt.Sprintf("/img/s%dp%d.gif", i, j)
			s.files[own] = gifOf(t, 1+j, 1+i, color.RGBA{uint8(30 * i), uint8(30 * j), 99, 255})
			next := fmt.Sprintf("p%d.html", (j+1)%perSection)
			page(p, fmt.Sprintf("Section %d, page %d", i, j),
				fmt.Sprintf(`<p>Text of section %d page %d.</p><a href="%s">next</a> <a href="index.html">up</a> <a href="/site/index.html#top">home</a>`, i, j, next),
				fmt.Sprintf("/img/shared%d.gif", (i+j)%5), own)
			fmt.Fprintf(&sec, `<li><a href="p%d.html">page %d</a></li>`, j, j)
		}
		page(fmt.Sprintf("/site/s%d/index.html", i), fmt.Sprintf("Section %d", i), "<ul>"+sec.String()+"</ul>", fmt.Sprintf("/img/shared%d.gif", i%3))
	}
	// Each redirect and its target are taken together by the two tabs
	// (queue places 8-9 and 10-11): the target directly, then through
	// the redirect; the 3-hop chain first, then its target.
	home.WriteString(`<p><a href="about.html">about</a> <a href="/old-page">old</a> <a href="/r1">r1</a> <a href="contact.html">contact</a> ` +
		`<a href="missing.html">missing</a> <a href="slow.html">slow</a> <a href="caf%C3%A9.html">café</a> <a href="lazy.html">lazy</a> ` +
		`<a href="beacon.html">beacon</a> <a href="hostile.html">hostile</a> <a href="/img/photo.gif">photo</a></p>`)
	page("/site/index.html", "Home", `<a id="top"></a>`+home.String(), "/img/shared0.gif")
	page("/site/about.html", "About", `<p>About us.</p>`, "/img/shared1.gif")
	page("/site/contact.html", "Contact", `<p>Write to us.</p>`, "/img/shared2.gif")
	page("/site/slow.html", "Slow", `<p>It took a while.</p>`, "/img/shared3.gif")
	page("/site/café.html", "Café", `<p>Non-ASCII path.</p>`, "/img/shared4.gif")
	// The lazy image is far below the fold: Chromium loads it only when
	// it is about to be seen.
	page("/site/lazy.html", "Lazy", `<div style="height:6000px">spacer</div><img loading="lazy" src="/img/lazy.gif" width="40" height="30" alt="lazy">`)
	s.images["/site/lazy.html"] = []string{"/img/lazy.gif"}
	page("/site/beacon.html", "Beacon", `<p>Analytics.</p><script>fetch("/beacon", {method: "POST", body: "ping"});</script>`, "/img/shared0.gif")
	// References that cannot or must not be fetched: another scheme, a
	// cloud metadata address. The page is captured; its identifier covers
	// the one image that can be fetched.
	page("/site/hostile.html", "Hostile", `<img src="file:///etc/passwd"><img src="http://169.254.169.254/latest/meta-data/"><p>Hostile.</p>`, "/img/shared1.gif")
	s.images["/site/hostile.html"] = []string{"/img/shared1.gif"}

	modified := time.Now().UTC().Add(-time.Minute)
	mux := http.NewServeMux()
	mux.Handle("/old-page", http.RedirectHandler("/site/about.html", http.StatusFound))
	mux.Handle("/r1", http.RedirectHandler("/r2", http.StatusMovedPermanently))
	mux.Handle("/r2", http.RedirectHandler("/r3", http.StatusFound))
	mux.Handle("/r3", http.RedirectHandler("/site/contact.html", http.StatusTemporaryRedirect))
	mux.HandleFunc("/beacon", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.beacons++
		s.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		body, ok := s.files[r.URL.Path]
		if r.Header.Get("If-None-Match") != "" || r.Header.Get("If-Modified-Since") != "" {
			s.conditionals++
		}
		slow := r.URL.Path == "/site/slow.html"
		if slow {
			s.slowHits++
		}
		s.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		if slow {
			// Slow, not too slow: a page that takes a second is waited for.
			select {
			case <-time.After(time.Second):
			case <-r.Context().Done():
				return
			}
		}
		sum := md5.Sum(body)
		etag := `"` + hex.EncodeToString(sum[:]) + `"`
		w.Header().Set("ETag", etag)
		w.Header().Set("Last-Modified", modified.Format(http.TimeFormat))
		// A browser that keeps answers asks again each time, with the
		// validators.
		w.Header().Set("Cache-Control", "no-cache")
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		if strings.HasSuffix(r.URL.Path, ".gif") {
			w.Header().Set("Content-Type", "image/gif")
		} else {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
		w.Write(body)
	})
	s.srv = httptest.NewServer(mux)
	t.Cleanup(s.srv.Close)
	return s
}

// id is a page set's identifier computed from the bytes the server sends:
// MD5 of the page, then of each of its images' MD5, in order of first
// reference (an image page: MD5 of its bytes).
func (s *captureSite) id(path string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := md5.New()
	h.Write(s.files[path])
	for _, im := range s.images[path] {
		sum := md5.Sum(s.files[im])
		h.Write(sum[:])
	}
	return strings.ToUpper(hex.EncodeToString(h.Sum(nil)))
}

// pages are the paths the capture must hold as page sets.
func (s *captureSite) pages() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for p := range s.files {
		if strings.HasPrefix(p, "/site/") {
			out = append(out, p)
		}
	}
	return append(out, "/img/photo.gif")
}

// refreshReport is the part of refresh --json the test reads.
type refreshReport struct {
	Commands []capture.Replay `json:"commands"`
	Pages    []capture.Change `json:"changes"`
}

// TestBrowserCaptureSite is the end-to-end check of a capture against what the
// server sent, through the commands as a user runs them, at the size of a
// real site (80 pages: past the 16 at which merged files once failed).
func TestBrowserCaptureSite(t *testing.T) {
	browserSuite(t)
	s := newCaptureSite(t)
	base := s.srv.URL
	dir := t.TempDir()
	file := filepath.Join(dir, "site.pdf")
	var sum struct {
		Pages []struct {
			URL     string         `json:"url"`
			Title   string         `json:"title"`
			Chains  [][]string     `json:"chains"`
			Pages   []int          `json:"pages"`
			ID      string         `json:"id"`
			Missing []capture.Skip `json:"missing"`
		} `json:"captured"`
		Skips  []capture.Skip `json:"skipped"`
		Errors int            `json:"auditErrors"`
	}
	if code := runJSON(t, &sum, "capture", "--json", "--levels", "3", "--max-pages", "200", "--wait-idle", "100ms", base+"/site/index.html", "-o", file); code != 0 {
		t.Fatalf("capture: exit %d: %d pages, %d skipped, %d audit errors", code, len(sum.Pages), len(sum.Skips), sum.Errors)
	}

	// Every page once, with the identifier of the bytes served.
	want := s.pages()
	t.Logf("%d pages captured, %d URLs skipped", len(sum.Pages), len(sum.Skips))
	got := map[string]int{}
	pagesOf := map[string][]int{}
	for _, p := range sum.Pages {
		path := strings.TrimPrefix(p.URL, base)
		got[path]++
		pagesOf[path] = p.Pages
		decoded := strings.ReplaceAll(path, "caf%C3%A9", "café")
		if id := s.id(decoded); p.ID != id {
			t.Errorf("%s: ID %s, want %s (MD5 of the served bytes)", path, p.ID, id)
		}
	}
	for _, p := range want {
		if p == "/site/café.html" {
			p = "/site/caf%C3%A9.html"
		}
		if got[p] != 1 {
			t.Errorf("%s: %d page sets, want 1", p, got[p])
		}
	}
	if len(sum.Pages) != len(want) {
		t.Errorf("%d page sets, want %d", len(sum.Pages), len(want))
	}
	// The redirect chains: one set each, with the whole chain.
	for _, ch := range []struct{ page, chain string }{
		{"/site/about.html", "/old-page /site/about.html"},
		{"/site/contact.html", "/r1 /r2 /r3 /site/contact.html"},
	} {
		for _, p := range sum.Pages {
			if p.URL != base+ch.page {
				continue
			}
			var chains []string
			for _, c := range p.Chains {
				chains = append(chains, strings.ReplaceAll(strings.Join(c, " "), base, ""))
			}
			if !slices.Equal(chains, []string{ch.chain}) {
				t.Errorf("%s: redirect chains %q, want [%s]", ch.page, chains, ch.chain)
			}
		}
	}
	// The hostile page is captured, and says what its identifier leaves out.
	for _, p := range sum.Pages {
		if p.URL == base+"/site/hostile.html" {
			var kinds []string
			for _, m := range p.Missing {
				kinds = append(kinds, m.Kind+" "+m.URL)
			}
			if !slices.Equal(kinds, []string{"scheme file:///etc/passwd", "blocked http://169.254.169.254/latest/meta-data/"}) {
				t.Errorf("hostile page: left out %q", kinds)
			}
		}
	}
	// The 404 is skipped for it; nothing is skipped for a failure.
	var missing bool
	for _, k := range sum.Skips {
		switch {
		case k.URL == base+"/site/missing.html":
			missing = k.Kind == "http" && k.Status == http.StatusNotFound
		case k.Kind != capture.SkipLevel && k.Kind != capture.SkipScope:
			t.Errorf("skipped %s: %s (%s)", k.URL, k.Reason, k.Kind)
		}
	}
	if !missing {
		t.Errorf("the 404 is not skipped as such: %+v", sum.Skips)
	}
	s.mu.Lock()
	if s.conditionals != 0 {
		t.Errorf("the server got %d conditional requests: identifiers must be over whole bodies", s.conditionals)
	}
	beacons := s.beacons
	s.mu.Unlock()

	checkSiteFile(t, s, file, pagesOf["/site/lazy.html"])

	// Filed as Acrobat filed its captures: one item for the site, an item
	// per page set under it (its title, its first page, its Article), and
	// every page's tags under its set's Article.
	type filedSet struct{ title, url string }
	var sets []filedSet
	for _, p := range sum.Pages {
		title := p.Title
		if title == "" {
			title = p.URL
		}
		sets = append(sets, filedSet{title, p.URL})
	}
	checkFiled := func(file string, sets []filedSet, text ...string) []*pdfcheck.Bookmark {
		t.Helper()
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var info infoJSON
		runJSON(t, &info, "info", "--json", file)
		first := map[string]int{}
		for _, cs := range info.ContentSets {
			if cs.Subtype == "SPS" {
				first[cs.Sources[0].URL] = cs.Pages[0]
			}
		}
		outline, st := pdfcheck.Tags(t, data)
		if outline == nil {
			return nil
		}
		if len(outline) == 0 || outline[0].Title != "127.0.0.1" || outline[0].Page != 0 || len(outline[0].Kids) != len(sets) {
			t.Fatalf("%s: outline %+v, want one item for 127.0.0.1 with %d kids", file, outline, len(sets))
		}
		for i, k := range outline[0].Kids {
			if k.Title != sets[i].title || k.Page != first[sets[i].url] || !k.Article {
				t.Errorf("%s: bookmark %d: %q page %d (tagged %v), want %q page %d, tagged with its Article", file, i, k.Title, k.Page, k.Article, sets[i].title, first[sets[i].url])
			}
		}
		if st == "" {
			return outline
		}
		if n := strings.Count(st, "\n  Art\n"); n != len(sets) {
			t.Errorf("%s: pdfinfo -struct-text has %d Articles, want %d", file, n, len(sets))
		}
		for _, w := range text {
			if !strings.Contains(st, w) {
				t.Errorf("%s: pdfinfo -struct-text lacks %q", file, w)
			}
		}
		return outline
	}
	var headings []string
	for i := range sections {
		for j := range perSection {
			headings = append(headings, fmt.Sprintf("Text of section %d page %d.", i, j))
		}
	}
	checkFiled(file, sets, headings...)

	// Every URL of a redirect chain finds its page.
	for _, u := range []string{"/old-page", "/site/about.html", "/r1", "/r2", "/r3", "/site/contact.html"} {
		var q struct {
			Found bool `json:"found"`
			Sets  []struct {
				Sources []struct {
					URL string `json:"url"`
				} `json:"sources"`
			} `json:"sets"`
		}
		runJSON(t, &q, "lookup", "--json", file, base+u)
		if !q.Found || len(q.Sets) != 1 || !strings.HasPrefix(strings.TrimPrefix(q.Sets[0].Sources[0].URL, base), "/site/") {
			t.Errorf("lookup %s: %+v, want the one page it leads to", u, q)
		}
	}

	// Refresh at once: nothing changed, and a dry run POSTs nothing (the
	// beacon page's script included).
	refresh := func(wantCode int) map[string]capture.Change {
		t.Helper()
		var rep refreshReport
		if code := runJSON(t, &rep, "refresh", "--json", "--dry-run", "--allow-private", "--max-pages", "200", "--wait-idle", "100ms", file); code != wantCode {
			t.Errorf("refresh --dry-run: exit %d, want %d", code, wantCode)
		}
		out := map[string]capture.Change{}
		for _, c := range rep.Pages {
			out[strings.TrimPrefix(c.URL, base)] = c
		}
		return out
	}
	now := refresh(0)
	for p, c := range now {
		if c.Status != capture.StatusUnchanged {
			t.Errorf("refresh at once: %s %s (%s)", p, c.Status, c.Reason)
		}
	}
	if len(now) != len(want) {
		t.Errorf("refresh at once: %d pages compared, want %d", len(now), len(want))
	}
	s.mu.Lock()
	if s.beacons != beacons {
		t.Errorf("a dry run let a page's script POST (%d beacons, %d before)", s.beacons, beacons)
	}
	s.mu.Unlock()

	// One page's text changes: exactly that page.
	const changed = "/site/s3/p4.html"
	s.mu.Lock()
	s.files[changed] = bytes.Replace(s.files[changed], []byte("Text of section 3"), []byte("New text of section 3"), 1)
	s.mu.Unlock()
	for p, c := range refresh(1) {
		if (p == changed) != (c.Status == capture.StatusChanged) || (p != changed && c.Status != capture.StatusUnchanged) {
			t.Errorf("after %s changed: %s is %s (%s)", changed, p, c.Status, c.Reason)
		}
	}
	// Refreshed for real: the changed page's bookmark opens its new page,
	// "New and Changed Pages" lists it alone, its new text is tagged.
	refreshed, reportFile := filepath.Join(dir, "refreshed.pdf"), filepath.Join(dir, "report.json")
	var rep refreshReport
	if code := runJSON(t, &rep, "refresh", "--json", "--allow-private", "--max-pages", "200", "--wait-idle", "100ms", "--report", reportFile, file, "-o", refreshed); code != 0 {
		t.Errorf("refresh -o: exit %d", code)
	}
	// Its report's diff shows the words that changed, on that page alone.
	var report refreshReportJSON
	if b, err := os.ReadFile(reportFile); err != nil || json.Unmarshal(b, &report) != nil {
		t.Fatalf("refresh --report: %v", err)
	}
	for _, c := range report.Changes {
		var ops []string
		for _, d := range c.Diff {
			if d.Op != "equal" {
				ops = append(ops, map[string]string{"insert": "+", "delete": "-"}[d.Op]+d.Text)
			}
		}
		if p := strings.TrimPrefix(c.URL, base); p == changed {
			if c.Change != capture.ChangeText || !strings.Contains(strings.Join(ops, " "), "+New") {
				t.Errorf("report: %s is %s, its diff %q, want text-changed with +New", p, c.Change, ops)
			}
		} else if c.Change != capture.StatusUnchanged || len(ops) != 0 {
			t.Errorf("report: %s is %s, diff %q, want unchanged", p, c.Change, ops)
		}
	}
	if outline := checkFiled(refreshed, sets, "New text of section 3 page 4."); outline != nil {
		if last := outline[len(outline)-1]; len(outline) != 2 || last.Title != capture.NewAndChanged || len(last.Kids) != 1 ||
			last.Kids[0].Title != "Section 3, page 4 (changed)" || !last.Kids[0].Article {
			t.Errorf("refreshed outline: %+v", outline)
		}
	}
	// A page appended goes under the same site's item.
	s.mu.Lock()
	s.files["/site/extra.html"] = []byte(`<!DOCTYPE html><html><head><title>Extra page</title></head><body><h1>Extra</h1><p>Appended text.</p></body></html>`)
	s.mu.Unlock()
	appended := filepath.Join(dir, "appended.pdf")
	if code := runJSON(t, &struct{}{}, "append", "--json", "--allow-private", "--wait-idle", "100ms", refreshed, base+"/site/extra.html", "-o", appended); code != 0 {
		t.Errorf("append: exit %d", code)
	}
	checkFiled(appended, append(sets, filedSet{"Extra page", base + "/site/extra.html"}), "Appended text.", "New text of section 3 page 4.")

	// The server stops: every page is unreachable, none gone.
	s.srv.Close()
	down := refresh(1)
	for p, c := range down {
		if c.Status != capture.StatusUnreachable || c.Kind != "refused" {
			t.Errorf("server down: %s is %s (%s)", p, c.Status, c.Reason)
		}
	}
	if len(down) != len(want) {
		t.Errorf("server down: %d pages, want %d", len(down), len(want))
	}
	ios, _, stdout, stderr := Test()
	if code := Main(context.Background(), []string{"refresh", "--allow-private", file, "-o", filepath.Join(dir, "down.pdf")}, ios); code != 1 ||
		!strings.Contains(stderr.String(), "nothing written: no page of") || !strings.Contains(stdout.String(), "unreachable") {
		t.Errorf("refresh -o with the server down: exit %d\n%s%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "down.pdf")); err == nil {
		t.Error("refresh wrote a file with the server down")
	}
}

// checkSiteFile checks a capture with tools that are not webcap's: qpdf
// (--check, and every internal link through its JSON), pdftoppm renders
// every page, pdfimages finds the lazy image on its page; and webcap's
// audit finds no error.
func checkSiteFile(t *testing.T, s *captureSite, file string, lazyPages []int) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ios, _, stdout, _ := Test()
	if code := Main(context.Background(), []string{"audit", "--in-process", file}, ios); code != 0 {
		t.Errorf("audit: exit %d\n%s", code, stdout)
	}
	if pdfcheck.InternalLinks(t, data) == 0 {
		t.Error("no internal link")
	}
	var info infoJSON
	runJSON(t, &info, "info", "--json", file)
	pdfcheck.Render(t, data, info.Pages)
	// The image URL's image set has the MD5 of the served image; the
	// redirect targets' sources are URL alias dictionaries.
	images, aliases := 0, 0
	for _, cs := range info.ContentSets {
		src := cs.Sources[0]
		path := strings.TrimPrefix(src.URL, s.srv.URL)
		if cs.Subtype == "SIS" {
			images++
			if id := s.id(path); path != "/img/photo.gif" || cs.ID == nil || *cs.ID != id {
				t.Errorf("image set %s: ID %v, want %s", path, cs.ID, id)
			}
		}
		if src.Alias {
			aliases++
			if path != "/site/about.html" && path != "/site/contact.html" {
				t.Errorf("%s: an alias dictionary %v", path, src.Chains)
			}
		}
	}
	if images != 1 || aliases != 2 {
		t.Errorf("%d image sets, %d alias dictionaries; want 1 and 2", images, aliases)
	}
	pdfimages, err := exec.LookPath("pdfimages")
	if err != nil || len(lazyPages) == 0 {
		t.Errorf("pdfimages (poppler-utils) %v; lazy page on %v", err, lazyPages)
		return
	}
	out, err := exec.Command(pdfimages, "-list", "-f", fmt.Sprint(lazyPages[0]), "-l", fmt.Sprint(lazyPages[len(lazyPages)-1]), file).CombinedOutput()
	if err != nil {
		t.Fatalf("pdfimages: %v\n%s", err, out)
	}
	found := false
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		found = found || (len(f) > 4 && f[2] == "image" && f[3] == "40" && f[4] == "30")
	}
	if !found {
		t.Errorf("the lazy image (40x30) is not on its pages %v:\n%s", lazyPages, out)
	}
}
