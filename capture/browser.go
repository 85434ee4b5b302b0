package capture

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// ErrNoChromium: no Chromium or Chrome executable was found.
var ErrNoChromium = errors.New("no Chromium found: install Debian's chromium package, or give its path with --chromium")

// FindChromium returns path when it is given, or the first of chromium,
// chromium-browser, google-chrome and google-chrome-stable on PATH.
func FindChromium(path string) (string, error) {
	if path != "" {
		return exec.LookPath(path)
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNoChromium
}

// A Browser renders pages with headless Chromium. Every request the page
// makes is fetched by Go (Client), not by the browser, and handed to the
// browser: so the bytes recorded are exactly the bytes rendered, redirects
// are seen one by one, and the limits are ours.
type Browser struct {
	Client   *http.Client // fetches every request; nil: a client with a 30 s timeout
	MaxBytes int64        // per response; 0: 64 MiB
	Version  string       // the browser's version, as it reports it ("156.0.8078.79")

	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.Mutex
	idle   []*tab
}

// NewBrowser starts Chromium (execPath, see FindChromium) with the flags
// that work without a sandbox or a network (no GPU, no first-run, no
// background networking, no component updates, no sync).
func NewBrowser(ctx context.Context, execPath string) (*Browser, error) {
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(execPath), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true),
	}
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	// Start the browser now, so that a missing or broken executable is
	// reported here.
	if err := chromedp.Do(bctx); err != nil {
		bcancel()
		acancel()
		return nil, fmt.Errorf("starting %s: %w", execPath, err)
	}
	br := &Browser{ctx: bctx, cancel: func() { bcancel(); acancel() }, Version: "unknown"}
	if v, err := cdp.Call(bctx, chromedp.FromContext(bctx).Browser, cdpbrowser.GetVersion, cdp.Empty{}); err == nil {
		// "HeadlessChrome/156.0.8078.79": the version, which may not hold ':'.
		_, ver, _ := strings.Cut(v.Product, "/")
		if ver = strings.ReplaceAll(ver, ":", "."); ver != "" {
			br.Version = ver
		}
	}
	return br, nil
}

// Close stops the browser.
func (b *Browser) Close() { b.cancel() }

// A Response is one response as Go fetched it.
type Response struct {
	URL      string
	Type     string // the browser's resource type: Document, Image, Stylesheet, ...
	Status   int
	Header   http.Header
	Body     []byte
	Fetched  time.Time
	MainDoc  bool // a document of the page's own frame (not an iframe)
	Redirect bool // a 3xx with a Location
	Err      string
}

// A Page is a rendered page.
type Page struct {
	Requested string
	URL       string      // the final URL, after redirects
	Chain     []string    // the URLs that redirected, in order, then URL; nil without redirects
	Document  *Response   // the final document
	Responses []*Response // every response, in the order they were fetched
	Title     string
	Links     []string // every <a href>, absolute, in document order
	PDF       []byte
}

// Render loads u in a new tab, waits for it to load, and prints it.
func (b *Browser) Render(ctx context.Context, u string) (*Page, error) { return b.render(ctx, u, nil) }

// A Post is a form's data, sent by POST.
type Post struct {
	Data []byte
	Type string // its content type; "": DefaultPostType
}

// DefaultPostType is a form's content type (HTML's default enctype, and
// the default of a command's /CT).
const DefaultPostType = "application/x-www-form-urlencoded"

// RenderPost is Render for a form submitted by POST to u: the page's first
// request is sent as a POST of post's data (what the server answers, a
// redirect included, is then loaded as usual).
func (b *Browser) RenderPost(ctx context.Context, u string, post Post) (*Page, error) {
	return b.render(ctx, u, &post)
}

// A tab is a browser tab that renders one page after another: opening a
// tab and enabling request interception costs more than loading a small
// page, so tabs are kept (Browser.idle) and reused.
type tab struct {
	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.Mutex
	cur    *rendering // the page being rendered; nil between pages
	uses   int        // pages rendered
}

// maxTabUses is how many pages a tab renders before it is closed, so that
// a long crawl does not grow one renderer's memory without end.
const maxTabUses = 50

