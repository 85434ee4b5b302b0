package capture

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/webcap/webcap/build"
	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// Options control a capture.
type Options struct {
	Levels          int              // levels of links followed (1: the start pages only); 0 means 1
	Flags           webcapture.Flags // SameSite, SamePath
	MaxPages        int              // pages fetched at most; 0: 100
	MaxBytes        int64            // bytes fetched at most (no page is started past it); 0: 100 MiB
	PageTimeout     time.Duration    // per page, fetching and rendering; 0: 30 s
	Jobs            int              // pages rendered at once, in parallel tabs; 0: 2
	Profile         *canon.Profile   // URLS keys; nil: PDF
	IgnoreRobots    bool             // fetch what robots.txt forbids
	Agent           string           // the user agent robots.txt rules are matched against; "": webcap
	KeepCredentials bool             // write URLs with user information as they are
	// Progress, when set, is called after each page with the pages done,
	// the pages queued and the bytes fetched so far.
	Progress func(done, queued int, bytes int64, url string)
}

// A Result is a capture.
type Result struct {
	PDF   []byte        // the captured PDF, Web Capture structures included
	Pages []*Page       // the rendered pages, in order
	Skips []Skip        // what was not captured, and why
	Build *build.Result // the content sets and commands written

	Links int // links between captured pages made internal
	First int // the number of the first page captured (Append: after the file's pages)

	// How the time went: rendering (the browser, fetching included),
	// joining the printed pages, and building the structures.
	Render, Merge, Structures time.Duration
}

// crawled is what crawl found.
type crawled struct {
	res     *Result
	items   []Item
	sources webcapture.MapSource
	c       *canon.Canonicalizer
}

func (opts Options) withDefaults() Options {
	if opts.Levels <= 0 {
		opts.Levels = 1
	}
	if opts.MaxPages <= 0 {
		opts.MaxPages = 100
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = 100 << 20
	}
	if opts.Jobs <= 0 {
		opts.Jobs = 2
	}
	if opts.PageTimeout <= 0 {
		opts.PageTimeout = 30 * time.Second
	}
	if opts.Agent == "" {
		opts.Agent = "webcap"
	}
	if opts.Profile == nil {
		opts.Profile = canon.PDF
	}
	return opts
}

// crawl fetches and renders the starts' pages and the links they lead to,
// and collects every response by canonical URL.
func crawl(ctx context.Context, b *Browser, starts []Start, opts Options, have map[string]string) (*crawled, error) {
	c, err := canon.New(opts.Profile)
	if err != nil {
		return nil, err
	}
	f, skips := newFrontier(starts, opts.MaxPages, c, have)
	res := &Result{Skips: skips}
	robots := &Robots{Client: b.Client, Agent: opts.Agent}
	sources := webcapture.MapSource{}
	var items []Item
	var fetched int64
	for {
		// Take up to Jobs URLs, render them in parallel tabs, then handle
		// them in queue order, so the result does not depend on timing.
		var batch []Item
		for len(batch) < opts.Jobs {
			it, ok := f.Next()
			if !ok {
				break
			}
			if ctx.Err() != nil {
				// The capture's time is up: keep what was captured, and
				// say what was not.
				res.Skips = append(res.Skips, Skip{it.URL, "the capture's time limit was reached"})
				continue
			}
			if fetched >= opts.MaxBytes {
				res.Skips = append(res.Skips, Skip{it.URL, fmt.Sprintf("the capture's byte limit was reached (%d bytes fetched, the limit is %d)", fetched, opts.MaxBytes)})
				continue
			}
			if !opts.IgnoreRobots && !robots.Allowed(ctx, it.URL) {
				res.Skips = append(res.Skips, Skip{it.URL, "robots.txt forbids it (--ignore-robots to fetch it anyway)"})
				continue
			}
			batch = append(batch, it)
		}
		if len(batch) == 0 {
			break // the queue is empty, or MaxPages were taken
		}
		pages := make([]*Page, len(batch))
		errs := make([]error, len(batch))
		t0 := time.Now()
		var wg sync.WaitGroup
		for k, it := range batch {
			wg.Add(1)
			go func() {
				defer wg.Done()
				pctx, cancel := context.WithTimeout(ctx, opts.PageTimeout)
				defer cancel()
				if s := starts[it.Command]; it.Level == 1 && s.Flags&webcapture.Submit != 0 && s.Post != nil {
					pages[k], errs[k] = b.RenderPost(pctx, it.URL, Post{s.Post, s.PostType})
				} else {
					pages[k], errs[k] = b.Render(pctx, it.URL)
				}
				switch {
				case errs[k] == nil:
				case ctx.Err() != nil:
					errs[k] = errors.New("the capture's time limit was reached while it was being fetched")
				case pctx.Err() != nil:
					errs[k] = fmt.Errorf("took longer than %v (the page time limit)", opts.PageTimeout)
				}
			}()
		}
		wg.Wait()
		res.Render += time.Since(t0)
		for k, it := range batch {
			p, err := pages[k], errs[k]
			if err == nil && p.Document.Status >= 400 {
				err = fmt.Errorf("the server answered %d", p.Document.Status)
			}
			if err != nil {
				res.Skips = append(res.Skips, Skip{it.URL, err.Error()})
				continue
			}
			for _, u := range p.Chain {
				f.Fetched(u)
			}
			for _, r := range p.Responses {
				fetched += int64(len(r.Body))
				if r.Err == "" && !r.Redirect {
					if k, err := c.String(r.URL); err == nil {
						sources[k] = r.Body
					}
				}
			}
			if isHTML(p.Document) {
				res.Skips = append(res.Skips, f.Links(it, p.URL, p.Links)...)
				skips, n := b.fetchMissing(ctx, p, opts.Profile, sources)
				res.Skips, fetched = append(res.Skips, skips...), fetched+n
			}
			res.Pages = append(res.Pages, p)
			items = append(items, it)
			if opts.Progress != nil {
				opts.Progress(len(res.Pages), f.Pending(), fetched, p.URL)
			}
		}
	}
	return &crawled{res, items, sources, c}, nil
}

