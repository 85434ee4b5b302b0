package capture

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/css"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/webcapture"
)

// ErrNoChromium: no Chromium or Chrome executable was found.
var ErrNoChromium = errors.New("no Chromium found: install Debian's chromium package, or give its path with --chromium")

// FindChromium returns path when it is given, or the first of chromium,
// chromium-browser, google-chrome and google-chrome-stable on PATH.
func FindChromium(path string) (string, error) {
	if path != "" {
		p, err := exec.LookPath(path)
		var ee *exec.Error
		var pe *fs.PathError
		switch {
		case errors.As(err, &pe):
			err = fmt.Errorf("%s: %w", path, pe.Err) // not "exec: PATH: stat PATH: ..."
		case errors.As(err, &ee):
			err = fmt.Errorf("%s: %w", path, ee.Err)
		}
		return p, err
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNoChromium
}

// BrowserOptions say how Chromium runs.
type BrowserOptions struct {
	// NoSandbox runs Chromium without its sandbox. It is always so when
	// webcap runs as root, where Chromium refuses to start with it.
	NoSandbox bool
	// RestartEvery restarts Chromium after this many pages (between
	// pages), so that a long crawl's memory stays bounded; 0: 200.
	RestartEvery int
	// Memory is how much Chromium's processes may hold together before
	// the renderer of the page that grows them is stopped (memory.go);
	// 0: DefaultBrowserMemory.
	Memory int64
}

// DefaultRestartEvery is how many pages Chromium renders before a restart.
const DefaultRestartEvery = 200

// A Browser renders pages with headless Chromium. Every request the page
// makes is fetched by Go, not by the browser, and handed to the browser:
// so the bytes recorded are exactly the bytes rendered, redirects are seen
// one by one, conditional requests never reach the server, and the limits
// (addresses, sizes, methods) are ours.
type Browser struct {
	// Client fetches every request when it is set (tests); nil: each
	// capture makes one that connects only where its AddressPolicy allows.
	Client   *http.Client
	MaxBytes int64 // per response; 0: 64 MiB
	// MaxInFlight bounds the response bytes the pages being rendered hold
	// at once, all together; 0: DefaultInFlight.
	MaxInFlight int64
	Version     string // the browser's version, as it reports it ("156.0.8078.79")
	// Notes are what a user should know about how the browser runs (it
	// runs without its sandbox, ...), each to be said once.
	Notes []string

	exe     string
	opts    BrowserOptions
	sandbox bool
	parent  context.Context

	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.Mutex
	idle   []*tab
	// putting counts the tabs of each kind (session or not) being made
	// idle (putTab), which a page waits for rather than open a tab; puts
	// is signalled as each is done. gen counts the browsers started (and
	// closed): a tab of an earlier one is not made idle.
	putting  map[bool]int
	puts     *sync.Cond
	gen      int
	rendered int // pages rendered since Chromium started
	restarts int
	proxy    *refusingProxy // where Chromium's own connections go (networkFlags)
	session  bool           // a page was rendered in the session (RenderOptions.Session)
	mem      memState
}

// NewBrowser starts Chromium (execPath, see FindChromium) headless, with
// its sandbox unless opts or root say otherwise, and without what needs a
// GPU or a network of its own (first-run, background networking, component
// updates, sync).
func NewBrowser(ctx context.Context, execPath string, opts BrowserOptions) (*Browser, error) {
	if opts.RestartEvery <= 0 {
		opts.RestartEvery = DefaultRestartEvery
	}
	b := &Browser{exe: execPath, opts: opts, parent: ctx, sandbox: !opts.NoSandbox, Version: "unknown", putting: map[bool]int{}}
	b.puts = sync.NewCond(&b.mu)
	if b.sandbox && os.Geteuid() == 0 {
		b.sandbox = false
		b.Notes = append(b.Notes, "running as root: Chromium runs without its sandbox (run webcap as another user to keep it)")
	}
	if err := b.start(); err != nil {
		b.proxy.close()
		return nil, err
	}
	return b, nil
}

// Sandboxed reports whether Chromium runs with its sandbox.
func (b *Browser) Sandboxed() bool { return b.sandbox }

func (b *Browser) start() error {
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(b.exe), chromedp.Headless, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true),
	}
	opts = append(opts, b.memoryFlags()...)
	if !b.sandbox {
		opts = append(opts, chromedp.NoSandbox)
	}
	netOpts, err := b.networkFlags()
	if err != nil {
		return fmt.Errorf("starting %s: %w", b.exe, err)
	}
	opts = append(opts, netOpts...)
	// Chromium's own temporary files (its shared memory, with
	// disable-dev-shm-usage, in a directory org.chromium.Chromium.*) go to
	// a directory of webcap's, removed once Chromium has exited: Chromium
	// is killed when the capture ends, which leaves them behind. The
	// profile (--user-data-dir) is chromedp's, which removes it. The name
	// is short: Chromium's singleton socket is made in it, and a socket's
	// path is at most 107 bytes.
	tmp, err := os.MkdirTemp("", "wc")
	if err != nil {
		return fmt.Errorf("starting %s: %w", b.exe, err)
	}
	opts = append(opts, chromedp.Env("TMPDIR="+tmp))
	actx, acancel := chromedp.NewExecAllocator(b.parent, opts...)
	bctx, bcancel := chromedp.NewContext(actx, chromedp.WithErrorf(quietErrorf))
	stop := func() {
		bcancel()
		acancel() // waits for Chromium to exit and its profile to be removed
		os.RemoveAll(tmp)
	}
	// Start the browser now, so that a missing or broken executable is
	// reported here.
	if err := chromedp.Do(bctx); err != nil {
		stop()
		if b.sandbox {
			return fmt.Errorf("starting %s: %w (if its sandbox cannot run here, --no-sandbox runs it without)", b.exe, err)
		}
		return fmt.Errorf("starting %s: %w", b.exe, err)
	}
	b.ctx, b.cancel = bctx, stop
	b.watchMemory(bctx)
	if v, err := cdp.Call(bctx, chromedp.FromContext(bctx).Browser, cdpbrowser.GetVersion, cdp.Empty{}); err == nil {
		// "HeadlessChrome/156.0.8078.79": the version, which may not hold ':'.
		_, ver, _ := strings.Cut(v.Product, "/")
		if ver = strings.ReplaceAll(ver, ":", "."); ver != "" {
			b.Version = ver
		}
	}
	return nil
}

// Close stops the browser.
func (b *Browser) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.idle = nil
	b.gen++
	b.cancel()
	b.proxy.close()
}

