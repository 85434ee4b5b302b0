package capture

import (
	"fmt"
	"strings"
	"testing"

	"github.com/webcap/webcap/webcapture"
)

// site is a link graph: page -> its hrefs.
var site = map[string][]string{
	"http://example.com/a/index.html":      {"one.html", "two.html#top", "/b/out.html", "http://other.example/x", "mailto:me@example.com", "one.html", "#self", "HTTP://EXAMPLE.COM:80/a/one.html"},
	"http://example.com/a/one.html":        {"deep/three.html", "index.html"},
	"http://example.com/a/two.html":        {"deep/three.html", "javascript:void(0)"},
	"http://example.com/b/out.html":        {"/a/index.html", "/b/more.html"},
	"http://example.com/b/more.html":       nil,
	"http://other.example/x":               {"http://other.example/y"},
	"http://example.com/a/deep/three.html": {"four.html"},
	"http://example.com/a/deep/four.html":  nil,
}

// crawlSite runs the frontier over site and returns the fetch order, with
// levels, and every skip.
func crawlSite(t *testing.T, starts []Start, maxPages int) (order []string, skips []string) {
	t.Helper()
	f, sk := NewFrontier(starts, maxPages, nil)
	for _, s := range sk {
		skips = append(skips, s.URL+": "+s.Reason)
	}
	for {
		it, ok := f.Next()
		if !ok {
			break
		}
		order = append(order, fmt.Sprintf("%d %s", it.Level, it.URL))
		for _, s := range f.Links(it, it.URL, site[it.URL]) {
			skips = append(skips, s.URL+": "+s.Reason)
		}
	}
	return order, skips
}

func TestFrontier(t *testing.T) {
	const start = "http://example.com/a/index.html"
	for _, tc := range []struct {
		name      string
		starts    []Start
		maxPages  int
		wantOrder []string
		wantSkip  []string // substrings, each of some skip
	}{
		{"level 1", []Start{{URL: start, Levels: 1, Flags: 0}}, 0, []string{"1 " + start}, []string{"one.html: level 2: the command follows 1"}},
		{"level 2 any site", []Start{{URL: start, Levels: 2, Flags: 0}}, 0,
			[]string{"1 " + start, "2 http://example.com/a/one.html", "2 http://example.com/a/two.html", "2 http://example.com/b/out.html", "2 http://other.example/x"},
			[]string{"mailto:me@example.com: not http or https"}},
		{"level 3 same site", []Start{{URL: start, Levels: 3, Flags: webcapture.SameSite}}, 0,
			[]string{"1 " + start, "2 http://example.com/a/one.html", "2 http://example.com/a/two.html", "2 http://example.com/b/out.html",
				"3 http://example.com/a/deep/three.html", "3 http://example.com/b/more.html"},
			[]string{"http://other.example/x: outside the command's scope (SameSite of http://example.com/a/index.html)"}},
		{"level 4 same path", []Start{{URL: start, Levels: 4, Flags: webcapture.SamePath}}, 0,
			[]string{"1 " + start, "2 http://example.com/a/one.html", "2 http://example.com/a/two.html",
				"3 http://example.com/a/deep/three.html", "4 http://example.com/a/deep/four.html"},
			[]string{"http://example.com/b/out.html: outside the command's scope (SamePath"}},
		{"max pages", []Start{{URL: start, Levels: 4, Flags: 0}}, 3,
			[]string{"1 " + start, "2 http://example.com/a/one.html", "2 http://example.com/a/two.html"}, nil},
		{"two commands", []Start{{URL: start, Levels: 1, Flags: 0}, {URL: "http://other.example/x", Levels: 2, Flags: webcapture.SameSite}, {URL: start + "#again", Levels: 1, Flags: 0}}, 0,
			[]string{"1 " + start, "1 http://other.example/x", "2 http://other.example/y"},
			[]string{"http://example.com/a/index.html#again: already queued"}},
		{"bad starts", []Start{{URL: "ftp://example.com/", Levels: 1, Flags: 0}, {URL: "/relative", Levels: 1, Flags: 0}, {URL: start, Levels: 0, Flags: 0}}, 0, nil,
			[]string{"ftp://example.com/: not http or https", "/relative: not an absolute URL", "levels 0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			order, skips := crawlSite(t, tc.starts, tc.maxPages)
			if strings.Join(order, "\n") != strings.Join(tc.wantOrder, "\n") {
				t.Errorf("order:\n%s\nwant:\n%s", strings.Join(order, "\n"), strings.Join(tc.wantOrder, "\n"))
			}
			for _, w := range tc.wantSkip {
				found := false
				for _, s := range skips {
					found = found || strings.Contains(s, w)
				}
				if !found {
					t.Errorf("no skip contains %q; skips:\n%s", w, strings.Join(skips, "\n"))
				}
			}
		})
	}
}

// A page reached by redirection is not fetched again through a link.
func TestFrontierFetched(t *testing.T) {
	f, _ := NewFrontier([]Start{{URL: "http://example.com/old", Levels: 2, Flags: 0}}, 0, nil)
	it, _ := f.Next()
	f.Fetched("http://example.com/new")
	f.Links(it, "http://example.com/new", []string{"/new", "/other"})
	var got []string
	for {
		it, ok := f.Next()
		if !ok {
			break
		}
		got = append(got, it.URL)
	}
	if strings.Join(got, " ") != "http://example.com/other" {
		t.Errorf("after a redirect to /new: fetched %v", got)
	}
	if f.Taken() != 2 || f.Pending() != 0 {
		t.Errorf("taken %d pending %d", f.Taken(), f.Pending())
	}
}