// Capture fetches the urls and the links they lead to (breadth-first, as
// opts say), renders each page with the browser, joins the pages into one
// PDF, and writes a page set per page, a command per start URL, and the
// IDS and URLS trees. Identifiers are computed from the bytes fetched.
func Capture(ctx context.Context, b *Browser, urls []string, opts Options) (*Result, error) {
	return capture(ctx, b, nil, "capture.pdf", starts(urls, opts), opts)
}

// CaptureStarts is Capture for commands of their own (levels, flags, a
// form's submission each).
func CaptureStarts(ctx context.Context, b *Browser, starts []Start, opts Options) (*Result, error) {
	return capture(ctx, b, nil, "capture.pdf", starts, opts)
}

func starts(urls []string, opts Options) []Start {
	opts = opts.withDefaults()
	out := make([]Start, len(urls))
	for i, u := range urls {
		out[i] = Start{URL: u, Levels: opts.Levels, Flags: opts.Flags}
	}
	return out
}

// Append captures urls into file, an existing capture (name is used in
// messages), as Capture does, and adds the pages after the file's last
// page as an incremental update: the file's bytes are kept as they are.
// Pages the file already has (by canonical URL) are not fetched again; a
// link to them becomes an internal link. New content sets, commands and
// tree entries join the file's; an image with the identifier of an image
// set the file has joins that set.
func Append(ctx context.Context, b *Browser, file []byte, name string, urls []string, opts Options) (*Result, error) {
	return capture(ctx, b, file, name, starts(urls, opts), opts)
}

// AppendStarts is Append for commands of their own.
func AppendStarts(ctx context.Context, b *Browser, file []byte, name string, starts []Start, opts Options) (*Result, error) {
	return capture(ctx, b, file, name, starts, opts)
}