// worn reports whether Chromium has rendered RestartEvery pages: it is
// to be restarted (restartIfWorn) once no page is rendering.
func (b *Browser) worn() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.rendered >= b.opts.RestartEvery
}

// restartIfWorn restarts Chromium once it has rendered RestartEvery pages.
// It must be called between pages (no page rendering).
func (b *Browser) restartIfWorn() error {
	b.mu.Lock()
	worn := b.rendered >= b.opts.RestartEvery
	var kept []*network.CookieParam
	if worn {
		if b.session {
			kept = b.sessionCookies() // a session outlives the restart by its cookies
		}
		b.idle, b.rendered = nil, 0
		b.gen++ // a tab being made idle now is of the browser stopped
		b.cancel()
	}
	b.mu.Unlock()
	if !worn {
		return nil
	}
	b.restarts++
	if err := b.start(); err != nil {
		return err
	}
	return b.restoreCookies(kept)
}

// A Response is one response as Go fetched it.
type Response struct {
	URL      string
	Type     string // the browser's resource type: Document, Image, Stylesheet, ...
	Method   string
	Status   int
	Header   http.Header
	Body     []byte
	Fetched  time.Time
	MainDoc  bool        // a document of the page's own frame (not an iframe)
	Redirect bool        // a 3xx with a Location
	Err      *FetchError // why there is no usable response; nil when there is one

	// What went over the wire, for a WARC (WriteWARC): the request as
	// sent (its header and body), and the response's protocol and status
	// line, and whether Go's client removed a gzip coding it asked for
	// (then Body is the decoded entity, and Header has no
	// Content-Encoding).
	Sent         http.Header
	SentBody     []byte
	Proto        string // "HTTP/1.1"
	StatusLine   string // "200 OK"
	Uncompressed bool
	TLS          *tls.ConnectionState // the connection's TLS state as Go's client gave it (one per connection, its certificates shared); nil over plain HTTP
}

// Usable reports whether r is a whole 200 response, whose body can be
// hashed: identifiers are computed over nothing else.
func (r *Response) Usable() bool { return r.Err == nil && r.Status == http.StatusOK }

// Kind is the identifier rule that applies to r's body, by its declared
// Content-Type (webcapture.KindOf).
func (r *Response) Kind() webcapture.SourceKind {
	k, _ := webcapture.KindOf(r.Body, r.Header.Get("Content-Type"))
	return k
}

// SourceID computes r's body's identifier (webcapture.SourceID), a page's
// auxiliary files taken from aux.
func (r *Response) SourceID(aux webcapture.AuxSource, p *canon.Profile) (*webcapture.Source, error) {
	return webcapture.SourceID(r.Body, webcapture.SourceOptions{ContentType: r.Header.Get("Content-Type"), URL: r.URL, Aux: aux, Profile: p})
}

// A Page is a rendered page.
type Page struct {
	Requested string
	URL       string // the final URL, after redirects
	// Chains are the redirect chains that led to URL, each the URLs that
	// redirected, in order, then URL. A page reached by several chains
	// (two URLs that redirect to it) has one chain for each.
	Chains    [][]string
	Document  *Response   // the final document
	Responses []*Response // every response, in the order they were fetched
	Title     string
	Links     []string // every <a href>, absolute, in document order
	PDF       []byte
	// Missing are the auxiliary files the page references that could not
	// or must not be fetched: its identifier leaves them out.
	Missing []Skip
	// Aux are the auxiliary files webcap fetched itself, the browser
	// having not loaded them (srcset candidates it did not choose, hidden
	// frames): every answer, each redirect and the final one, for a WARC.
	Aux []*Response
	// Others are answers the crawl received before this page's, that
	// belong to no captured page's rendering: robots.txt, a rendering
	// that joined a page captured before (a redirect chain to it, a
	// repeated fetch), or whose document was an error; for a WARC.
	Others []*Response
	// Unsent are the page's own requests GETOnly did not send, in the
	// order made: at most maxUnsent, UnsentMore counts the others.
	Unsent     []Unsent
	UnsentMore int

	still bool // it settled as a still page (settle, stillJS)
}

// An Unsent is a request a page made that was not sent (GETOnly): what a
// script sent by POST (or another method) while the page rendered.
type Unsent struct {
	Page   string `json:"page"` // the page that made it (its final URL)
	Method string `json:"method"`
	URL    string `json:"url"`
}

// maxUnsent bounds the Unsent requests kept per page (and per crawl,
// Result.Unsent): a page that posts without end is reported, bounded.
const maxUnsent = 100

