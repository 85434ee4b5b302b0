package capture

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/record"
	"github.com/webcap/webcap/webcapture"
)

// Options control a capture.
type Options struct {
	Levels          int              // levels of links followed (1: the start pages only); 0 means 1
	Flags           webcapture.Flags // SameSite, SamePath
	MaxPages        int              // pages fetched at most; 0: 100
	MaxBytes        int64            // bytes fetched at most (no page is started past it); 0: 100 MiB
	MaxLinks        int              // links looked at per page, the first in document order; 0: DefaultMaxLinks
	PageTimeout     time.Duration    // per page, fetching and rendering; 0: 30 s
	Jobs            int              // pages rendered at once, in parallel tabs; 0: 2
	Profile         *canon.Profile   // URLS keys; nil: PDF
	IgnoreRobots    bool             // fetch what robots.txt forbids
	Agent           string           // the user agent robots.txt rules are matched against; "": webcap
	KeepCredentials bool             // write URLs with user information as they are
	// AllowCertified updates a certified file (Append, Refresh) although
	// its DocMDP permissions forbid it; without it the update is refused
	// (a *pdfio.CertifiedError) and nothing is fetched.
	AllowCertified bool
	// Password opens an encrypted file (Append, Refresh); an update of
	// one is refused (pdfio.ErrEncryptedWrite), the password only makes
	// the refusal say so.
	Password string
	// Bookmarks says which bookmarks are written (BookmarksSites when "").
	Bookmarks BookmarksMode
	// Allow are the kinds of address (loopback, private, ...) webcap may
	// connect to besides public ones. A capture also allows the kinds its
	// start URLs are (capturing http://127.0.0.1:8080/ is asked for);
	// refresh allows only these, since it replays URLs from a file.
	Allow AddressClass
	// Media, IdleQuiet and IdleMax say how pages are loaded and printed
	// (RenderOptions).
	Media              string
	IdleQuiet, IdleMax time.Duration
	// Settle is the page time given to a page's timers once it has
	// settled, on virtual time (RenderOptions.Settle): 0 DefaultSettle,
	// NoSettle none.
	Settle time.Duration
	// Session renders the crawl's pages in one browser context, one at a
	// time in queue order (Jobs is then 1): the cookies and storage a page
	// leaves reach the pages after it, as in one user's visit. Without it
	// each page is rendered in a context that holds nothing of another
	// page's, as a stranger would see it (RenderOptions.Session).
	Session bool
	// Archive keeps every answer the crawl received, for a WARC
	// (WriteWARC): robots.txt's, those of renderings not kept (a
	// redirect to a page captured already, an error page) in
	// Page.Others, and each hop and error of an auxiliary file in
	// Page.Aux. Without it only what the captured pages are made of is
	// kept, so a crawl does not hold answers nothing will write.
	Archive bool
	// Progress, when set, is called after each page with the pages done,
	// the pages queued and the bytes fetched so far.
	Progress func(done, queued int, bytes int64, url string)
	// WriteBound, when set, bounds the write of what the crawl captured
	// (the structures, the internal links) as the capture's context
	// bounds the crawl: the write runs in the context WriteBound makes
	// from the capture's without its cancellation (a crawl stopped early,
	// by a limit, an interrupt or its time, still writes what it kept),
	// and once that context is done (a memory ceiling passed: the CLI's
	// --max-memory watch, limits.WatchMemory) the write stops. A new
	// file is then written again, with the first half of its pages, in a
	// context WriteBound makes anew (writeKept), until what is written
	// fits: the pages left out are Skips (SkipMemoryLimit), and Stopped
	// is the context's cause. An append, or a refresh, fails with a
	// *WriteStoppedError, nothing written. stop is called once each
	// write ends. (A write of 20 pages of 3,000 links each holds some
	// four times what the crawl held of them.)
	WriteBound func(ctx context.Context) (bounded context.Context, stop func())

	// pageContext, when set (tests), makes a page's context instead of
	// the PageTimeout: a test ends a page's time when it chooses.
	pageContext func(ctx context.Context, url string) (context.Context, context.CancelFunc)
	// now, when set (tests), is the clock that times responses.
	now func() time.Time
}

// A Result is a capture.
type Result struct {
	PDF   []byte         // the captured PDF, Web Capture structures included
	Pages []*Page        // the rendered pages, in order
	Skips []Skip         // what was not captured, and why
	Build *record.Result // the content sets and commands written

	Links int // links between captured pages made internal
	// Bookmarks is how many page sets were given a bookmark.
	Bookmarks int
	// Notes say what was not done as asked without stopping the capture:
	// pages written without tags (and why), bookmarks not added.
	Notes []string
	First int // the number of the first page captured (Append: after the file's pages)
	// Stopped is why the capture stopped before its end: ErrTimeLimit,
	// the interrupt that cancelled its context, or a browser that could
	// not be restarted; nil when it ran to its end. What was captured
	// before is in the result.
	Stopped error
	// Unsent are the pages' own requests not sent (a refresh's: a
	// script's POST, RenderOptions.GETOnly), at most maxUnsent, in the
	// order made; UnsentMore counts the others.
	Unsent     []Unsent
	UnsentMore int

	// How the time went: rendering (the browser, fetching included),
	// joining the printed pages, and building the structures.
	Render, Merge, Structures time.Duration

	u *pdfio.Update // wrote PDF, for Read
}