func capture(ctx context.Context, b *Browser, file []byte, name string, starts []Start, opts Options) (*Result, error) {
	opts = opts.withDefaults()
	var have map[string]string
	var u *pdfio.Update
	first := 1 // the first new page's number
	if file != nil {
		var err error
		if u, err = pdfio.NewUpdate(file, name, pdfio.Options{}); err != nil {
			return nil, err
		}
		d, err := u.Document()
		if err != nil {
			return nil, err
		}
		if have, err = pagesHeld(d, opts.Profile); err != nil {
			return nil, err
		}
		first = len(d.Pages) + 1
	}
	cr, err := crawl(ctx, b, starts, opts, have)
	if err != nil {
		return nil, err
	}
	res, items, sources, c := cr.res, cr.items, cr.sources, cr.c
	if len(res.Pages) == 0 {
		return nil, &NothingError{res.Skips}
	}
	res.First = first
	t0 := time.Now()
	// Where each page's printed pages go, and the anchors on them.
	printed := make([]printedPage, len(res.Pages))
	page := first
	for i, p := range res.Pages {
		var pr *pdfio.Printed
		if u == nil {
			pr, err = pdfio.ReadPrinted(p.PDF, "the browser's PDF of "+p.URL, pdfio.Options{})
		} else {
			_, pr, err = u.AppendPages(p.PDF, "the browser's PDF of "+p.URL)
		}
		if err != nil {
			return nil, fmt.Errorf("capture: %w", err)
		}
		printed[i] = printedPage{page, pr.Pages, pr.Dests}
		page += pr.Pages
	}
	var input []byte
	if u == nil {
		pdfs := make([][]byte, len(res.Pages))
		for i, p := range res.Pages {
			pdfs[i] = p.PDF
		}
		input, err = pdfio.Merge(pdfs)
	} else {
		input, err = u.Bytes()
	}
	if err != nil {
		return nil, fmt.Errorf("capture: %w", err)
	}
	res.Merge = time.Since(t0)
	t0 = time.Now()
	m := manifest(b, starts, res.Pages, items, printed, opts)
	m.Input, m.InputData = name, input
	br, err := build.Build(m, build.Options{Profile: opts.Profile, Sources: sources})
	if err != nil {
		return nil, fmt.Errorf("capture: %w", err)
	}
	res.PDF, res.Build = br.Output, br
	if res.PDF, res.Links, err = internalLinks(br.Output, name, c, nil, printed, u == nil); err != nil {
		return nil, fmt.Errorf("capture: internal links: %w", err)
	}
	res.Structures = time.Since(t0)
	return res, nil
}

// A NothingError says that no page could be captured, and why.
type NothingError struct {
	Skips []Skip
}

func (e *NothingError) Error() string {
	msg := fmt.Sprintf("no page could be captured (%d skipped)", len(e.Skips))
	for i, s := range e.Skips {
		if i == 3 {
			msg += fmt.Sprintf("; and %d more", len(e.Skips)-3)
			break
		}
		msg += "; " + s.URL + ": " + s.Reason
	}
	return msg
}

// pageSet describes a captured page for build: its page set (on the pages
// pp says; a form submission when it is its command's submitted URL) and,
// when the page is an image, the image set of the XObject it shows. The
// caller names the command.
func pageSet(p *Page, it Item, s Start, pp printedPage, opts Options) (build.PageSet, *build.ImageSet) {
	doc := p.Document
	url, chain := p.URL, slices.Clone(p.Chain)
	if !opts.KeepCredentials {
		url, _ = StripCredentials(url)
		for j := range chain {
			chain[j], _ = StripCredentials(chain[j])
		}
	}
	ps := build.PageSet{Pages: fmt.Sprintf("%d-%d", pp.First, pp.First+pp.Pages-1), URL: url, Data: doc.Body,
		ContentType: doc.Header.Get("Content-Type"), Captured: doc.Fetched.Format(time.RFC3339), Title: p.Title}
	if it.Level == 1 && s.Flags&webcapture.Submit != 0 {
		ps.Submission = map[bool]string{true: "post", false: "get"}[s.Post != nil]
	}
	if len(chain) > 1 {
		ps.Redirects = [][]string{chain[:len(chain)-1]}
	}
	if e, ok := Expiry(doc.Header, doc.Fetched); ok {
		ps.Expires = e.UTC().Format(time.RFC3339)
	}
	if !isImage(doc) {
		return ps, nil
	}
	// A URL that is itself an image: its page shows it as an image
	// XObject, which gets an image set too (PDF 1.7 Figure 10.2).
	return ps, &build.ImageSet{URL: url, Redirects: ps.Redirects, Data: doc.Body,
		Captured: ps.Captured, Expires: ps.Expires, Images: []build.Image{{Page: pp.First, Name: "*"}}}
}

