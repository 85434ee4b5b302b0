//go:build linux

package cli

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/webcap/webcap/capture"
	"github.com/webcap/webcap/internal/realsite"
)

// realSite is issue 29's realistic site (package realsite), served on
// loopback for the test.
type realSite struct {
	*realsite.Site
	srv *httptest.Server
}

func newRealSite(t *testing.T) *realSite {
	t.Helper()
	site, err := realsite.New()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(site)
	t.Cleanup(srv.Close)
	t.Cleanup(site.Stop) // before srv.Close, which waits for the handlers
	return &realSite{site, srv}
}

// realCapture is what the test reads of capture --json.
type realCapture struct {
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

// usage is the CPU time of this process and of its descendants that
// ended: the test is their subreaper (prctl PR_SET_CHILD_SUBREAPER), so a
// Chromium process orphaned when its parent ends is reparented to it, and
// reaped here, its CPU counted in RUSAGE_CHILDREN. Called once nothing
// the test started runs any more.
func usage(t *testing.T) time.Duration {
	t.Helper()
	subreaper.Do(func() {
		if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, 36 /* PR_SET_CHILD_SUBREAPER */, 1, 0); e != 0 {
			t.Logf("prctl(PR_SET_CHILD_SUBREAPER): %v: the CPU of Chromium's orphaned processes is not counted", e)
		}
	})
	reaped := make(chan struct{})
	go func() {
		defer close(reaped)
		for {
			var ws syscall.WaitStatus
			if _, err := syscall.Wait4(-1, &ws, 0, nil); err == syscall.ECHILD {
				return
			}
		}
	}()
	select {
	case <-reaped:
	case <-time.After(30 * time.Second):
		t.Log("a descendant still runs 30s after the capture: its CPU is not counted")
	}
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if err := syscall.Getrusage(who, &ru); err != nil {
			t.Fatal(err)
		}
		total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return total
}

var subreaper sync.Once

// realCaptureFlags are capture's and refresh's flags for the site: a
// shorter --page-timeout than the default 30 s, so the image that never
// answers is given up after 5 s.
var realCaptureFlags = []string{"--allow-private", "--page-timeout", "10s", "--progress", "none"}

// captureReal captures the site with --levels 3 and --jobs jobs into
// file, and returns its summary, logging its wall and CPU time (webcap's
// and Chromium's, whose processes it waits for).
func captureReal(t *testing.T, s *realSite, file string, jobs int) realCapture {
	t.Helper()
	s.Reset()
	var sum realCapture
	start, cpu := time.Now(), usage(t)
	args := append([]string{"capture", "--json", "--levels", "3", "--jobs", strconv.Itoa(jobs)}, realCaptureFlags...)
	code := runJSON(t, &sum, append(args, s.srv.URL+"/index.html", "-o", file)...)
	t.Logf("capture --jobs %d: %d page sets in %v wall, %v CPU (webcap and Chromium)", jobs, len(sum.Pages), time.Since(start).Round(time.Millisecond), (usage(t) - cpu).Round(time.Millisecond))
	if code != 0 {
		t.Errorf("capture --jobs %d: exit %d, %d audit errors, skips %+v", jobs, code, sum.Errors, sum.Skips)
	}
	return sum
}

// realSets reads a capture's page sets back (info --json): path -> its
// identifier and its pages, 1-based.
func realSets(t *testing.T, s *realSite, file string) map[string]struct {
	ID    string
	Pages []int
	CT    string
} {
	t.Helper()
	var info infoJSON
	if code := runJSON(t, &info, "info", "--json", file); code != 0 {
		t.Fatalf("info %s: exit %d", file, code)
	}
	out := map[string]struct {
		ID    string
		Pages []int
		CT    string
	}{}
	for _, cs := range info.ContentSets {
		path := strings.TrimPrefix(cs.Sources[0].URL, s.srv.URL)
		v := out[path]
		if cs.ID != nil {
			v.ID = *cs.ID
		}
		if cs.ContentType != nil {
			v.CT = *cs.ContentType
		}
		v.Pages = cs.Pages
		if _, dup := out[path]; dup {
			t.Errorf("%s: %s holds two content sets for %s", file, filepath.Base(file), path)
		}
		out[path] = v
	}
	return out
}