// unsent reports whether a paused request is the page's own that GETOnly
// does not send; if so it is recorded in the page's Unsent. The tab's
// lock is not held.
func (t *tab) unsent(r *rendering, ev fetch.EventRequestPaused, post *Post) bool {
	m := ev.Request.Method
	if !r.opts.GETOnly || post != nil || m == http.MethodGet || m == http.MethodHead {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(r.p.Unsent) < maxUnsent {
		r.p.Unsent = append(r.p.Unsent, Unsent{Method: m, URL: ev.Request.URL})
	} else {
		r.p.UnsentMore++
	}
	return true
}

// URLs returns every URL that leads to the page: its chains' URLs, each
// once, then URL.
func (p *Page) URLs() []string {
	var out []string
	seen := map[string]bool{p.URL: true}
	for _, c := range p.Chains {
		for _, u := range c {
			if !seen[u] {
				seen[u] = true
				out = append(out, u)
			}
		}
	}
	return append(out, p.URL)
}

// RenderOptions say how one page is loaded and printed.
type RenderOptions struct {
	// Post, when set, sends the page's first request as a POST of a
	// form's data (what the server answers, a redirect included, is then
	// loaded as usual).
	Post *Post
	// Media is the CSS media type the page is printed with: "print"
	// (default, as Chromium prints) or "screen".
	Media string
	// IdleQuiet is how long the page must fetch nothing to count as done
	// loading, after its load event and its lazy content; 0: 500 ms. A
	// still page (stillJS: nothing in it can start a request by itself)
	// waits only stillQuiet. IdleMax bounds the wait; 0: 10 s.
	IdleQuiet, IdleMax time.Duration
	// ResourceTimeout bounds the page's resources other than its own
	// document (images, style sheets, scripts, fonts, frames): one that
	// has not arrived whole within it of the page's start is left out
	// (its Response's Err is a Timeout FetchError: "did not arrive within
	// D"), the browser is told it failed, and the page is printed
	// without it (Capture names it in Page.Missing). 0: no bound but the
	// client's and the page's. A capture gives half its PageTimeout, so
	// that a page with a resource that never ends is still printed
	// within its time.
	ResourceTimeout time.Duration
	// Settle is how much page time the page's timers are given once it
	// has settled, on virtual time (runTimers): content a script adds
	// after its load (an image inserted after 3 s) is printed without
	// waiting for it in real time. 0: DefaultSettle; NoSettle: none.
	Settle time.Duration
	// Session renders the page in the browser's own context, whose
	// cookies and storage the pages before it left (and it leaves to
	// those after); otherwise it is rendered in a context that holds
	// nothing of another page's (pagestate.go).
	Session bool
	// Client fetches the page's requests; nil: Browser.Client, or a client
	// that may connect to the URL's own kind of address (AddressPolicy).
	Client *http.Client
	// GETOnly sends no request that is not a GET or a HEAD (refresh's,
	// which sends nothing that could change anything unless asked). The
	// page's own (a script's fetch, XHR, beacon, a frame's form post) is
	// answered in the browser with an empty 204 and listed in
	// Page.Unsent; Post, and a form post of the page's own frame, are
	// refused (Blocked): the page is not captured.
	GETOnly bool
	// Navigate, when set, is asked before every request for the page's
	// own document but the first: each redirect (redirect is true) and
	// each load the page's script or refresh starts. An error refuses
	// it: nothing is fetched, and the error is the page's (wrapped in its
	// document's FetchError, of kind Blocked). Subresources and frames
	// are not asked: the client's address policy bounds them.
	Navigate func(ctx context.Context, u string, redirect bool) error
	// KeepCredentials prints links as the page has them; without it,
	// the user information of every link's URL (user:password@) is
	// removed before printing (StripCredentials), so the PDF's link
	// annotations do not carry it. Page.Links has the links as they were.
	KeepCredentials bool

	now    func() time.Time // the clock that times responses; nil: time.Now
	hold   *hold            // the page's hold on the bytes in flight (memory.go)
	served func(url string) // told when a request has been answered or failed (tests)
}

// The defaults of RenderOptions.
const (
	DefaultIdleQuiet = 500 * time.Millisecond
	DefaultIdleMax   = 10 * time.Second
	DefaultSettle    = 5 * time.Second
	NoSettle         = -1 // RenderOptions.Settle: the page's timers get no time
)

func (o RenderOptions) withDefaults() RenderOptions {
	if o.Media == "" {
		o.Media = "print"
	}
	if o.IdleQuiet <= 0 {
		o.IdleQuiet = DefaultIdleQuiet
	}
	if o.IdleMax <= 0 {
		o.IdleMax = DefaultIdleMax
	}
	if o.Settle == 0 {
		o.Settle = DefaultSettle
	}
	return o
}

// A Post is a form's data, sent by POST.
type Post struct {
	Data []byte
	Type string // its content type; "": DefaultPostType
}

// DefaultPostType is a form's content type (HTML's default enctype, and
// the default of a command's /CT).
const DefaultPostType = "application/x-www-form-urlencoded"

// Render loads u in a tab, waits until it is done (its load event, its
// lazy content, a quiet network, its fonts and images), and prints it.
func (b *Browser) Render(ctx context.Context, u string, opts RenderOptions) (*Page, error) {
	opts = opts.withDefaults()
	if opts.Client == nil {
		opts.Client = b.Client
	}
	if opts.Client == nil {
		opts.Client = NewClient(AddressPolicy{Allow: StartClasses(ctx, nil, []string{u})}, 30*time.Second)
	}
	p, err := b.render(ctx, u, opts)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// A tab is a browser tab that renders one page after another: opening a
// tab and enabling request interception costs more than loading a small
// page, so tabs are kept (Browser.idle) and reused.
type tab struct {
	ctx     context.Context
	cancel  context.CancelFunc
	mu      sync.Mutex
	cur     *rendering // the page being rendered; nil between pages
	uses    int        // pages rendered
	crashed bool       // its renderer crashed (watchCrash)
	warped  bool       // its page ran on virtual time (runTimers): not reused
	// session: the tab is in the browser's own context, shared by the
	// crawl's pages (RenderOptions.Session); otherwise in a context of
	// its own, emptied between pages (forget).
	session bool
	gen     int    // the browser's (Browser.gen)
	media   string // the CSS media type it emulates (RenderOptions.Media; "": none, a new tab's)
}

// maxTabUses is how many pages a tab renders before it is closed, so that
// a long crawl does not grow one renderer's memory without end.
const maxTabUses = 50

// rendering is the state of one page's rendering in a tab.
type rendering struct {
	p          *Page
	opts       RenderOptions
	started    bool // a request was seen
	mainFrame  cdp.FrameID
	inflight   int       // requests being fetched
	answering  int       // of them, those whose answer could store something (all but the tab's icon)
	last       time.Time // when a request last started or ended
	moved      int       // loads of another document its frame started (script, refresh, form)
	resourceBy time.Time // when the page's resources are late (ResourceTimeout); zero: never
	movedTo    string    // the last one's URL
	cancel     func()    // ends the page's actions (a crash does)
}

// newTab opens a tab with the browser's cache off, service workers
// bypassed, and every request paused (Fetch.enable) and served by webcap,
// for whichever page it renders; in a browser context of its own unless
// session (pagestate.go).
func (b *Browser) newTab(session bool) (*tab, error) {
	ctx, cancel := chromedp.NewContext(b.ctx, tabContext(session)...)
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		return nil, err
	}
	b.mu.Lock()
	gen := b.gen
	b.mu.Unlock()
	t := &tab{ctx: ctx, cancel: cancel, session: session, gen: gen}
	t.watchCrash()
	target := chromedp.FromContext(ctx).Target
	events := chromedp.Events(ctx, fetch.RequestPaused)
	// No cache: a cached response would make the browser send validators
	// (and render what it kept, not what the server sends now).
	for _, step := range []struct {
		what string
		call func() error
	}{
		// chromedp enables the DOM and CSS agents for its queries by
		// selector, which webcap does not make: they mirror every
		// document's nodes and style sheets to us, some 7% of a
		// capture's CPU time (bench/capture-cpu.sh).
		{"disabling the CSS agent", func() error {
			_, err := cdp.Call(ctx, target, css.Disable, cdp.Empty{})
			return err
		}},
		{"disabling the DOM agent", func() error {
			_, err := cdp.Call(ctx, target, dom.Disable, cdp.Empty{})
			return err
		}},
		{"enabling the network domain", func() error {
			_, err := cdp.Call(ctx, target, network.Enable, network.EnableParams{MaxTotalBufferSize: ptr[int64](0)})
			return err
		}},
		{"disabling the browser's cache", func() error {
			_, err := cdp.Call(ctx, target, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true})
			return err
		}},
		{"bypassing service workers", func() error {
			_, err := cdp.Call(ctx, target, network.SetBypassServiceWorker, network.SetBypassServiceWorkerParams{Bypass: true})
			return err
		}},
		{"enabling request interception", func() error {
			_, err := cdp.Call(ctx, target, fetch.Enable, fetch.EnableParams{})
			return err
		}},
		{"watching the page's timers", func() error {
			_, err := cdp.Call(ctx, target, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: timersJS})
			return err
		}},
	} {
		if err := step.call(); err != nil {
			cancel()
			return nil, fmt.Errorf("%s: %w", step.what, err)
		}
	}
	go func() {
		for ev, err := range events {
			if err != nil {
				return
			}
			t.mu.Lock()
			r := t.cur
			var post *Post
			if r != nil {
				if !r.started && r.opts.Post != nil && ev.ResourceType == network.ResourceTypeDocument {
					post = r.opts.Post // the navigation itself: the form's submission
				}
				r.started = true
				r.inflight++
				if !favicon(ev) {
					r.answering++
				}
				r.last = time.Now()
			}
			t.mu.Unlock()
			go t.serve(ctx, b, target, r, ev, post)
		}
	}()
	return t, nil
}