// rendering is the state of one page's rendering in a tab.
type rendering struct {
	p         *Page
	post      *Post // the form to send with the first document request
	started   bool  // a request was seen
	mainFrame cdp.FrameID
}

// newTab opens a tab with every request paused (Fetch.enable) and served
// by webcap, for whichever page it renders.
func (b *Browser) newTab() (*tab, error) {
	ctx, cancel := chromedp.NewContext(b.ctx)
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		return nil, err
	}
	t := &tab{ctx: ctx, cancel: cancel}
	target := chromedp.FromContext(ctx).Target
	events := chromedp.Events(ctx, fetch.RequestPaused)
	if _, err := cdp.Call(ctx, target, fetch.Enable, fetch.EnableParams{}); err != nil {
		cancel()
		return nil, fmt.Errorf("enabling request interception: %w", err)
	}
	go func() {
		for ev, err := range events {
			if err != nil {
				return
			}
			t.mu.Lock()
			r := t.cur
			var send *Post
			if r != nil {
				if !r.started && r.post != nil && ev.ResourceType == network.ResourceTypeDocument {
					send = r.post // the navigation itself: the form's submission
				}
				r.started = true
			}
			t.mu.Unlock()
			go func(ev fetch.EventRequestPaused) {
				if r == nil || favicon(ev) {
					// Between pages (the blank page, a late request of the
					// page before), or the tab's icon, which no page
					// shows: nothing is fetched.
					cdp.Call(ctx, target, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonAborted})
					return
				}
				resp, params := b.fetch(ctx, ev, send)
				t.mu.Lock()
				if t.cur == r {
					if ev.ResourceType == network.ResourceTypeDocument && (r.mainFrame == "" || ev.FrameID == r.mainFrame) {
						r.mainFrame, resp.MainDoc = ev.FrameID, true
					}
					r.p.Responses = append(r.p.Responses, resp)
				}
				t.mu.Unlock()
				if params != nil {
					cdp.Call(ctx, target, fetch.FulfillRequest, *params)
				} else {
					cdp.Call(ctx, target, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonFailed})
				}
			}(ev)
		}
	}()
	return t, nil
}

// favicon reports whether a request is the browser's own for a site's
// icon (of resource type Other; an <img> of it would be an Image).
func favicon(ev fetch.EventRequestPaused) bool {
	return ev.ResourceType == network.ResourceTypeOther && strings.HasSuffix(strings.ToLower(strings.SplitN(ev.Request.URL, "?", 2)[0]), "favicon.ico")
}

// takeTab returns an idle tab, or a new one.
func (b *Browser) takeTab() (*tab, error) {
	b.mu.Lock()
	if n := len(b.idle); n > 0 {
		t := b.idle[n-1]
		b.idle = b.idle[:n-1]
		b.mu.Unlock()
		return t, nil
	}
	b.mu.Unlock()
	return b.newTab()
}

// putTab makes a tab idle once it shows a blank page (so that nothing of
// the page before can reach the next one), or closes it.
func (b *Browser) putTab(t *tab) {
	t.mu.Lock()
	t.cur = nil
	t.uses++
	worn := t.uses >= maxTabUses
	t.mu.Unlock()
	if worn {
		t.cancel()
		return
	}
	ctx, cancel := context.WithTimeout(t.ctx, 5*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil || b.ctx.Err() != nil {
		t.cancel()
		return
	}
	b.mu.Lock()
	b.idle = append(b.idle, t)
	b.mu.Unlock()
}

func (b *Browser) render(ctx context.Context, u string, post *Post) (*Page, error) {
	t, err := b.takeTab()
	if err != nil {
		return nil, err
	}
	p := &Page{Requested: u}
	r := &rendering{p: p, post: post}
	t.mu.Lock()
	t.cur = r
	t.mu.Unlock()
	// The page's time: ctx ends the page's actions, not the tab.
	rctx, rcancel := context.WithCancel(t.ctx)
	stop := context.AfterFunc(ctx, rcancel)
	defer func() {
		stop()
		rcancel()
		b.putTab(t)
	}()
	if err := chromedp.Do(rctx, chromedp.Navigate(u)); err != nil {
		return nil, fmt.Errorf("loading %s: %w", u, err)
	}
	// One round trip: the title, the links, and the anchors marked.
	info, err := chromedp.Run(rctx, chromedp.Evaluate[pageInfo](pageJS))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", u, err)
	}
	pdf, err := chromedp.Run(rctx, chromedp.PrintToPDF(func(pp *page.PrintToPDFParams) { pp.PrintBackground = ptr(true) }))
	if err != nil {
		return nil, fmt.Errorf("printing %s: %w", u, err)
	}
	p.Title, p.Links, p.PDF = info.Title, info.Links, pdf
	t.mu.Lock()
	defer t.mu.Unlock()
	t.cur = nil // late requests no longer belong to this page
	for _, r := range p.Responses {
		if !r.MainDoc {
			continue
		}
		if r.Redirect {
			p.Chain = append(p.Chain, r.URL)
			continue
		}
		p.Document, p.URL = r, r.URL
	}
	if p.Document == nil {
		return nil, fmt.Errorf("loading %s: no document was fetched", u)
	}
	if p.Chain != nil {
		p.Chain = append(p.Chain, p.URL)
	}
	return p, nil
}

