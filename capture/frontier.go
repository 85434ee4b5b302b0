// The crawl's queue: which links a capture follows, in which order, and
// why it leaves the others.

package capture

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
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
	// NotReplayed, when set, is why the command is not run (refresh does
	// not resubmit a form unless told to): its URL is skipped.
	NotReplayed string
}

// An Item is a URL to fetch.
type Item struct {
	URL     string // absolute, without fragment
	Key     string // its canonical form: each key is fetched once
	Command int    // index of the Start that reached it
	Level   int    // 1 for a Start's URL, n+1 for a link on a level-n page
	Parent  string // the page that linked to it; "" for a Start
	// Revisit: queued by Revisit, to be fetched on its own (by GET, its
	// links not followed).
	Revisit bool
}

// A Skip is a URL a capture did not capture, and why.
type Skip struct {
	URL    string `json:"url"`
	Reason string `json:"reason"`
	// Kind is the reason as one word, for grouping and for programs: one
	// of the Skip* kinds, or a fetch failure's (FetchErrorKind.String:
	// refused, dns, tls, timeout, http, ...).
	Kind   string `json:"kind"`
	Status int    `json:"status,omitempty"` // the HTTP status, for kind http
}

// The kinds of Skip that are not fetch failures.
const (
	SkipLevel       = "level"        // deeper than the command's levels
	SkipScope       = "scope"        // outside the command's SameSite/SamePath scope
	SkipURL         = "url"          // not an http or https URL, or not one that parses or canonicalizes
	SkipHeld        = "held"         // the file already has the page (append)
	SkipRobots      = "robots"       // robots.txt forbids it
	SkipPageLimit   = "page-limit"   // MaxPages were captured
	SkipByteLimit   = "byte-limit"   // MaxBytes were fetched
	SkipTimeLimit   = "time-limit"   // the capture's time limit was reached
	SkipMemoryLimit = "memory-limit" // captured, but writing it with the pages before took more than the write's bound (Options.WriteBound)
	SkipInterrupted = "interrupted"  // the capture was interrupted
	SkipPageTimeout = "page-timeout" // the page took longer than PageTimeout
	SkipRender      = "render"       // the browser could not load, read or print it
	SkipNotReplayed = "not-replayed" // refresh: a command it does not replay (a form submission)
	SkipDuplicate   = "duplicate"    // a start URL given twice
)