// serve fetches one paused request for the page being rendered (r), and
// fulfills or fails it.
func (t *tab) serve(ctx context.Context, b *Browser, target *chromedp.Target, r *rendering, ev fetch.EventRequestPaused, post *Post) {
	if r == nil {
		// Between pages (the blank page, a late request of the page
		// before): nothing is fetched.
		cdp.Call(ctx, target, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonAborted})
		return
	}
	defer func() {
		t.mu.Lock()
		r.inflight--
		if !favicon(ev) {
			r.answering--
		}
		r.last = time.Now()
		t.mu.Unlock()
		if r.opts.served != nil {
			r.opts.served(ev.Request.URL)
		}
	}()
	if favicon(ev) {
		// The tab's icon, which no page shows: not fetched, but
		// answered 404, which the browser remembers (a failure it asks
		// for again at every page: 23 requests more in 24 pages).
		cdp.Call(ctx, target, fetch.FulfillRequest, fetch.FulfillRequestParams{RequestID: ev.RequestID, ResponseCode: http.StatusNotFound})
		return
	}
	if t.unsent(r, ev, post) && !t.ownDocument(r, ev) {
		// Not sent, answered here: an empty 204, not a failure. A
		// script that reads nothing from the answer (a beacon, a
		// subscription, a counter) goes on as when its request was
		// answered, and a frame's form post answered 204 leaves the
		// frame as it is: the page prints as it renders, not in an
		// error state the server never gave. A form post of the page's
		// own frame (a script's submit) would have replaced the page
		// with its answer: that is fetch's to refuse (GETOnly), and the
		// page is not captured, as a form command not resubmitted.
		cdp.Call(ctx, target, fetch.FulfillRequest, fetch.FulfillRequestParams{RequestID: ev.RequestID, ResponseCode: http.StatusNoContent})
		return
	}
	// A document of the page's own frame: the first is the page's
	// request, each later one a redirect or a load its script started.
	t.mu.Lock()
	mainDoc := ev.ResourceType == network.ResourceTypeDocument && (r.mainFrame == "" || ev.FrameID == r.mainFrame)
	hop, redirect := mainDoc && r.mainFrame != "", r.redirected()
	if mainDoc {
		r.mainFrame = ev.FrameID
	}
	if hop && !redirect {
		r.moved, r.movedTo = r.moved+1, ev.Request.URL
	}
	t.mu.Unlock()
	var resp *Response
	var params *fetch.FulfillRequestParams
	if hop && r.opts.Navigate != nil {
		if err := r.opts.Navigate(ctx, ev.Request.URL, redirect); err != nil {
			now := time.Now
			if r.opts.now != nil {
				now = r.opts.now
			}
			resp = &Response{URL: ev.Request.URL, Type: string(ev.ResourceType), Method: ev.Request.Method, Fetched: now().UTC(),
				Err: &FetchError{URL: ev.Request.URL, Kind: Blocked, Err: err}}
		}
	}
	if resp == nil {
		resp, params = b.fetchBy(ctx, ev, post, r, mainDoc)
	}
	resp.MainDoc = mainDoc
	if mainDoc {
		params = servePDF(resp, params) // a PDF file is not shown in the viewer (pdfpage.go)
	}
	t.mu.Lock()
	if t.cur == r {
		r.p.Responses = append(r.p.Responses, resp)
	}
	t.mu.Unlock()
	if params != nil {
		cdp.Call(ctx, target, fetch.FulfillRequest, *params)
	} else {
		cdp.Call(ctx, target, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonFailed})
	}
}

// ownDocument reports whether a request is a document of the page's own
// frame (not an iframe's).
func (t *tab) ownDocument(r *rendering, ev fetch.EventRequestPaused) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return ev.ResourceType == network.ResourceTypeDocument && (r.mainFrame == "" || ev.FrameID == r.mainFrame)
}

// fetchBy is fetch, a resource of the page other than its own document
// bounded by the page's resourceBy: one that has not arrived whole by
// then fails, its error saying it did not arrive in time.
func (b *Browser) fetchBy(ctx context.Context, ev fetch.EventRequestPaused, post *Post, r *rendering, mainDoc bool) (*Response, *fetch.FulfillRequestParams) {
	if mainDoc || r.resourceBy.IsZero() {
		return b.fetch(ctx, ev, post, r.opts)
	}
	fctx, cancel := context.WithDeadline(ctx, r.resourceBy)
	defer cancel()
	resp, params := b.fetch(fctx, ev, post, r.opts)
	if resp.Err != nil && ctx.Err() == nil && errors.Is(fctx.Err(), context.DeadlineExceeded) {
		resp.Err = &FetchError{URL: resp.URL, Kind: Timeout, Err: &lateError{r.opts.ResourceTimeout}}
		params = nil
	}
	return resp, params
}

// A lateError is a page's resource that did not arrive within the time
// its page gives its resources (RenderOptions.ResourceTimeout).
type lateError struct{ within time.Duration }

func (e *lateError) Error() string {
	return fmt.Sprintf("did not arrive within %v of its page's start: the page is printed without it", e.within)
}