// ErrTimeLimit is the cause a capture's context is given when its time is
// up (context.WithTimeoutCause): what was captured is kept.
var ErrTimeLimit = errors.New("the capture's time limit was reached")

// crawled is what crawl found.
type crawled struct {
	res     *Result
	items   []Item
	sources fetched
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
	if opts.Session {
		opts.Jobs = 1 // a page's state reaches the next in queue order
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
	opts.Media = renderDefaults(opts).Media
	return opts
}

// renderDefaults are the RenderOptions opts give, defaults filled in.
func renderDefaults(opts Options) RenderOptions {
	return RenderOptions{Media: opts.Media, IdleQuiet: opts.IdleQuiet, IdleMax: opts.IdleMax, ResourceTimeout: opts.PageTimeout / 2, Settle: opts.Settle, Session: opts.Session}.withDefaults()
}

// crawlSpec is what a crawl is asked to do besides its starts.
type crawlSpec struct {
	have    map[string]string // canonical URLs not to fetch, with the reason (append)
	policy  AddressPolicy     // the addresses it may connect to
	getOnly bool              // only GET and HEAD requests (a dry run)
	revisit func(f *Frontier) // queues more URLs once the links run out (refresh)
	onPage  func(p *Page)     // called with each page captured, in order
}

// crawler is one crawl's state.
type crawler struct {
	b       *Browser
	opts    Options
	starts  []Start
	f       *Frontier
	c       *canon.Canonicalizer
	render  RenderOptions
	res     *Result
	items   []Item
	sources fetched
	byURL   map[string]int // a captured page, by the canonical form of every URL that led to it
	fetched int64
	robots  *Robots
	onPage  func(p *Page) // crawlSpec.onPage
	// pending are answers of no captured page yet (robots.txt, renderings
	// not kept), for the next page's Others.
	pending []*Response
}

// crawl fetches and renders the starts' pages and the links they lead to,
// and collects every whole (200) response by canonical URL.
func crawl(ctx context.Context, b *Browser, starts []Start, opts Options, spec crawlSpec) (*crawled, error) {
	c, err := canon.New(opts.Profile)
	if err != nil {
		return nil, err
	}
	f, skips := newFrontier(starts, opts.MaxPages, c, spec.have)
	f.SetMaxLinks(opts.MaxLinks)
	client := b.Client
	if client == nil {
		client = NewClient(spec.policy, 30*time.Second)
	}
	render := renderDefaults(opts)
	render.Client, render.GETOnly, render.KeepCredentials, render.now = client, spec.getOnly, opts.KeepCredentials, opts.now
	cr := &crawler{b: b, opts: opts, starts: starts, f: f, c: c, render: render,
		res: &Result{Skips: skips}, sources: fetched{}, byURL: map[string]int{},
		// A robots.txt takes no longer than a page may: one that never
		// ends would hold the crawl up until its time limit.
		robots: &Robots{Client: client, Agent: opts.Agent, Timeout: opts.PageTimeout}, onPage: spec.onPage}
	revisited := spec.revisit == nil
	// Jobs pages render at once, each in its tab, taken in queue order as
	// tabs come free, up to 2×Jobs ahead of the first page not handled:
	// a tab is not held up by a slower page (as when pages went in
	// batches of Jobs, each waiting for its slowest), nor the tabs by
	// the handling. Pages are handled in queue order, and a page taken
	// ahead is handled as if taken after those before it: one a page
	// before it led to (a redirect to its URL) is given back, unrendered
	// (Frontier.Reached), and one past the byte limit then is skipped. So
	// what is captured depends only on the pages, not on which rendering
	// ends first, nor on Jobs. In a session, a page is rendered once the
	// one before it has been handled.
	type flight struct {
		it      Item
		p       *Page
		err     error
		started bool
		done    chan struct{}
	}
	var window []*flight
	ahead := 2 * cr.opts.Jobs
	if cr.opts.Session {
		ahead = 1
	}
	finished := make(chan struct{}, ahead)
	running := 0
	for {
		for running > 0 {
			select {
			case <-finished:
				running--
				continue
			default:
			}
			break
		}
		for len(window) < ahead {
			if b.worn() {
				if len(window) > 0 {
					break // restarted between pages, once none is rendering
				}
				for ; running > 0; running-- {
					<-finished // a page given back, still rendering
				}
				if err := b.restartIfWorn(); err != nil {
					cr.stop(fmt.Errorf("restarting Chromium: %w", err))
				}
			}
			it, ok := cr.next(ctx)
			if !ok && !revisited && len(window) == 0 {
				// The links have run out: the URLs to look at on their own.
				revisited = true
				spec.revisit(f)
				it, ok = cr.next(ctx)
			}
			if !ok {
				break // the queue is empty (for now: the pages taken may add to it), or MaxPages were taken
			}
			window = append(window, &flight{it: it, done: make(chan struct{})})
		}
		for _, fl := range window {
			if running >= cr.opts.Jobs {
				break
			}
			if !fl.started {
				fl.started = true
				running++
				go func() {
					fl.p, fl.err = cr.fetchPage(ctx, fl.it)
					close(fl.done)
					finished <- struct{}{}
				}()
			}
		}
		if len(window) == 0 {
			break
		}
		t0 := time.Now()
		select {
		case <-finished:
			running--
			cr.res.Render += time.Since(t0)
			continue
		case <-window[0].done:
			cr.res.Render += time.Since(t0)
		}
		fl := window[0]
		window = window[1:]
		if cr.fetched >= cr.opts.MaxBytes && cr.res.Stopped == nil {
			cr.res.Skips = append(cr.res.Skips, skip(fl.it.URL, SkipByteLimit, "the capture's byte limit was reached (%d bytes fetched, the limit is %d)", cr.fetched, cr.opts.MaxBytes))
		} else {
			cr.handle(ctx, fl.it, fl.p, fl.err)
		}
		window = slices.DeleteFunc(window, func(fl *flight) bool {
			if !f.Reached(fl.it) {
				return false
			}
			f.Untake() // its rendering, if started, ends unused
			return true
		})
	}
	if cr.res.Stopped == nil && ctx.Err() != nil {
		cr.res.Stopped = context.Cause(ctx)
	}
	cr.res.Skips = append(cr.res.Skips, f.Rest()...)
	if cr.keepPending(); len(cr.pending) > 0 && len(cr.res.Pages) > 0 {
		last := cr.res.Pages[len(cr.res.Pages)-1]
		last.Others = append(last.Others, cr.pending...)
	}
	return &crawled{cr.res, cr.items, cr.sources, c}, nil
}

// stop ends the crawl for err: the URLs still queued are skipped.
func (cr *crawler) stop(err error) {
	if cr.res.Stopped == nil {
		cr.res.Stopped = err
	}
}

// next takes the next URL to render, skipping those past the capture's
// limits or forbidden by robots.txt; false when none is queued or
// MaxPages were taken.
func (cr *crawler) next(ctx context.Context) (Item, bool) {
	for {
		it, ok := cr.f.Next()
		if !ok {
			return Item{}, false
		}
		if ctx.Err() != nil {
			cr.stop(context.Cause(ctx))
		}
		switch {
		case cr.res.Stopped != nil:
			// The capture's time is up, or it was interrupted: keep what
			// was captured, and say what was not.
			cr.res.Skips = append(cr.res.Skips, stopSkip(it.URL, cr.res.Stopped))
		case cr.fetched >= cr.opts.MaxBytes:
			cr.res.Skips = append(cr.res.Skips, skip(it.URL, SkipByteLimit, "the capture's byte limit was reached (%d bytes fetched, the limit is %d)", cr.fetched, cr.opts.MaxBytes))
		default:
			if err := cr.checkRobots(ctx, it.URL); err != nil {
				cr.res.Skips = append(cr.res.Skips, cr.skipOf(ctx, it.URL, err))
				continue
			}
			return it, true
		}
	}
}

// stopSkip is the Skip of a URL not fetched because the capture stopped
// for err.
func stopSkip(u string, err error) Skip {
	if errors.Is(err, ErrTimeLimit) {
		return skip(u, SkipTimeLimit, "%v", err)
	}
	if errors.Is(err, context.Canceled) {
		return skip(u, SkipInterrupted, "the capture stopped: %v", err)
	}
	return skip(u, SkipRender, "the capture stopped: %v", err)
}

// fetchPage renders one URL within the page time limit.
func (cr *crawler) fetchPage(ctx context.Context, it Item) (*Page, error) {
	pageContext := cr.opts.pageContext
	if pageContext == nil {
		pageContext = func(ctx context.Context, _ string) (context.Context, context.CancelFunc) {
			return context.WithTimeout(ctx, cr.opts.PageTimeout)
		}
	}
	pctx, cancel := pageContext(ctx, it.URL)
	defer cancel()
	ro := cr.render
	s := cr.starts[it.Command]
	if it.Level == 1 && !it.Revisit && s.Flags&webcapture.Submit != 0 && s.Post != nil {
		ro.Post = &Post{s.Post, s.PostType}
	}
	ro.Navigate = func(ctx context.Context, u string, redirect bool) error { return cr.mayLead(ctx, it, u, redirect) }
	// A rendering that failed still gives the answers it received (p
	// holds only them): handle keeps them for a WARC.
	p, err := cr.b.render(pctx, it.URL, ro)
	if err == nil {
		err = pdfPage(pctx, p) // a PDF file: its own pages
	}
	switch {
	case err == nil:
		return p, nil
	case ctx.Err() != nil:
		return p, ctx.Err()
	case pctx.Err() != nil:
		return p, pageTimeout(cr.opts.PageTimeout)
	}
	return p, err
}

// unsent takes the requests p's rendering did not send into the result,
// named by p's URL (it's, when p has none: its rendering failed).
func (cr *crawler) unsent(it Item, p *Page) {
	res := cr.res
	page := p.URL
	if page == "" {
		page = it.URL
	}
	for _, u := range p.Unsent {
		if len(res.Unsent) == maxUnsent {
			res.UnsentMore++
			continue
		}
		u.Page = page
		res.Unsent = append(res.Unsent, u)
	}
	res.UnsentMore += p.UnsentMore
}

// pageTimeout is a page that took longer than the page time limit.
type pageTimeout time.Duration

func (d pageTimeout) Error() string {
	return fmt.Sprintf("took longer than %v (the page time limit)", time.Duration(d))
}

// handle takes one rendered page (or why it failed) into the result.
func (cr *crawler) handle(ctx context.Context, it Item, p *Page, err error) {
	res := cr.res
	cr.keepPending()
	if p != nil && cr.opts.Archive {
		// Archived with the next page kept, unless p is that page.
		cr.pending = append(cr.pending, p.Responses...)
	}
	if p != nil {
		cr.unsent(it, p)
	}
	if err == nil {
		err = documentError(p)
	}
	if err != nil {
		res.Skips = append(res.Skips, cr.skipOf(ctx, it.URL, err))
		return
	}
	for _, r := range p.Responses {
		cr.fetched += int64(len(r.Body))
		if r.Usable() && !r.Redirect {
			if k, err := cr.c.String(r.URL); err == nil {
				cr.sources.put(k, r.Body)
			}
		}
	}
	urls := p.URLs()
	for _, u := range urls {
		cr.f.Fetched(u)
	}
	key, err := cr.c.String(p.URL)
	if err != nil {
		res.Skips = append(res.Skips, skip(p.URL, SkipURL, "cannot be canonicalized: %v", err))
		return
	}
	if i, ok := cr.byURL[key]; ok {
		// One fetched resource, one content set: this URL led to a page
		// captured already, whose redirect chains it joins.
		q := res.Pages[i]
		for _, ch := range p.Chains {
			if !slices.ContainsFunc(q.Chains, func(c []string) bool { return slices.Equal(c, ch) }) {
				q.Chains = append(q.Chains, ch)
			}
		}
		cr.index(urls, i)
		return
	}
	cr.index(urls, len(res.Pages))
	if p.Document.Kind() == webcapture.SourcePage {
		if !it.Revisit {
			res.Skips = append(res.Skips, cr.f.Links(it, p.URL, p.Links)...)
		}
		cr.fetchMissing(ctx, p)
	}
	if cr.opts.Archive {
		cr.pending = cr.pending[:len(cr.pending)-len(p.Responses)] // p's own, kept as its Responses
	}
	p.Others, cr.pending = cr.pending, nil
	res.Pages = append(res.Pages, p)
	cr.items = append(cr.items, it)
	if cr.onPage != nil {
		cr.onPage(p)
	}
	if cr.opts.Progress != nil {
		cr.opts.Progress(len(res.Pages), cr.f.Pending(), cr.fetched, p.URL)
	}
}

// index records that urls lead to page i.
func (cr *crawler) index(urls []string, i int) {
	for _, u := range urls {
		if k, err := cr.c.String(u); err == nil {
			cr.byURL[k] = i
		}
	}
}

// documentError says why a rendered page's document cannot be captured:
// only a whole 200 answer can.
func documentError(p *Page) error {
	d := p.Document
	switch {
	case d.Err != nil:
		return d.Err
	case d.Status != http.StatusOK:
		return StatusError(d.URL, d.Status, http.StatusText(d.Status))
	}
	return nil
}

// skipOf says why u was not captured, from the error fetching or
// rendering it: a fetch failure by its kind.
func (cr *crawler) skipOf(ctx context.Context, u string, err error) Skip {
	var fe *FetchError
	var le *LeaveError
	var re *RobotsError
	switch {
	case ctx.Err() != nil:
		return stopSkip(u, context.Cause(ctx))
	case errors.As(err, &le):
		return Skip{URL: u, Reason: le.Error(), Kind: le.Kind}
	case errors.As(err, &re):
		kind := SkipRobots
		if re.Kind == RobotsUnreachable {
			// Its server cannot be reached at all (refused, DNS, TLS, a
			// reset): nor can the page, and refresh says it unreachable
			// by that kind; an address webcap may not connect to is
			// refused for the page too (blocked, the guard's reason);
			// robots.txt's own failures (a time-out, a 5xx) stay
			// robots.txt's.
			switch k := fetchKind(re.Origin+"/robots.txt", re.Err); k {
			case Refused, DNS, TLS, Reset, Blocked:
				kind = k.String()
			}
		}
		return Skip{URL: u, Reason: re.Error(), Kind: kind}
	case errors.As(err, &fe):
		return Skip{URL: u, Reason: fe.Error(), Kind: fe.Kind.String(), Status: fe.Status}
	case errors.As(err, new(*PDFError)):
		return skip(u, SkipPDF, "%v", err)
	case errors.As(err, new(pageTimeout)):
		return skip(u, SkipPageTimeout, "%v", err)
	case errors.As(err, new(*BrowserMemoryError)):
		return skip(u, SkipBrowserMemory, "%v", err)
	}
	return skip(u, SkipRender, "%v", err)
}

// Capture fetches the urls and the links they lead to (breadth-first, as
// opts say), renders each page with the browser, joins the pages into one
// PDF, and writes a page set per page, a command per start URL, and the
// IDS and URLS trees. Identifiers are computed from the bytes fetched.
func Capture(ctx context.Context, b *Browser, urls []string, opts Options) (*Result, error) {
	return capture(ctx, b, nil, starts(urls, opts), opts)
}

// CaptureStarts is Capture for commands of their own (levels, flags, a
// form's submission each).
func CaptureStarts(ctx context.Context, b *Browser, starts []Start, opts Options) (*Result, error) {
	return capture(ctx, b, nil, starts, opts)
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
	return AppendStarts(ctx, b, file, name, starts(urls, opts), opts)
}

// AppendStarts is Append for commands of their own.
func AppendStarts(ctx context.Context, b *Browser, file []byte, name string, starts []Start, opts Options) (*Result, error) {
	p, err := PlanAppend(file, name, opts)
	if err != nil {
		return nil, err
	}
	return p.Run(ctx, b, starts)
}

// An AppendPlan is a file read for Append, before any browser is needed.
type AppendPlan struct {
	name  string
	opts  Options
	u     *pdfio.Update
	have  map[string]string // the pages the file holds, by canonical URL
	first int               // the first new page's number
}

// PlanAppend reads file (name is used in messages) for Append: a file
// that is not a PDF, cannot be updated, or is certified against changes
// (without opts.AllowCertified) is an error here, before anything starts.
func PlanAppend(file []byte, name string, opts Options) (*AppendPlan, error) {
	opts = opts.withDefaults()
	u, d, err := openUpdate(file, name, opts)
	if err != nil {
		return nil, err
	}
	if err := certifiedRefused(d, opts); err != nil {
		return nil, err
	}
	have, err := pagesHeld(d, opts.Profile)
	if err != nil {
		return nil, err
	}
	return &AppendPlan{name: name, opts: opts, u: u, have: have, first: len(d.Pages) + 1}, nil
}

// openUpdate starts an update of file (Append, Refresh), with the
// password and AllowCertified of opts, and reads what it holds.
func openUpdate(file []byte, name string, opts Options) (*pdfio.Update, *pdfio.Document, error) {
	u, err := pdfio.NewUpdate(file, name, pdfio.Options{Password: opts.Password, AllowCertified: opts.AllowCertified})
	if err != nil {
		return nil, nil, err
	}
	d, err := u.Document()
	if err != nil {
		return nil, nil, err
	}
	return u, d, nil
}

// Run captures starts with b and appends them to the planned file, as
// AppendStarts does. A plan runs once.
func (p *AppendPlan) Run(ctx context.Context, b *Browser, starts []Start) (*Result, error) {
	return capture(ctx, b, p, starts, p.opts)
}

// capture captures starts into a new file, or into the file of p when p
// is not nil.
func capture(ctx context.Context, b *Browser, p *AppendPlan, starts []Start, opts Options) (*Result, error) {
	opts = opts.withDefaults()
	var have map[string]string
	var u *pdfio.Update
	first, name := 1, "capture.pdf" // the first new page's number, the input's name
	if p != nil {
		u, have, first, name = p.u, p.have, p.first, p.name
	}
	// The kinds of address the start URLs are were asked for, for their
	// own hosts only in a capture limited to its site or path.
	policy := StartPolicy(ctx, nil, starts, opts.Allow)
	// Where each page's printed pages go, and the anchors on them: each
	// page's pages are copied as the crawl takes it.
	mg := &merger{u: u, name: name, opts: opts, page: first}
	cr, err := crawl(ctx, b, starts, opts, crawlSpec{have: have, policy: policy, onPage: mg.add})
	if err != nil {
		return nil, err
	}
	res, items, sources, c := cr.res, cr.items, cr.sources, cr.c
	if len(res.Pages) == 0 {
		return nil, &NothingError{res.Skips, res.Stopped}
	}
	res.First = first
	if err := writeKept(ctx, b, mg, res, starts, items, sources, c, p == nil); err != nil {
		return nil, err
	}
	return res, nil
}

// writeKept writes what the crawl kept (mg's pages) under
// Options.WriteBound. A new file whose write passes the bound is written
// again with the first half of its pages, and so on down to one page:
// what fits is kept (at least half of the most that would), the pages
// left out are Skips of kind SkipMemoryLimit, and res.Stopped says why, as
// for a crawl that stopped early (unless it was interrupted: that stays
// the cause, as a time limit does not). An append writes all its pages or
// nothing (its file's update is spent by the first write).
func writeKept(ctx context.Context, b *Browser, mg *merger, res *Result, starts []Start, items []Item, sources fetched, c *canon.Canonicalizer, newFile bool) error {
	opts, notes := mg.opts, res.Notes
	var left []Skip // the pages left out, in order
	for {
		wctx, stop := opts.writeContext(ctx)
		err := mg.write(wctx, res, manifest(b, starts, res.Pages, items, mg.printed, opts), sources, c, newFile)
		stop()
		var ws *WriteStoppedError
		if !errors.As(err, &ws) || !newFile || len(res.Pages) == 1 {
			if err == nil {
				res.Skips = append(res.Skips, left...)
			}
			return err
		}
		keep := len(res.Pages) / 2
		var out []Skip
		for _, pg := range res.Pages[keep:] {
			out = append(out, skip(pg.URL, SkipMemoryLimit, "captured, not written: writing it with the pages before it %v", ws.Err))
		}
		left = append(out, left...)
		clear(res.Pages[keep:]) // their printed PDFs and responses go
		res.Pages, items, res.Notes = res.Pages[:keep], items[:keep], notes
		if !errors.Is(res.Stopped, context.Canceled) { // an interrupt stays the cause
			res.Stopped = ws.Err
		}
		mg = &merger{name: mg.name, opts: opts, page: res.First, took: mg.took}
		for _, pg := range res.Pages {
			mg.add(pg)
		}
		runtime.GC() // the heap the failed write left, before the next is watched
	}
}

// writeContext is the context the write of a capture runs in
// (Options.WriteBound), and the func that ends it.
func (opts Options) writeContext(ctx context.Context) (context.Context, func()) {
	ctx = context.WithoutCancel(ctx)
	if opts.WriteBound == nil {
		return ctx, func() {}
	}
	return opts.WriteBound(ctx)
}

// WriteStoppedError is a capture whose write stopped before its end
// (Options.WriteBound's context was done: a memory ceiling passed):
// nothing was written.
type WriteStoppedError struct {
	Pages int   // the pages captured, not written
	Err   error // why: the context's cause (a *limits.MemoryError)
}

func (e *WriteStoppedError) Error() string {
	pages := "the page"
	if e.Pages != 1 {
		pages = fmt.Sprintf("the %d pages", e.Pages)
	}
	return fmt.Sprintf("not written: writing %s captured %v", pages, e.Err)
}

func (e *WriteStoppedError) Unwrap() error { return e.Err }

// writeStopped is the error of a write whose context is done (and of a
// step that failed because it was), else nil.
func writeStopped(ctx context.Context, pages int) error {
	if ctx.Err() == nil {
		return nil
	}
	return &WriteStoppedError{Pages: pages, Err: context.Cause(ctx)}
}

// write ends a capture: the bookmarks, the Web Capture structures m
// describes, and the internal links, into res.PDF. newFile says the
// merger made the file (not an append).
// The write stops, nothing written, once ctx is done
// (Options.WriteBound), looked at between its steps.
func (mg *merger) write(ctx context.Context, res *Result, m *record.Manifest, sources fetched, c *canon.Canonicalizer, newFile bool) error {
	if mg.err != nil {
		return fmt.Errorf("capture: %w", mg.err)
	}
	fail := func(err error) error {
		if stop := writeStopped(ctx, len(res.Pages)); stop != nil {
			return stop
		}
		return fmt.Errorf("capture: %w", err)
	}
	opts := mg.opts
	t0 := time.Now()
	res.Notes = append(res.Notes, mg.notes...)
	n, notes := addBookmarks(mg.u, mg.sets, opts.Bookmarks, newFile)
	res.Bookmarks, res.Notes = n, append(res.Notes, notes...)
	if err := writeStopped(ctx, len(res.Pages)); err != nil {
		return err
	}
	input, err := mg.u.Bytes()
	if err != nil {
		return fail(err)
	}
	res.Merge = mg.took + time.Since(t0)
	t0 = time.Now()
	m.Input, m.InputData = mg.name, input
	u := mg.u
	mg.u = nil // spent
	w, err := writeStructures(ctx, u, m, record.Options{Profile: opts.Profile, Sources: sources, AllowCertified: opts.AllowCertified},
		c, nil, mg.printed)
	if err == nil {
		err = writeStopped(ctx, len(res.Pages)) // past the ceiling in the last step
	}
	if err != nil {
		return fail(err)
	}
	res.PDF, res.Build, res.Links, res.u = w.pdf, w.build, w.links, w.u
	res.Structures = time.Since(t0)
	return nil
}

// Read reads PDF, to be named name, as pdfio.ReadBytes would, from the
// update that wrote it (pdfio's Update.Result) instead of a parse of its
// bytes: once (a second call parses).
func (r *Result) Read(name string) (*pdfio.Document, error) {
	return readWritten(&r.u, r.PDF, name)
}

func readWritten(u **pdfio.Update, pdf []byte, name string) (*pdfio.Document, error) {
	if *u == nil {
		return pdfio.ReadBytes(pdf, name, pdfio.Options{})
	}
	w := *u
	*u = nil
	return w.Result(pdf, name)
}

// written is what writeStructures wrote.
type written struct {
	pdf   []byte
	build *record.Result
	links int           // links made internal
	u     *pdfio.Update // the update that wrote pdf, for reading it back
}

// writeStructures adds the Web Capture structures m describes to
// m.InputData, the file u wrote (record.Apply), then the internal links
// (internalLinks), each step continuing the update before it
// (pdfio.Update.Continue): nothing the capture wrote is parsed again. It
// consumes u. Once ctx is done it stops at its next step (the build
// between content sets, the links between pages) with ctx's error.
func writeStructures(ctx context.Context, u *pdfio.Update, m *record.Manifest, ro record.Options, c *canon.Canonicalizer,
	moved map[webcapture.Ref]webcapture.Ref, printed []printedPage) (*written, error) {
	next, err := u.Continue(m.InputData)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ro.Update, ro.ReadBack, ro.Context = next, true, ctx
	br, err := record.Apply(m, ro)
	if err != nil {
		return nil, err
	}
	m.InputData = nil // (the update holds it while it is needed)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if next, err = br.Continue(pdfio.Options{AllowCertified: ro.AllowCertified}); err != nil {
		return nil, err
	}
	w := &written{build: br, u: next}
	if w.pdf, w.links, err = internalLinks(ctx, next, br.Output, c, moved, printed); err != nil {
		return nil, fmt.Errorf("internal links: %w", err)
	}
	return w, nil
}