func skip(u, kind, format string, args ...any) Skip {
	return Skip{URL: u, Reason: fmt.Sprintf(format, args...), Kind: kind}
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
	reported map[string]bool   // links reported as skipped, by URL
	// maxLinks bounds the links taken from one page (0: DefaultMaxLinks);
	// over are the URLs not queued for want of room (frontierRoom), said
	// by Rest.
	maxLinks int
	over     []Skip
	reached  map[string]bool // keys a page led to (Fetched)
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
	f := &Frontier{starts: starts, c: c, maxPages: maxPages, seen: map[string]bool{}, have: have, reported: map[string]bool{}}
	var skips []Skip
	for i, s := range starts {
		switch {
		case s.NotReplayed != "":
			skips = append(skips, skip(s.URL, SkipNotReplayed, "%s", s.NotReplayed))
			continue
		case s.Levels < 1:
			skips = append(skips, skip(s.URL, SkipLevel, "levels %d: a command follows at least its initial URL (1)", s.Levels))
			continue
		}
		if sk, ok := f.push(Item{URL: s.URL, Command: i, Level: 1}); !ok {
			if sk.Kind == "" {
				sk = skip(s.URL, SkipDuplicate, "already queued")
			}
			skips = append(skips, sk)
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
// one, so that a link to it is not fetched again, and takes it out of the
// queue if it was queued (Reached then reports it).
func (f *Frontier) Fetched(u string) {
	k, err := f.key(u)
	if err != nil {
		return
	}
	f.seen[k] = true
	f.queue = slices.DeleteFunc(f.queue, func(it Item) bool { return it.Key == k })
	if f.reached == nil {
		f.reached = map[string]bool{}
	}
	f.reached[k] = true
}

// Reached reports whether a page led to it (Fetched): an item taken
// before that page was handled (rendered ahead) would not have been
// taken after, and is given back (Untake).
func (f *Frontier) Reached(it Item) bool { return f.reached[it.Key] }

// Untake undoes a Next whose item is not fetched after all (Reached): it
// does not count against MaxPages.
func (f *Frontier) Untake() { f.taken-- }

// Revisit queues a URL of command cmd to be fetched on its own, after the
// links already queued, following none of its links (refresh checks the
// pages a file holds that the crawl did not reach). A URL queued or
// fetched already is not queued again.
func (f *Frontier) Revisit(u string, cmd int) {
	f.push(Item{URL: u, Command: cmd, Level: f.starts[cmd].Levels, Revisit: true})
}

// Rest takes the URLs still queued when MaxPages were taken, and says
// why they are not fetched.
func (f *Frontier) Rest() []Skip {
	out := f.over
	f.over = nil
	for _, it := range f.queue {
		out = append(out, skip(it.URL, SkipPageLimit, "the capture's page limit was reached (%d pages)", f.maxPages))
	}
	f.queue = nil
	return out
}

// Links queues the links of a fetched page: each href resolved against
// base (the page's final URL, or its <base href>), without its fragment.
// It returns the links it did not queue, and why; a link already queued
// or fetched is not reported.
func (f *Frontier) Links(from Item, base string, hrefs []string) []Skip {
	b, err := url.Parse(base)
	if err != nil {
		return []Skip{skip(base, SkipURL, "the page's base URL does not parse: %v", err)}
	}
	start := f.starts[from.Command]
	var skips []Skip
	if max := f.linkLimit(); len(hrefs) > max {
		skips = append(skips, skip(base, SkipLinkLimit, "%d of the page's %d links not followed: a page's first %d are", len(hrefs)-max, len(hrefs), max))
		hrefs = hrefs[:max]
	}
	for _, h := range hrefs {
		r, err := url.Parse(strings.TrimSpace(h))
		if err != nil {
			skips = append(skips, skip(h, SkipURL, "does not parse: %v", err))
			continue
		}
		abs := b.ResolveReference(r)
		abs.Fragment, abs.RawFragment = "", ""
		u := abs.String()
		key, _ := f.key(u)
		var sk Skip
		switch {
		case abs.Scheme != "http" && abs.Scheme != "https":
			if abs.Scheme != "" {
				sk = skip(u, SkipURL, "not http or https")
			}
		case key != "" && f.seen[key]:
			// Queued or fetched already: nothing to say.
		case from.Level+1 > start.Levels:
			sk = skip(u, SkipLevel, "level %d: the command follows %d", from.Level+1, start.Levels)
		case !InScope(start.URL, u, start.Flags):
			sk = skip(u, SkipScope, "%s", scopeReason(start))
		default:
			if sk, ok := f.push(Item{URL: u, Command: from.Command, Level: from.Level + 1, Parent: from.URL}); !ok && sk.Kind != "" {
				skips = append(skips, sk)
			}
			continue
		}
		// A link is reported once, however many pages have it.
		if sk.Kind != "" && !f.reported[u] {
			f.reported[u] = true
			skips = append(skips, sk)
		}
	}
	return skips
}

// push queues it. When it is not queued, it says why; a URL already
// queued or fetched is not queued again, and the Skip is then zero.
func (f *Frontier) push(it Item) (Skip, bool) {
	u, err := fetchable(it.URL)
	if err != nil {
		return skip(it.URL, SkipURL, "%v", err), false
	}
	u.Fragment, u.RawFragment = "", ""
	it.URL = u.String()
	if it.Key, err = f.key(it.URL); err != nil {
		return skip(it.URL, SkipURL, "cannot be canonicalized: %v", err), false
	}
	if f.seen[it.Key] {
		return Skip{}, false
	}
	f.seen[it.Key] = true
	if reason, ok := f.have[it.Key]; ok {
		return skip(it.URL, SkipHeld, "%s", reason), false
	}
	if !f.room() {
		f.over = append(f.over, f.overSkip(it.URL))
		return Skip{}, false
	}
	f.queue = append(f.queue, it)
	return Skip{}, true
}

func (f *Frontier) key(u string) (string, error) { return f.c.String(u) }

// fetchable parses a URL a capture would fetch, or says why it cannot be
// fetched (a Skip's reason, of kind SkipURL).
func fetchable(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL, which the Skip has
		}
		return nil, fmt.Errorf("does not parse: %w", err)
	case !u.IsAbs():
		return nil, errors.New("not an absolute URL")
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, errors.New("not http or https")
	case u.Host == "":
		return nil, errors.New("no host")
	}
	return u, nil
}

// CheckStartURL says why a start URL given to a capture or an append
// cannot be captured (it does not parse, is not an absolute http or https
// URL with a host, or its key cannot be made by profile p, nil: PDF), or
// returns nil. A capture skips such a URL (kind SkipURL) with this reason;
// a command line can refuse it before any browser starts. A *canon.Error
// is wrapped.
func CheckStartURL(raw string, p *canon.Profile) error {
	u, err := fetchable(raw)
	if err != nil {
		return err
	}
	if p == nil {
		p = canon.PDF
	}
	c, err := canon.New(p)
	if err != nil {
		return err
	}
	u.Fragment, u.RawFragment = "", ""
	if _, err := c.String(u.String()); err != nil {
		return fmt.Errorf("cannot be canonicalized: %w", err)
	}
	return nil
}