func (e *lateError) Is(target error) bool { return target == context.DeadlineExceeded }

// redirected reports whether the last response of the page's own frame
// is a redirect: the next request of the frame follows it. The tab's lock
// is held.
func (r *rendering) redirected() bool {
	for i := len(r.p.Responses) - 1; i >= 0; i-- {
		if resp := r.p.Responses[i]; resp.MainDoc {
			return resp.Redirect
		}
	}
	return false
}

// favicon reports whether a request is the browser's own for a site's
// icon (of resource type Other; an <img> of it would be an Image).
func favicon(ev fetch.EventRequestPaused) bool {
	return ev.ResourceType == network.ResourceTypeOther && strings.HasSuffix(strings.ToLower(strings.SplitN(ev.Request.URL, "?", 2)[0]), "favicon.ico")
}

// takeTab returns an idle tab of the session's kind, or one being made
// idle once it is (opening a tab costs more than the wait), or a new one.
func (b *Browser) takeTab(session bool) (*tab, error) {
	b.mu.Lock()
	b.rendered++
	b.session = b.session || session
	for {
		for i := len(b.idle) - 1; i >= 0; i-- {
			if t := b.idle[i]; t.session == session {
				b.idle = slices.Delete(b.idle, i, i+1)
				b.mu.Unlock()
				return t, nil
			}
		}
		if b.putting[session] == 0 {
			break
		}
		b.puts.Wait()
	}
	b.mu.Unlock()
	return b.newTab(session)
}

// putTab makes a tab idle once it shows a blank page (so that nothing of
// the page before can reach the next one), and, outside a session, once
// its context has forgotten what the page stored at origins; or closes
// it: at once when its page was abandoned (its time is up, or the capture
// stopped), whose renderer may be too busy to show a blank page soon. A
// still page (stillJS) stays shown: nothing in it runs (no script, no
// handler, no refresh, no animation) that could store anything once its
// context is emptied, and the next page replaces it as a blank page would
// (the blank page was 6% of a capture's CPU, bench/capture-cpu.sh).
// The tab is emptied while its page is being handled (and another
// rendered): a page that takes it waits until it is (takeTab).
func (b *Browser) putTab(t *tab, abandoned, still bool, origins []string) {
	t.mu.Lock()
	t.cur = nil
	t.uses++
	worn := t.uses >= maxTabUses || t.crashed || t.warped
	t.mu.Unlock()
	if worn || abandoned {
		t.cancel()
		return
	}
	b.mu.Lock()
	b.putting[t.session]++
	b.mu.Unlock()
	go func() {
		ok := b.empty(t, still, origins)
		b.mu.Lock()
		defer b.mu.Unlock()
		b.putting[t.session]--
		b.puts.Broadcast()
		if !ok || t.gen != b.gen {
			t.cancel()
			return
		}
		b.idle = append(b.idle, t)
	}()
}

// empty shows a blank page in a tab, unless its page was still, and
// forgets what its page stored.
func (b *Browser) empty(t *tab, still bool, origins []string) bool {
	ctx, cancel := context.WithTimeout(t.ctx, 5*time.Second)
	defer cancel()
	// The browser stopped (restarted, closed): its tabs' contexts have
	// ended, and so does this.
	if still {
		if err := chromedp.Do(ctx); err != nil {
			return false
		}
	} else if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		return false
	}
	return t.forget(ctx, origins) == nil
}

// settled waits until no tab is being made idle (tests).
func (b *Browser) settled() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.putting[false]+b.putting[true] > 0 {
		b.puts.Wait()
	}
}

// render is Render, but a rendering that fails returns, with its error, a
// page that holds only the answers received (Responses), for a WARC.
func (b *Browser) render(ctx context.Context, u string, opts RenderOptions) (out *Page, err error) {
	start := time.Now() // the page's start: opening a tab is part of its time
	t, err := b.takeTab(opts.Session)
	if err != nil {
		return nil, err
	}
	defer b.explainStop()(&err)
	opts.hold = b.hold()
	defer opts.hold.release()
	p := &Page{Requested: u}
	// The page's time: ctx ends the page's actions, not the tab.
	rctx, rcancel := context.WithCancel(t.ctx)
	r := &rendering{p: p, opts: opts, cancel: rcancel}
	if opts.ResourceTimeout > 0 {
		r.resourceBy = start.Add(opts.ResourceTimeout)
	}
	t.mu.Lock()
	t.cur = r
	t.mu.Unlock()
	defer func() {
		if err != nil {
			t.mu.Lock()
			out = &Page{Requested: u, Responses: slices.Clone(p.Responses), Unsent: slices.Clone(p.Unsent), UnsentMore: p.UnsentMore}
			t.mu.Unlock()
		}
	}()
	stop := context.AfterFunc(ctx, rcancel)
	defer func() {
		stop()
		rcancel()
		// A still page with a request still being answered (an image
		// cut off at IdleMax or its ResourceTimeout) is blanked as any
		// other, which ends the request: its answer, and a cookie it
		// sets, would otherwise land after the tab was emptied, for the
		// next page to see. The tab's icon does not count: its answer
		// (404, from here) stores nothing.
		t.mu.Lock()
		still := p.still && r.answering == 0
		t.mu.Unlock()
		b.putTab(t, ctx.Err() != nil, still, t.origins(r))
	}()
	loaded := -1 // r.moved once the page is loaded
	defer func() {
		if err != nil {
			err = t.interrupted(r, loaded, err)
		}
	}()
	target := chromedp.FromContext(t.ctx).Target
	media := opts.Media
	if media == "print" {
		media = "" // printing uses print media already
	}
	if media != t.media {
		// A tab keeps its media type from page to page (a new one has
		// none: "").
		if _, err := cdp.Call(rctx, target, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: media}); err != nil {
			return nil, fmt.Errorf("loading %s: setting the media type: %w", u, err)
		}
		t.media = media
	}
	if err := chromedp.Do(rctx, chromedp.Navigate(u)); err != nil {
		if fe := t.documentError(r); fe != nil {
			// The browser only says net::ERR_FAILED: the cause is ours.
			return nil, fmt.Errorf("loading %s: %w", u, fe)
		}
		return nil, fmt.Errorf("loading %s: %w", u, err)
	}
	loaded = t.moves(r)
	quiet, err := b.settle(rctx, t, r)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", u, err)
	}
	if quiet && !p.still && t.timersPending(rctx, r) {
		// A page that never stopped fetching has had its time: its
		// clock would hold on virtual time while it fetches. One whose
		// timers are all done (or later than its Settle) keeps its
		// tab's real time, and the tab is reused.
		if err := t.runTimers(rctx, r); err != nil {
			return nil, fmt.Errorf("loading %s: %w", u, err)
		}
	}
	// One round trip: the title, the links, and the anchors marked; a
	// still page's fonts and images waited for first (settle).
	js := pageJS
	if p.still {
		js = fmt.Sprintf("(async () => { await %s; return %s; })()", fmt.Sprintf(readyJS, opts.IdleMax.Milliseconds()), pageJS)
	}
	info, err := chromedp.Run(rctx, chromedp.Evaluate[pageInfo](js, awaitPromise))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", u, err)
	}
	if m := withoutCredentials(info.At); m != nil && !opts.KeepCredentials {
		// Printed, a link keeps its URL in the PDF's link annotation.
		js, err := json.Marshal(m)
		if err == nil {
			_, err = chromedp.Run(rctx, chromedp.Evaluate[bool](fmt.Sprintf(relinkJS, js)))
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: removing user information from its links: %w", u, err)
		}
	}
	pdf, err := chromedp.Run(rctx, chromedp.PrintToPDF(func(pp *page.PrintToPDFParams) { printSettings.apply(pp) }))
	if err != nil {
		return nil, fmt.Errorf("printing %s: %w", u, err)
	}
	p.Title, p.Links, p.PDF = info.Title, info.Links, pdf
	t.mu.Lock()
	defer t.mu.Unlock()
	t.cur = nil // late requests no longer belong to this page
	var chain []string
	for _, r := range p.Responses {
		if !r.MainDoc {
			continue
		}
		if r.Redirect {
			chain = append(chain, r.URL)
			continue
		}
		p.Document, p.URL = r, r.URL
	}
	if p.Document == nil {
		return nil, fmt.Errorf("loading %s: no document was fetched", u)
	}
	if chain != nil {
		p.Chains = [][]string{append(chain, p.URL)}
	}
	return p, nil
}