// pagesHeld returns the canonical URLs of d's page sets, each with the
// reason a capture into d does not fetch it again.
func pagesHeld(d *pdfio.Document, p *canon.Profile) (map[string]string, error) {
	c, err := canon.New(p)
	if err != nil {
		return nil, err
	}
	have := map[string]string{}
	for _, cs := range d.Sets {
		if !cs.IsPageSet() {
			continue
		}
		for _, u := range cs.SourceURLs() {
			if k, err := c.String(u); err == nil {
				have[k] = fmt.Sprintf("already in %s (content set %s); webcap refresh updates it", d.File, cs.Ref)
			}
		}
	}
	return have, nil
}

// manifest describes the captured pages for build: a command per start,
// a page set per page (its pages numbered from first), and an image set
// for each page that is an image.
func manifest(b *Browser, starts []Start, pages []*Page, items []Item, printed []printedPage, opts Options) *build.Manifest {
	m := &build.Manifest{Profile: opts.Profile.Name()}
	for i, s := range starts {
		cmdURL := s.URL
		if !opts.KeepCredentials {
			cmdURL, _ = StripCredentials(cmdURL)
		}
		c := build.Command{Name: "c" + strconv.Itoa(i), URL: cmdURL, Levels: ptr(int64(s.Levels)),
			SameSite: s.Flags&webcapture.SameSite != 0, SamePath: s.Flags&webcapture.SamePath != 0, Submit: s.Flags&webcapture.Submit != 0,
			Settings: &build.Settings{Engines: map[string]map[string]any{EngineName(b): {"PrintBackground": true}}}}
		if c.Submit && s.Post != nil {
			c.Post = ptr(string(s.Post))
			if c.ContentType = s.PostType; c.ContentType == "" {
				c.ContentType = DefaultPostType
			}
		}
		m.Commands = append(m.Commands, c)
	}
	for i, p := range pages {
		it := items[i]
		ps, is := pageSet(p, it, starts[it.Command], printed[i], opts)
		ps.Command = "c" + strconv.Itoa(it.Command)
		m.PageSets = append(m.PageSets, ps)
		if is != nil {
			m.ImageSets = append(m.ImageSets, *is)
		}
	}
	return m
}

func isImage(r *Response) bool {
	return strings.HasPrefix(strings.ToLower(r.Header.Get("Content-Type")), "image/")
}

func isHTML(r *Response) bool {
	return strings.HasPrefix(strings.ToLower(r.Header.Get("Content-Type")), "text/html")
}

// fetchMissing fetches the auxiliary files the page references but the
// browser did not load (srcset candidates it did not choose, lazy images,
// hidden frames), so that the page's identifier covers every file it
// references. What cannot be fetched is returned as skips; the page set is
// then refused by build, naming them.
func (b *Browser) fetchMissing(ctx context.Context, p *Page, prof *canon.Profile, sources webcapture.MapSource) ([]Skip, int64) {
	r, err := webcapture.PageSetID(p.Document.Body, webcapture.PageSetOptions{URL: p.URL,
		ContentType: p.Document.Header.Get("Content-Type"), Aux: sources, Profile: prof})
	if err != nil || r.Complete {
		return nil, 0
	}
	var skips []Skip
	var n int64
	for _, a := range r.Aux {
		if a.Found || a.URL == "" {
			continue
		}
		body, err := b.get(ctx, a.URL)
		if err != nil {
			skips = append(skips, Skip{a.URL, "an auxiliary file of " + p.URL + " cannot be fetched: " + err.Error()})
			continue
		}
		sources[a.URL] = body
		n += int64(len(body))
	}
	return skips, n
}

// A printedPage is where a captured page's printed pages went, and the
// named destinations the browser made on them (its anchors).
type printedPage struct {
	First, Pages int // the first page's number, and how many
	Dests        []pdfio.PrintedDest
}

// anchorName is an anchor's original name for a destination: a URL
// fragment, as the browser serializes it both in links and in the names
// of the destinations it prints, percent-decoded.
func anchorName(frag string) string {
	if s, err := url.PathUnescape(frag); err == nil {
		return s
	}
	return frag
}