type pageInfo struct {
	Title string   `json:"title"`
	Links []string `json:"links"`
}

// pageJS returns the page's title and its links (every <a href>,
// absolute, in document order), then marks its anchors: Chromium prints
// a named destination for each element a link of the page points to, so
// a hidden element (which prints nothing) gets a link to every element
// with an id and every <a name>, and links from other pages can go to
// them.
const pageJS = `(() => {
	const info = {title: document.title, links: Array.from(document.querySelectorAll("a[href]"), a => a.href)};
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

// fetch does one paused request with Go's client, without following
// redirects (the browser follows them, and each is recorded). The
// request's body is the browser's, or post's when given.
func (b *Browser) fetch(ctx context.Context, ev fetch.EventRequestPaused, post *Post) (*Response, *fetch.FulfillRequestParams) {
	r := &Response{URL: ev.Request.URL, Type: string(ev.ResourceType), Fetched: time.Now().UTC()}
	c := *b.client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	method := ev.Request.Method
	var sent []byte
	for _, e := range ev.Request.PostDataEntries {
		sent = append(sent, e.Bytes...)
	}
	if post != nil {
		method, sent = http.MethodPost, post.Data
	}
	var rd io.Reader
	if sent != nil {
		rd = bytes.NewReader(sent)
	}
	req, err := http.NewRequestWithContext(ctx, method, ev.Request.URL, rd)
	if err != nil {
		r.Err = err.Error()
		return r, nil
	}
	for k, v := range ev.Request.Headers {
		if s, ok := v.(string); ok && !strings.EqualFold(k, "Accept-Encoding") {
			req.Header.Set(k, s)
		}
	}
	if post != nil {
		ct := post.Type
		if ct == "" {
			ct = DefaultPostType
		}
		req.Header.Set("Content-Type", ct)
	}
	resp, err := c.Do(req)
	if err != nil {
		r.Err = err.Error()
		return r, nil
	}
	defer resp.Body.Close()
	body, err := b.readBody(resp)
	if err != nil {
		r.Err = err.Error()
		return r, nil
	}
	r.Status, r.Header, r.Body = resp.StatusCode, resp.Header, body
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

// get fetches u with the browser's client, following redirects, within
// MaxBytes.
func (b *Browser) get(ctx context.Context, u string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := b.client().Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s", resp.Status)
	}
	return b.readBody(resp)
}

// client is the Client, or one with a 30 s timeout.
func (b *Browser) client() *http.Client {
	if b.Client != nil {
		return b.Client
	}
	return &http.Client{Timeout: 30 * time.Second}
}

// readBody reads a response's body, at most MaxBytes (default 64 MiB).
func (b *Browser) readBody(resp *http.Response) ([]byte, error) {
	max := b.MaxBytes
	if max <= 0 {
		max = 64 << 20
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err == nil && int64(len(body)) > max {
		err = fmt.Errorf("more than %d bytes", max)
	}
	return body, err
}