// documentError is why the page's document could not be loaded, when the
// browser gives up on it: the error of the last document response of its
// frame, or its status when that is not a whole 200 (Chromium fails the
// navigation for an error status without a body).
func (t *tab) documentError(r *rendering) *FetchError {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i := len(r.p.Responses) - 1; i >= 0; i-- {
		resp := r.p.Responses[i]
		switch {
		case !resp.MainDoc:
			continue
		case resp.Err != nil:
			return resp.Err
		case !resp.Redirect && resp.Status != http.StatusOK:
			return StatusError(resp.URL, resp.Status, http.StatusText(resp.Status))
		}
		return nil
	}
	return nil
}

// settle waits until the page is done: lazy content asked for (loading
// made eager, the page scrolled through for loaders that wait to be
// seen), then no request for IdleQuiet (at most IdleMax), then its fonts
// and images ready (a still page's as its links are read, render). It is
// what Browsertrix and Gotenberg wait for. quiet
// says whether the page stopped fetching (not cut off at IdleMax).
//
// A still page (stillJS: no script, no handler, no refresh, no media,
// no animation, no prefetch, in it or its frames) waits stillQuiet, not
// IdleQuiet: nothing in it can start a request once it is loaded, so the
// quiet time would only be waited (it was two thirds of the wall time
// of a capture of such pages, bench/capture-cpu.sh).
func (b *Browser) settle(ctx context.Context, t *tab, r *rendering) (quiet bool, err error) {
	still, err := chromedp.Run(ctx, chromedp.Evaluate[bool](lazyJS, awaitPromise))
	if err != nil {
		return false, fmt.Errorf("loading lazy content: %w", err)
	}
	idle := r.opts.IdleQuiet
	if still {
		idle = min(idle, stillQuiet)
		r.p.still = true
	}
	// The wait ends idle after the last request ended, unless another
	// started: it is timed to then (a tick of idle/5 made it idle/10
	// longer on average), and looked at again every idle/5 while
	// requests are in flight.
	deadline := time.Now().Add(r.opts.IdleMax)
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		t.mu.Lock()
		busy, since := r.inflight > 0, time.Since(r.last)
		t.mu.Unlock()
		quiet = !busy && since >= idle
		left := time.Until(deadline)
		if quiet || left <= 0 {
			break
		}
		wait := idle - since
		if busy {
			wait = idle / 5
		}
		timer.Reset(min(wait, left))
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-timer.C:
		}
	}
	if still {
		return quiet, nil // its fonts and images are waited for as its links are read (render): one round trip less
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(readyJS, r.opts.IdleMax.Milliseconds()), awaitPromise)); err != nil {
		return false, fmt.Errorf("waiting for fonts and images: %w", err)
	}
	return quiet, nil
}

// runTimers runs the page's pending timers on virtual time, as Chromium's
// own --virtual-time-budget does (Emulation.setVirtualTimePolicy,
// pauseIfNetworkFetchesPending): whenever the page has nothing to do and
// fetches nothing, its clock jumps to its next timer, until opts.Settle
// of page time has passed. Content a script adds after the load (an image
// inserted after 1 s or 3 s) is fetched and there when the page is
// printed, in the real time it takes to run the scripts and fetch; a page
// whose timers never end (a setInterval) stops at the budget, and one that
// keeps fetching after Settle of real time. The page's
// clock stays paused after it (until the page's time ends), and the tab
// is not reused: virtual time cannot be turned off.
func (t *tab) runTimers(ctx context.Context, r *rendering) error {
	if r.opts.Settle <= 0 {
		return nil
	}
	// The page's clock holds while it fetches: a page that keeps
	// fetching (thousands of requests) would hold it to its time limit,
	// so the wait is bounded by Settle of real time too, and the page
	// printed as it is then.
	vctx, cancel := context.WithTimeout(ctx, r.opts.Settle)
	defer cancel()
	expired := chromedp.Events(vctx, emulation.VirtualTimeBudgetExpired)
	t.mu.Lock()
	t.warped = true // virtual time cannot be turned off, not even by detaching
	t.mu.Unlock()
	budget := float64(r.opts.Settle.Milliseconds())
	if _, err := cdp.Call(vctx, chromedp.FromContext(t.ctx).Target, emulation.SetVirtualTimePolicy, emulation.SetVirtualTimePolicyParams{
		Policy: emulation.VirtualTimePolicyPauseIfNetworkFetchesPending, Budget: &budget,
		// A page that never idles (a loop of immediate tasks) still moves
		// on: after this many tasks its clock is pushed forward.
		MaxVirtualTimeTaskStarvationCount: maxStarvation,
	}); err != nil {
		return errors.Join(ctx.Err(), fmt.Errorf("running its timers: %w", err))
	}
	for _, err := range expired {
		if err != nil && vctx.Err() == nil {
			return fmt.Errorf("running its timers: %w", err)
		}
		break
	}
	return ctx.Err()
}