// certifiedRefused is the error of an update to a certified document that
// opts do not allow, said before the crawl rather than after it.
func certifiedRefused(d *pdfio.Document, opts Options) error {
	if c := d.Certification; c != nil && !opts.AllowCertified {
		return &pdfio.Error{File: d.File, Op: "update", Err: &pdfio.CertifiedError{Certification: c}}
	}
	return nil
}

// A NothingError says that no page could be captured, and why.
type NothingError struct {
	Skips   []Skip
	Stopped error // why the capture stopped early, if it did (Result.Stopped)
}

func (e *NothingError) Unwrap() error { return e.Stopped }

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
// caller names the command. Every redirect chain that led to the page is
// in its source's URL alias dictionary, and each of its URLs is a URLS key
// of the set.
func pageSet(p *Page, it Item, s Start, pp printedPage, opts Options) (record.PageSet, *record.ImageSet) {
	doc := p.Document
	url := p.URL
	var chains [][]string
	for _, ch := range p.Chains {
		chains = append(chains, slices.Clone(ch[:len(ch)-1]))
	}
	url = recordedURL(url, opts)
	if !opts.KeepCredentials {
		for _, ch := range chains {
			for j := range ch {
				ch[j], _ = StripCredentials(ch[j])
			}
		}
	}
	ps := record.PageSet{Pages: fmt.Sprintf("%d-%d", pp.First, pp.First+pp.Pages-1), URL: url, Data: doc.Body, Redirects: chains,
		ContentType: setContentType(doc), Captured: doc.Fetched.Format(time.RFC3339), Title: p.Title,
		Partial: len(p.Missing) > 0}
	if it.Level == 1 && !it.Revisit && s.Flags&webcapture.Submit != 0 {
		ps.Submission = map[bool]string{true: "post", false: "get"}[s.Post != nil]
	}
	if e, ok := Expiry(doc.Header, doc.Fetched); ok {
		ps.Expires = e.UTC().Format(time.RFC3339)
	}
	if k, mt := webcapture.KindOf(doc.Body, doc.Header.Get("Content-Type")); k != webcapture.SourceImage || mt == "image/svg+xml" {
		return ps, nil
	}
	// A URL that is itself a raster image: its page shows it as an image
	// XObject, which gets an image set too (PDF 1.7 Figure 10.2). (An SVG
	// image is printed as vector graphics, not as an image XObject.)
	return ps, &record.ImageSet{URL: url, Redirects: ps.Redirects, Data: doc.Body,
		Captured: ps.Captured, Expires: ps.Expires, Images: []record.Image{{Page: pp.First, Name: "*"}}}
}