// pdftotextPages is pdftotext of pages [first, last] (1-based) of file.
func pdftotextPages(t *testing.T, file string, pages ...int) string {
	t.Helper()
	args := []string{"-q"}
	if len(pages) > 0 {
		args = append(args, "-f", strconv.Itoa(pages[0]), "-l", strconv.Itoa(pages[len(pages)-1]))
	}
	out, err := exec.Command("pdftotext", append(args, file, "-")...).Output()
	if err != nil {
		t.Fatalf("pdftotext %s: %v", file, err)
	}
	return string(out)
}

// TestBrowserRealSite is issue 29's first "done when": the realistic site
// captures with the linked PDF's own pages and text, the slow-image page
// printed with its image named missing, the images a script inserts
// after 1 s and 3 s, and every identifier equal to the one computed from
// the bytes the server sent; qpdf --check finds nothing.
func TestBrowserRealSite(t *testing.T) {
	browserSuite(t)
	for _, tool := range []string{"pdftotext", "pdfimages", "pdffonts", "qpdf"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not installed (poppler-utils, qpdf): %v", tool, err)
		}
	}
	s := newRealSite(t)
	file := filepath.Join(t.TempDir(), "site.pdf")
	sum := captureReal(t, s, file, 4)
	checkRealCapture(t, s, file, sum)

	// The slow page alone, as capture prints it without --json: a line
	// names the image left out and why.
	ios, _, stdout, stderr := Test()
	args := append([]string{"capture"}, realCaptureFlags...)
	code := Main(context.Background(), append(args, s.srv.URL+realsite.Slow, "-o", filepath.Join(t.TempDir(), "slow.pdf")), ios)
	left := fmt.Sprintf("left out  %s%s: did not arrive within 5s", s.srv.URL, realsite.Never)
	if code != 0 || !strings.Contains(stdout.String(), left) || !strings.Contains(stdout.String(), "an auxiliary file of "+s.srv.URL+realsite.Slow) {
		t.Errorf("capture of /slow.html: exit %d, want 0 and %q:\n%s%s", code, left, stdout, stderr)
	}
}