// maxStarvation is how many tasks a page may run on virtual time before
// its clock is pushed forward (Chromium's own tests of virtual time use
// far more; fewer ends a busy page's budget sooner).
const maxStarvation = 10000

func awaitPromise(p *runtime.EvaluateParams) { p.AwaitPromise = ptr(true) }

// stillQuiet is how long a still page must fetch nothing (settle): time
// for a request the browser has just paused to reach webcap.
const stillQuiet = 50 * time.Millisecond

// lazyJS asks for a page's lazy content: images and frames that load when
// seen (loading="lazy") load now, and the page is scrolled through, a
// screen at a time (at most 100), for scripts that load content as it
// comes into view; then back to the top. The scroll (9% of a capture's
// CPU time when left out altogether, bench/README.md) is left out when nothing in
// the page or a frame of it could react to it (timersJS): no observer of
// what is seen, no scroll, wheel or resize listener or attribute, no
// interval; a frame it cannot read could. It returns whether the page is
// still (stillJS), which a page that could react to the scroll is not.
const lazyJS = `(async () => {
	` + stillJS + `
	let framed = false; // a lazy frame made eager: its document is yet to come
	for (const e of document.querySelectorAll('img[loading="lazy"], iframe[loading="lazy"]')) {
		e.loading = "eager";
		framed = framed || e.localName === "iframe";
	}
	const key = Symbol.for("webcap.scroll"), on = "[onscroll], [onscrollend], [onwheel], [onmousewheel], [onresize]";
	let seen = 0;
	const reacts = w => {
		if (++seen > 100) return true;
		try {
			if (typeof w[key] !== "function" || w[key]() || w.document.querySelector(on)) return true;
			for (let i = 0; i < w.frames.length; i++) if (reacts(w.frames[i])) return true;
			return false;
		} catch (e) { return true; }
	};
	if (!reacts(window)) return !framed && still(window);
	const step = Math.max(window.innerHeight, 100);
	const frame = () => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
	for (let y = 0, n = 0; n < 100 && y < document.documentElement.scrollHeight; y += step, n++) {
		window.scrollTo(0, y);
		await frame();
	}
	window.scrollTo(0, 0);
	await frame();
	return false;
})()`

// stillJS defines still(w): whether nothing in window w or its frames
// (at most 100 in all) can start a request once it is loaded: no script
// (HTML's or SVG's), no attribute that may hold a handler (on…), no
// refresh, no audio, video, object or embed (which fetch as they play),
// no prefetch, preload or prerender hint (fetched when the browser is
// idle), no icon or manifest link (the browser fetches them once the page
// is loaded, and one could reach the next page's rendering when the tab
// is not blanked, putTab), no CSS or SVG animation (which may change what
// is shown). A frame it cannot read, or still loading, is not still, nor
// is a page with a lazy frame (lazyJS makes it load now). What a still page
// fetches once loaded is what its layout asks for (its lazy images made
// eager, its fonts), which readyJS waits for.
const stillJS = `const acting = 'script, meta[http-equiv="refresh" i], video, audio, object, embed, ' +
		'link[rel~="prefetch" i], link[rel~="preload" i], link[rel~="modulepreload" i], link[rel~="prerender" i], ' +
		'link[rel~="icon" i], link[rel~="manifest" i], ' +
		'animate, set, animateMotion, animateTransform';
	let looked = 0;
	const still = w => {
		if (++looked > 100) return false;
		try {
			const d = w.document;
			if (d.readyState !== "complete" || d.querySelector(acting)) return false;
			if (d.evaluate("count(//@*[starts-with(name(), 'on')])", d, null, XPathResult.NUMBER_TYPE, null).numberValue > 0) return false;
			if (typeof d.getAnimations !== "function" || d.getAnimations().length > 0) return false;
			for (let i = 0; i < w.frames.length; i++) if (!still(w.frames[i])) return false;
			return true;
		} catch (e) { return false; }
	};`

// readyJS waits for the page's fonts, and for every image to be loaded
// (or to have failed) and decoded, at most %d milliseconds (an image that
// never loads, such as a lazy one that is not displayed, does not hold
// the page up).
const readyJS = `(async () => {
	const ready = (async () => {
		if (document.fonts) await document.fonts.ready;
		await Promise.all(Array.from(document.images, img =>
			img.complete ? (img.decode ? img.decode().catch(() => {}) : null)
				: new Promise(r => { img.addEventListener("load", r, {once: true}); img.addEventListener("error", r, {once: true}); })));
	})();
	await Promise.race([ready, new Promise(r => setTimeout(r, %d))]);
	return true;
})()`

type pageInfo struct {
	Title string   `json:"title"`
	Links []string `json:"links"`
	At    []string `json:"at"` // printed links with an '@'
}

// relinkJS gives the page's printed links (<a href>, <area href>) the
// URLs of the JSON object %s (by their present URL), before printing:
// their URLs without user information.
const relinkJS = `(() => {
	const to = %s;
	for (const a of document.querySelectorAll("a[href], area[href]")) {
		if (Object.hasOwn(to, a.href)) a.href = to[a.href];
	}
	return true;
})()`

// withoutCredentials maps each of urls that has user information to the
// URL without it (StripCredentials), for relinkJS; nil when none has.
func withoutCredentials(urls []string) map[string]string {
	var m map[string]string
	for _, u := range urls {
		if s, ok := StripCredentials(u); ok {
			if m == nil {
				m = map[string]string{}
			}
			m[u] = s
		}
	}
	return m
}

// pageJS returns the page's title, its links (every <a href>, absolute,
// in document order) and the URLs of the links Chromium prints as link
// annotations (<a href>, <area href>) that have an '@' (which may be user
// information: see relinkJS), then marks its anchors: Chromium prints a
// named destination for each element a link of the page points to, so a
// hidden element (which prints nothing) gets a link to every element
// with an id and every <a name>, and links from other pages can go to
// them.
const pageJS = `(() => {
	const info = {title: document.title, links: Array.from(document.querySelectorAll("a[href]"), a => a.href),
		at: Array.from(document.querySelectorAll("a[href], area[href]"), a => a.href).filter(h => h.includes("@"))};
	if (!document.body) return info;
	const box = document.createElement("div");
	box.style.display = "none";
	const seen = new Set();
	for (const e of document.querySelectorAll("[id], a[name]")) {
		const n = e.id || e.getAttribute("name");
		if (!n || seen.has(n)) continue;
		seen.add(n);
		const a = document.createElement("a");
		a.href = "#" + n;
		box.appendChild(a);
	}
	document.body.appendChild(box);
	return info;
})()`

