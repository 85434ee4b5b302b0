package capture

import (
	"fmt"
	"strings"
	"testing"
)

// A page of many links: the first maxLinks are looked at, the rest said
// in one skip; a queue holds no more than the pages the crawl can still
// take (twice, and a hundred more), the others said by Rest as past the
// page limit.
func TestFrontierBounds(t *testing.T) {
	const start = "http://example.com/"
	hrefs := make([]string, 5000)
	for i := range hrefs {
		hrefs[i] = fmt.Sprintf("/p/%d", i)
	}
	for _, tc := range []struct {
		name                string
		maxPages, maxLinks  int
		wantPending         int    // queued after the first page's links
		wantLinkSkip        string // the skip of kind SkipLinkLimit, if any
		wantTaken, wantRest int    // pages taken then, and skips Rest says (each of the page limit)
	}{
		{"default links, 20 pages", 20, 0, 2*(20-1) + 100, "4000 of the page's 5000 links not followed: a page's first 1000 are", 19, 1000 - 19},
		{"10 links", 20, 10, 10, "4990 of the page's 5000 links not followed: a page's first 10 are", 10, 0},
		{"all links, 1000 pages", 1000, 5000, 2*(1000-1) + 100, "", 999, 5000 - 999},
		{"no page limit", 0, 5000, 5000, "", 5000, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, _ := NewFrontier([]Start{{URL: start, Levels: 2}}, tc.maxPages, nil)
			f.SetMaxLinks(tc.maxLinks)
			it, ok := f.Next()
			if !ok {
				t.Fatal("Next: nothing")
			}
			skips := f.Links(it, start, hrefs)
			var linkSkips []string
			for _, s := range skips {
				if s.Kind == SkipLinkLimit {
					linkSkips = append(linkSkips, s.URL+": "+s.Reason)
				}
			}
			switch {
			case tc.wantLinkSkip == "" && len(linkSkips) > 0:
				t.Errorf("Links: skips %q, want none of kind %s", linkSkips, SkipLinkLimit)
			case tc.wantLinkSkip != "" && (len(linkSkips) != 1 || linkSkips[0] != start+": "+tc.wantLinkSkip):
				t.Errorf("Links: skips %q, want one: %s: %s", linkSkips, start, tc.wantLinkSkip)
			}
			if got := f.Pending(); got != tc.wantPending {
				t.Errorf("Pending() = %d, want %d", got, tc.wantPending)
			}
			taken := 0
			for {
				if _, ok := f.Next(); !ok {
					break
				}
				taken++
			}
			rest := f.Rest()
			n := 0
			for _, s := range rest {
				if s.Kind == SkipPageLimit && strings.Contains(s.Reason, "page limit") {
					n++
				}
			}
			if taken != tc.wantTaken {
				t.Errorf("took %d more pages, want %d", taken, tc.wantTaken)
			}
			if len(rest) != tc.wantRest || n != tc.wantRest {
				t.Errorf("Rest() = %d skips (%d of the page limit), want %d", len(rest), n, tc.wantRest)
			}
		})
	}
}