// recordedURL is u as the file records it: without user information
// unless opts.KeepCredentials.
func recordedURL(u string, opts Options) string {
	if !opts.KeepCredentials {
		u, _ = StripCredentials(u)
	}
	return u
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
func manifest(b *Browser, starts []Start, pages []*Page, items []Item, printed []printedPage, opts Options) *record.Manifest {
	m := &record.Manifest{Profile: opts.Profile.Name()}
	for i, s := range starts {
		cmdURL := s.URL
		if !opts.KeepCredentials {
			cmdURL, _ = StripCredentials(cmdURL)
		}
		c := record.Command{Name: "c" + strconv.Itoa(i), URL: cmdURL, Levels: ptr(int64(s.Levels)),
			SameSite: s.Flags&webcapture.SameSite != 0, SamePath: s.Flags&webcapture.SamePath != 0, Submit: s.Flags&webcapture.Submit != 0,
			Settings: settings(b, opts)}
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

// fetchMissing fetches the auxiliary files the page references but the
// browser did not load (srcset candidates it did not choose, hidden
// frames), so that the page's identifier covers every file it references.
// What cannot or must not be fetched (not http or https, an address the
// capture may not reach, an answer that is not 200) is recorded in the
// page's Missing: its identifier leaves it out, and the crawl goes on.
func (cr *crawler) fetchMissing(ctx context.Context, p *Page) {
	src, err := p.Document.SourceID(cr.sources, cr.opts.Profile)
	if err != nil || src.Complete() {
		return
	}
	// What the browser was refused is not asked for again: its reason
	// stands.
	failed := map[string]*FetchError{}
	agent := ""
	for _, r := range p.Responses {
		if r.Err != nil {
			failed[r.URL] = r.Err
		}
		if r.MainDoc && agent == "" {
			agent = r.Sent.Get("User-Agent")
		}
	}
	h := cr.b.hold()
	defer h.release()
	// The files a page's renderer did not load take no longer than the
	// page could: a page of many that never end does not hold the crawl.
	ctx, cancel := context.WithTimeout(ctx, cr.opts.PageTimeout)
	defer cancel()
	for _, a := range src.Page.Aux {
		switch {
		case a.Found:
			continue
		case a.URL == "":
			p.Missing = append(p.Missing, skip(a.First.Raw, SkipURL, "%s", a.Err))
			continue
		case failed[a.URL] != nil:
			fe := failed[a.URL]
			p.Missing = append(p.Missing, Skip{URL: a.URL, Reason: fe.Error(), Kind: fe.Kind.String(), Status: fe.Status})
			continue
		case cr.fetched >= cr.opts.MaxBytes:
			p.Missing = append(p.Missing, skip(a.URL, SkipByteLimit, "not fetched: the capture's byte limit was reached (%d bytes fetched, the limit is %d)", cr.fetched, cr.opts.MaxBytes))
			continue
		}
		now := time.Now
		if cr.opts.now != nil {
			now = cr.opts.now
		}
		body, resps, fe := cr.b.get(ctx, cr.render.Client, a.URL, agent, h, now)
		if cr.opts.Archive {
			p.Aux = append(p.Aux, resps...) // every answer, for a WARC
		} else if fe == nil {
			p.Aux = append(p.Aux, resps[len(resps)-1]) // the file's own
		}
		if fe != nil {
			p.Missing = append(p.Missing, Skip{URL: a.URL, Reason: fe.Error(), Kind: fe.Kind.String(), Status: fe.Status})
			continue
		}
		cr.sources.put(a.URL, body)
		cr.fetched += int64(len(body))
	}
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
// replaces pages) follow them. (The browser's own /Dests are not
// copied with its pages: the tree replaces them.) u is an update of
// file; it writes an incremental update, and when there is nothing to
// change it returns file as it is.
func internalLinks(ctx context.Context, u *pdfio.Update, file []byte, c *canon.Canonicalizer, moved map[webcapture.Ref]webcapture.Ref, printed []printedPage) ([]byte, int, error) {
	d, err := u.Document()
	if err != nil {
		return nil, 0, err
	}
	if err := ctx.Err(); err != nil {
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
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
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
	if err := u.SetDests(dests, moved); err != nil {
		return nil, 0, err
	}
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	out, err := u.Bytes()
	return out, n, err
}

// EngineName is the conversion engine's name in a command's settings
// (company:product:version:contentType, PDF 1.7 §10.9.6).
func EngineName(b *Browser) string { return "webcap:chromium:" + b.Version + ":text/html" }

// keepPending takes robots.txt's answers received so far among the
// answers pending for a WARC.
func (cr *crawler) keepPending() {
	if took := cr.robots.take(); cr.opts.Archive {
		cr.pending = append(cr.pending, took...)
	}
}