// conditional are the request headers that make a request conditional or
// partial: a 304 or 206 answer carries no whole body to record, so they
// are never forwarded (the browser's cache is off too).
var conditional = []string{"If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range", "Range"}

// fetch does one paused request with Go's client, without following
// redirects (the browser follows them, and each is recorded). The
// request's body is the browser's, or post's when given. A 304 or 206
// answer, a refused method or address, or a failure is the response's
// Err, and the browser's request fails.
func (b *Browser) fetch(ctx context.Context, ev fetch.EventRequestPaused, post *Post, opts RenderOptions) (*Response, *fetch.FulfillRequestParams) {
	now := time.Now
	if opts.now != nil {
		now = opts.now
	}
	r := &Response{URL: ev.Request.URL, Type: string(ev.ResourceType), Method: ev.Request.Method, Fetched: now().UTC()}
	var sent []byte
	for _, e := range ev.Request.PostDataEntries {
		sent = append(sent, e.Bytes...)
	}
	if post != nil {
		r.Method, sent = http.MethodPost, post.Data
	}
	if opts.GETOnly && r.Method != http.MethodGet && r.Method != http.MethodHead {
		r.Err = &FetchError{URL: r.URL, Kind: Blocked, Err: fmt.Errorf("a %s request, not sent: refresh sends only GET and HEAD requests unless asked to resubmit (--resubmit), and a dry run never", r.Method)}
		return r, nil
	}
	var rd io.Reader
	if sent != nil {
		rd = bytes.NewReader(sent)
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, ev.Request.URL, rd)
	if err != nil {
		r.Err = ClassifyFetch(r.URL, err)
		return r, nil
	}
	for k, v := range ev.Request.Headers {
		if s, ok := v.(string); ok && !strings.EqualFold(k, "Accept-Encoding") {
			req.Header.Set(k, s)
		}
	}
	for _, h := range conditional {
		req.Header.Del(h)
	}
	if post != nil {
		ct := post.Type
		if ct == "" {
			ct = DefaultPostType
		}
		req.Header.Set("Content-Type", ct)
	}
	c := *opts.Client
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Do(req)
	if err != nil {
		r.Err = ClassifyFetch(r.URL, err)
		return r, nil
	}
	defer resp.Body.Close()
	body, fe := b.readBody(r.URL, resp, opts.hold)
	if fe != nil {
		r.Err = fe
		return r, nil
	}
	r.Status, r.Header, r.Body = resp.StatusCode, resp.Header, body
	r.sent(req, sent, resp)
	if resp.StatusCode == http.StatusNotModified || resp.StatusCode == http.StatusPartialContent {
		r.Err = StatusError(r.URL, resp.StatusCode, http.StatusText(resp.StatusCode))
		return r, nil
	}
	r.Redirect = resp.StatusCode >= 300 && resp.StatusCode < 400 && resp.Header.Get("Location") != ""
	var hs []*fetch.HeaderEntry
	for k, vs := range resp.Header {
		if strings.EqualFold(k, "Content-Encoding") || strings.EqualFold(k, "Content-Length") {
			continue
		}
		for _, v := range vs {
			hs = append(hs, &fetch.HeaderEntry{Name: k, Value: v})
		}
	}
	return r, &fetch.FulfillRequestParams{RequestID: ev.RequestID, ResponseCode: int64(resp.StatusCode), ResponseHeaders: hs, Body: body}
}

func ptr[T any](v T) *T { return &v }

// get fetches u with client, following redirects (each to where client
// may connect, at most maxAuxHops, each hop checked by client's
// CheckRedirect when it has one), within MaxBytes, as the browser's agent
// (the page's own request's User-Agent; "": Go's). Only a 200 answer is a
// body. Every answer received is returned as well, in order (for a WARC):
// each redirect, then the final response, a 404 or 500 included.
func (b *Browser) get(ctx context.Context, client *http.Client, u, agent string, h *hold, now func() time.Time) ([]byte, []*Response, *FetchError) {
	c := *client
	check := client.CheckRedirect
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	var got []*Response
	var via []*http.Request
	target := u
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
		if err != nil {
			return nil, got, ClassifyFetch(target, err)
		}
		if agent != "" {
			req.Header.Set("User-Agent", agent)
		}
		if len(via) > 0 {
			if len(via) > maxAuxHops {
				return nil, got, ClassifyFetch(u, fmt.Errorf("stopped after %d redirects", maxAuxHops))
			}
			if check != nil {
				if err := check(req, via); err != nil {
					return nil, got, ClassifyFetch(target, err)
				}
			}
		}
		resp, err := c.Do(req)
		if err != nil {
			return nil, got, ClassifyFetch(target, err)
		}
		body, fe := b.readBody(target, resp, h)
		resp.Body.Close()
		if fe != nil {
			return nil, got, fe
		}
		r := &Response{URL: target, Method: http.MethodGet, Status: resp.StatusCode, Header: resp.Header, Body: body, Fetched: now().UTC()}
		r.sent(req, nil, resp)
		got = append(got, r)
		loc := resp.Header.Get("Location")
		if resp.StatusCode < 300 || resp.StatusCode >= 400 || loc == "" {
			if resp.StatusCode != http.StatusOK {
				return nil, got, StatusError(u, resp.StatusCode, http.StatusText(resp.StatusCode))
			}
			return body, got, nil
		}
		r.Redirect = true
		next, err := req.URL.Parse(loc)
		if err != nil {
			return nil, got, ClassifyFetch(u, fmt.Errorf("redirect to %q: %w", loc, err))
		}
		via = append(via, req)
		target = next.String()
	}
}

// maxAuxHops is how many redirects get follows, as Go's client does.
const maxAuxHops = 10

// sent records on r what went over the wire for req and resp.
func (r *Response) sent(req *http.Request, body []byte, resp *http.Response) {
	r.Sent, r.SentBody = req.Header.Clone(), body
	r.Proto, r.StatusLine, r.Uncompressed, r.TLS = resp.Proto, resp.Status, resp.Uncompressed, resp.TLS
	if r.Proto == "" {
		r.Proto = "HTTP/1.1"
	}
}
