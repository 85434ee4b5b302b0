// Package capture fetches web pages for Web Capture. This file holds the
// crawl's queue: which links a capture follows, in which order, and why it
// leaves the others.
package capture

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/webcapture"
)

// A Start is one capture command: its initial URL, how many levels of
// links it follows (1: the initial URL only) and its flags (SameSite,
// SamePath).
type Start struct {
	URL    string
	Levels int
	Flags  webcapture.Flags // with Submit, the initial URL is a form submission
	// Post, with the Submit flag, is the form's data sent by POST, of
	// content type PostType (default application/x-www-form-urlencoded);
	// nil submits by GET (the data is in URL's query).
	Post     []byte
	PostType string
}

// An Item is a URL to fetch.
type Item struct {
	URL     string // absolute, without fragment
	Key     string // its canonical form: each key is fetched once
	Command int    // index of the Start that reached it
	Level   int    // 1 for a Start's URL, n+1 for a link on a level-n page
	Parent  string // the page that linked to it; "" for a Start
}

// A Skip is a link a capture does not follow, and why.
type Skip struct {
	URL    string `json:"url"`
	Reason string `json:"reason"`
}

// A Frontier is a capture's queue: breadth-first over the commands' link
// graphs, each URL once (by canonical form), each link judged by the
// command that reached its page, and no more than MaxPages taken.
type Frontier struct {
	starts   []Start
	c        *canon.Canonicalizer
	maxPages int
	seen     map[string]bool
	queue    []Item
	taken    int
	have     map[string]string // keys not to fetch, with the reason
}

// NewFrontier queues the starts' URLs. maxPages <= 0 means no limit; c
// makes the keys (nil: the PDF profile). A start URL that cannot be
// fetched (not http or https, not absolute, or a duplicate) is skipped.
func NewFrontier(starts []Start, maxPages int, c *canon.Canonicalizer) (*Frontier, []Skip) {
	return newFrontier(starts, maxPages, c, nil)
}

// newFrontier is NewFrontier that never queues the URLs whose keys have
// holds (the pages a file already has), reporting have's reason instead.
func newFrontier(starts []Start, maxPages int, c *canon.Canonicalizer, have map[string]string) (*Frontier, []Skip) {
	if c == nil {
		c, _ = canon.New(canon.PDF)
	}
	f := &Frontier{starts: starts, c: c, maxPages: maxPages, seen: map[string]bool{}, have: have}
	var skips []Skip
	for i, s := range starts {
		if s.Levels < 1 {
			skips = append(skips, Skip{s.URL, fmt.Sprintf("levels %d: a command follows at least its initial URL (1)", s.Levels)})
			continue
		}
		if reason := f.push(Item{URL: s.URL, Command: i, Level: 1}); reason != "" {
			skips = append(skips, Skip{s.URL, reason})
		}
	}
	return f, skips
}

// Next takes the next URL to fetch. It reports false when the queue is
// empty or MaxPages URLs have been taken.
func (f *Frontier) Next() (Item, bool) {
	if len(f.queue) == 0 || (f.maxPages > 0 && f.taken >= f.maxPages) {
		return Item{}, false
	}
	it := f.queue[0]
	f.queue = f.queue[1:]
	f.taken++
	return it, true
}

// Pending is the number of URLs queued and not taken.
func (f *Frontier) Pending() int { return len(f.queue) }

// Taken is the number of URLs Next has returned.
func (f *Frontier) Taken() int { return f.taken }

// Fetched records that a URL was reached by redirection from a queued
// one, so that a link to it is not fetched again.
func (f *Frontier) Fetched(u string) {
	if k, err := f.key(u); err == nil {
		f.seen[k] = true
	}
}

// Links queues the links of a fetched page: each href resolved against
// base (the page's final URL, or its <base href>), without its fragment.
// It returns the links it did not queue, and why; a link already queued
// or fetched is not reported.
func (f *Frontier) Links(from Item, base string, hrefs []string) []Skip {
	b, err := url.Parse(base)
	if err != nil {
		return []Skip{{base, "the page's base URL does not parse: " + err.Error()}}
	}
	start := f.starts[from.Command]
	var skips []Skip
	for _, h := range hrefs {
		r, err := url.Parse(strings.TrimSpace(h))
		if err != nil {
			skips = append(skips, Skip{h, "does not parse: " + err.Error()})
			continue
		}
		abs := b.ResolveReference(r)
		abs.Fragment, abs.RawFragment = "", ""
		u := abs.String()
		switch {
		case abs.Scheme != "http" && abs.Scheme != "https":
			if abs.Scheme != "" {
				skips = append(skips, Skip{u, "not http or https"})
			}
			continue
		case from.Level+1 > start.Levels:
			skips = append(skips, Skip{u, fmt.Sprintf("level %d: the command follows %d", from.Level+1, start.Levels)})
			continue
		case !webcapture.InScope(start.URL, u, start.Flags):
			skips = append(skips, Skip{u, fmt.Sprintf("outside the command's scope (%v of %s)", start.Flags&(webcapture.SameSite|webcapture.SamePath), start.URL)})
			continue
		}
		if reason := f.push(Item{URL: u, Command: from.Command, Level: from.Level + 1, Parent: from.URL}); reason != "" && reason != "already queued" {
			skips = append(skips, Skip{u, reason})
		}
	}
	return skips
}

func (f *Frontier) push(it Item) string {
	u, err := url.Parse(it.URL)
	switch {
	case err != nil:
		return "does not parse: " + err.Error()
	case !u.IsAbs():
		return "not an absolute URL"
	case u.Scheme != "http" && u.Scheme != "https":
		return "not http or https"
	case u.Host == "":
		return "no host"
	}
	u.Fragment, u.RawFragment = "", ""
	it.URL = u.String()
	if it.Key, err = f.key(it.URL); err != nil {
		return "cannot be canonicalized: " + err.Error()
	}
	if f.seen[it.Key] {
		return "already queued"
	}
	if reason, ok := f.have[it.Key]; ok {
		f.seen[it.Key] = true
		return reason
	}
	f.seen[it.Key] = true
	f.queue = append(f.queue, it)
	return ""
}

func (f *Frontier) key(u string) (string, error) { return f.c.String(u) }