// checkRealCapture checks a capture of the site against what the server
// sent.
func checkRealCapture(t *testing.T, s *realSite, file string, sum realCapture) {
	t.Helper()
	base := s.srv.URL
	// Every page set once, the 404 skipped.
	var got []string
	byPath := map[string]int{}
	for i, p := range sum.Pages {
		path := strings.TrimPrefix(p.URL, base)
		got = append(got, path)
		byPath[path] = i
	}
	want := slices.Clone(realsite.Pages)
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("page sets:\n got %q\nwant %q", got, want)
	}
	missing404 := false
	for _, k := range sum.Skips {
		switch {
		case k.URL == base+realsite.Missing:
			missing404 = k.Kind == "http" && k.Status == http.StatusNotFound
		case k.Kind != capture.SkipLevel && k.Kind != capture.SkipScope:
			t.Errorf("skipped %s: %s (%s)", k.URL, k.Reason, k.Kind)
		}
	}
	if !missing404 {
		t.Errorf(realsite.Missing+" is not skipped as a 404: %+v", sum.Skips)
	}
	page := func(path string) (title string, chains [][]string, pages []int, missing []capture.Skip) {
		i, ok := byPath[path]
		if !ok {
			return "", nil, nil, nil
		}
		p := sum.Pages[i]
		return p.Title, p.Chains, p.Pages, p.Missing
	}

	// Every identifier, in the summary and in the file (info --json reads
	// the IDS tree's sets), is the one the served bytes give.
	sets := realSets(t, s, file)
	for _, p := range sum.Pages {
		path := strings.TrimPrefix(p.URL, base)
		want, err := s.WantID(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if !strings.EqualFold(p.ID, want) || !strings.EqualFold(sets[path].ID, want) {
			t.Errorf("%s: ID %s (in the file %s), want %s (from the bytes sent)", path, p.ID, sets[path].ID, want)
		}
	}

	// Titles in Japanese and Greek; the chain's page holds the chain.
	for path, title := range map[string]string{"/ja.html": "会社案内", "/el.html": "Σχετικά με εμάς", "/legacy.html": "Legacy"} {
		if got, _, _, _ := page(path); got != title {
			t.Errorf("%s: title %q, want %q", path, got, title)
		}
	}
	if _, chains, _, _ := page("/team.html"); len(chains) != 1 || strings.ReplaceAll(strings.Join(chains[0], " "), base, "") != "/old /moved /team.html" {
		t.Errorf("/team.html: chains %q, want [/old /moved /team.html]", chains)
	}

	// The linked PDF: its own 2 pages, their text the source's.
	_, _, pdfPages, _ := page(realsite.PDF)
	if len(pdfPages) != 2 || sets[realsite.PDF].CT != "application/pdf" {
		t.Errorf("the linked PDF: pages %v, /CT %q; want its 2 pages, application/pdf", pdfPages, sets[realsite.PDF].CT)
	} else {
		src := filepath.Join(t.TempDir(), "annual-report.pdf")
		if err := os.WriteFile(src, s.File(realsite.PDF), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, want := pdftotextPages(t, file, pdfPages...), pdftotextPages(t, src); got != want {
			t.Errorf("pdftotext of the linked PDF's pages:\n%q\nwant the source's\n%q", got, want)
		}
	}

	// The slow page: printed, its image named missing (did not arrive in
	// time), and the server saw the request given up.
	_, _, slowPages, slowMissing := page(realsite.Slow)
	if len(slowMissing) != 1 || slowMissing[0].URL != base+realsite.Never || slowMissing[0].Kind != "timeout" {
		t.Errorf("/slow.html: missing %+v, want /img/never.gif (timeout)", slowMissing)
	}
	if len(slowPages) == 0 || !strings.Contains(pdftotextPages(t, file, slowPages...), "A page whose image never arrives.") {
		t.Errorf("/slow.html: pages %v, its text not printed", slowPages)
	}
	for p := range byPath {
		if _, _, _, m := page(p); p != realsite.Slow && len(m) != 0 {
			t.Errorf("%s: missing %+v", p, m)
		}
	}

	// The chart: both images a script inserts (after 1 s and 3 s) are
	// printed, and "Loading chart…" is not.
	_, _, chartPages, _ := page("/chart.html")
	if len(chartPages) == 0 {
		t.Error("/chart.html: not printed")
	} else {
		text := pdftotextPages(t, file, chartPages...)
		if strings.Contains(text, "Loading chart") || !strings.Contains(text, "Chart complete.") {
			t.Errorf("/chart.html: its text is not the chart's after 3 s:\n%s", text)
		}
		for _, size := range [][2]int{{61, 41}, {63, 43}} {
			if !pdfimagesHas(t, file, chartPages, size) {
				t.Errorf("/chart.html: the image a script inserts (%dx%d) is not on its pages %v", size[0], size[1], chartPages)
			}
		}
	}
	// The lazy images below the fold, the srcset ones, the iframe's text.
	_, _, galleryPages, _ := page("/gallery.html")
	for _, size := range [][2]int{{40, 30}, {44, 33}} {
		if !pdfimagesHas(t, file, galleryPages, size) {
			t.Errorf("/gallery.html: the lazy image %dx%d is not on its pages %v", size[0], size[1], galleryPages)
		}
	}
	for path, text := range map[string]string{
		"/frame.html":      "Widget text inside the frame.",
		"/legacy.html":     "Café “quoted” costs 5 €.",
		"/news/3.html":     "The text of story 3, sent with gzip.",
		"/products/b.html": "Product B, sent in chunks.",
		"/contact.html":    "Search",
	} {
		if _, _, pages, _ := page(path); len(pages) == 0 || !strings.Contains(pdftotextPages(t, file, pages...), text) {
			t.Errorf("%s: pages %v, the text %q not printed", path, pages, text)
		}
	}
	// The handbook prints as 12 pages; the web font is embedded.
	if _, _, pages, _ := page("/handbook.html"); len(pages) != 12 {
		t.Errorf("/handbook.html: %d pages, want 12", len(pages))
	}
	if out, err := exec.Command("pdffonts", "-l", "1", file).CombinedOutput(); err != nil || !strings.Contains(string(out), "+GoRegular") {
		t.Errorf("pdffonts: %v: the web font (Go Regular) is not on the first page:\n%s", err, out)
	}
	// The server sent gzip and chunked answers, and the POST.
	if n := s.Counts(); n.Posts == 0 || n.Gzipped == 0 || n.Chunked == 0 || n.Never == 0 || n.NeverEnd != n.Never {
		t.Errorf("the server saw %d POSTs, %d gzip answers, %d chunked ones, %d requests for the image that never answers (%d given up); want each > 0, all given up",
			n.Posts, n.Gzipped, n.Chunked, n.Never, n.NeverEnd)
	}
	if out, err := exec.Command("qpdf", "--check", file).CombinedOutput(); err != nil {
		t.Errorf("qpdf --check: %v\n%s", err, out)
	}
}

// pdfimagesHas reports whether pdfimages -list finds an image of size on
// pages of file.
func pdfimagesHas(t *testing.T, file string, pages []int, size [2]int) bool {
	t.Helper()
	if len(pages) == 0 {
		return false
	}
	out, err := exec.Command("pdfimages", "-list", "-f", strconv.Itoa(pages[0]), "-l", strconv.Itoa(pages[len(pages)-1]), file).CombinedOutput()
	if err != nil {
		t.Fatalf("pdfimages: %v\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) > 4 && f[2] == "image" && f[3] == strconv.Itoa(size[0]) && f[4] == strconv.Itoa(size[1]) {
			return true
		}
	}
	return false
}

// TestBrowserRealSiteJobs is issue 29's second "done when": captures of
// the realistic site with --jobs 1 and --jobs 4 give the same identifiers
// and the same text page set by page set, and refresh --dry-run right
// after either finds nothing changed, five times in a row, with no POST
// reaching the server (no --resubmit). Seven captures of 30 pages: a slow
// test.
func TestBrowserRealSiteJobs(t *testing.T) {
	browserSuite(t)
	if os.Getenv("WEBCAP_SLOW_TESTS") == "" {
		t.Skip("a slow test (two captures and ten refreshes of 30 pages): set WEBCAP_SLOW_TESTS=1 to run it")
	}
	s := newRealSite(t)
	dir := t.TempDir()
	type result struct {
		ids, text map[string]string
	}
	results := map[int]result{}
	for _, jobs := range []int{1, 4} {
		file := filepath.Join(dir, fmt.Sprintf("jobs%d.pdf", jobs))
		sum := captureReal(t, s, file, jobs)
		checkRealCapture(t, s, file, sum)
		r := result{ids: map[string]string{}, text: map[string]string{}}
		for path, set := range realSets(t, s, file) {
			r.ids[path] = set.ID
			r.text[path] = pdftotextPages(t, file, set.Pages...)
		}
		results[jobs] = r
		if got := r.text[realsite.Profile]; !strings.Contains(got, "Not signed in") {
			t.Errorf("--jobs %d: %s is printed with another page's cookie (each page is rendered as a stranger sees it):\n%s", jobs, realsite.Profile, got)
		}

		// Refresh at once, five times: nothing changed, and no POST.
		posts := s.Counts().Posts
		for i := range 5 {
			var rep refreshReport
			args := append([]string{"refresh", "--json", "--dry-run"}, realCaptureFlags...)
			code := runJSON(t, &rep, append(args, file)...)
			var changed []string
			for _, c := range rep.Pages {
				if c.Status != capture.StatusUnchanged {
					changed = append(changed, fmt.Sprintf("%s %s (%s)", strings.TrimPrefix(c.URL, s.srv.URL), c.Status, c.Reason))
				}
			}
			if code != 0 || len(changed) != 0 || len(rep.Pages) != len(realsite.Pages) {
				t.Errorf("--jobs %d, refresh %d: exit %d, %d pages compared (want %d), not unchanged: %q", jobs, i+1, code, len(rep.Pages), len(realsite.Pages), changed)
			}
		}
		if now := s.Counts().Posts; now != posts {
			t.Errorf("--jobs %d: %d POSTs reached the server during refresh --dry-run without --resubmit", jobs, now-posts)
		}
	}
	for path, id := range results[1].ids {
		if id4 := results[4].ids[path]; id4 != id {
			t.Errorf("%s: ID %s with --jobs 1, %s with --jobs 4", path, id, id4)
		}
		if t1, t4 := results[1].text[path], results[4].text[path]; t1 != t4 {
			t.Errorf("%s: text differs with --jobs 1 and --jobs 4:\n%q\n%q", path, t1, t4)
		}
	}
	if len(results[1].ids) != len(results[4].ids) {
		t.Errorf("%d sets with --jobs 1, %d with --jobs 4", len(results[1].ids), len(results[4].ids))
	}
}