// internalLinks turns links to captured pages into internal links, and
// gives the anchors of the pages just printed (printed) their unique
// names, following the unique-name rule: an anchor's destination is named
// by its original name (the fragment) followed by the escaped page-set ID,
// the links of a page to its own anchors go to those names, and each URI
// action whose URL is the source of a page set of file becomes a go-to
// to the destination of its fragment in that set (its top when the page
// has no such anchor, or no fragment is given), the URI action kept in
// /PA. Every page's links are looked at, so a capture appended to a file
// links both ways. Destinations on pages that moved (moved, as refresh
// replaces pages) follow them. dropCatalog removes the catalog's /Dests
// dictionary, whose names (the browser's, merged) the tree replaces. It
// writes an incremental update; when there is nothing to change it
// returns file as it is.
func internalLinks(file []byte, name string, c *canon.Canonicalizer, moved map[webcapture.Ref]webcapture.Ref, printed []printedPage, dropCatalog bool) ([]byte, int, error) {
	u, err := pdfio.NewUpdate(file, name, pdfio.Options{})
	if err != nil {
		return nil, 0, err
	}
	d, err := u.Document()
	if err != nil {
		return nil, 0, err
	}
	type target struct {
		page webcapture.Ref
		id   webcapture.RawID
	}
	byKey := map[string]target{}
	for _, cs := range d.Sets {
		if !cs.IsPageSet() || cs.ID == nil || len(cs.Objects) == 0 {
			continue
		}
		for _, u := range cs.SourceURLs() {
			if k, err := c.String(u); err == nil {
				byKey[k] = target{cs.Objects[0], *cs.ID}
			}
		}
	}
	known, err := u.DestNames()
	if err != nil {
		return nil, 0, err
	}
	dests := map[string]pdfio.Dest{}
	n := 0
	for _, pp := range printed {
		if pp.First < 1 || pp.First+pp.Pages-1 > len(d.Pages) || d.Pages[pp.First-1].ID == nil {
			continue
		}
		id := *d.Pages[pp.First-1].ID
		own := map[string]bool{}
		for _, pd := range pp.Dests {
			own[pd.Name] = true
			dests[webcapture.DestinationName(anchorName(pd.Name), id)] = pdfio.Dest{Page: d.Pages[pp.First-1+pd.Page].Ref, View: pd.View}
		}
		for k := range pp.Pages {
			links, err := u.LinkDests(d.Pages[pp.First-1+k].Ref)
			if err != nil {
				return nil, 0, err
			}
			for _, l := range links {
				if own[l.Name] {
					if err := u.SetLinkDest(l.Annot, webcapture.DestinationName(anchorName(l.Name), id)); err != nil {
						return nil, 0, err
					}
				}
			}
		}
	}
	for _, p := range d.Pages {
		links, err := u.LinkURIs(p.Ref)
		if err != nil {
			return nil, 0, err
		}
		for _, l := range links {
			base, frag, _ := strings.Cut(l.URI, "#")
			key, err := c.String(base)
			if err != nil {
				continue
			}
			t, ok := byKey[key]
			if !ok {
				continue
			}
			dn := webcapture.DestinationName(anchorName(frag), t.id)
			if _, ok := dests[dn]; !ok && !known[dn] {
				// No such anchor: the top of the set's first page.
				dn = webcapture.DestinationName("", t.id)
				if !known[dn] {
					dests[dn] = pdfio.Dest{Page: t.page}
				}
			}
			if err := u.SetLinkGoTo(l.Annot, dn); err != nil {
				return nil, 0, err
			}
			n++
		}
	}
	if n == 0 && len(moved) == 0 && len(dests) == 0 {
		return file, 0, nil
	}
	if dropCatalog {
		u.DropCatalogDests()
	}
	if err := u.SetDests(dests, moved); err != nil {
		return nil, 0, err
	}
	out, err := u.Bytes()
	return out, n, err
}

// EngineName is the conversion engine's name in a command's settings
// (company:product:version:contentType, PDF 1.7 §10.9.6).
func EngineName(b *Browser) string { return "webcap:chromium:" + b.Version + ":text/html" }
