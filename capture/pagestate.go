package capture

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/url"
	"slices"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"
)

// What one page leaves to the next.
//
// A page's requests are fetched by Go (Browser.fetch), which keeps no
// cookies: what the page stores lives in Chromium's browser context, the
// cookies its answers set (Set-Cookie, fulfilled as received) and its
// scripts set, its localStorage, sessionStorage, IndexedDB, Cache
// Storage and service workers (the HTTP cache is off). By default every
// tab has a context of its own (Target.createBrowserContext), emptied
// between its pages (forget): each page is rendered as a stranger would
// see it, whichever tab renders it and whatever was rendered before, so
// that a capture does not depend on --jobs or on timing. Opening a tab
// costs about as much CPU as rendering a small page (a tab per page
// doubled a 24-page capture's), emptying a context a few milliseconds.
//
// With RenderOptions.Session the tabs are in the browser's own context,
// whose cookies and storage the crawl's pages share, in the order they
// are rendered (Options.Session renders them one at a time, in queue
// order). Its sessionStorage is a tab's: it is lost when a tab is
// replaced (after maxTabUses pages, a crash, or a page run on virtual
// time); when Chromium is restarted (RestartEvery) the session keeps its
// cookies (sessionCookies), not its storage.

// tabContext is how a tab is opened: in a browser context of its own
// unless in the session.
func tabContext(session bool) []chromedp.ContextOption {
	if session {
		return nil
	}
	return []chromedp.ContextOption{chromedp.WithNewBrowserContext()}
}

// origins are the origins of the page's answers: where its documents
// (and those of its frames) may have stored something. The tab's lock is
// taken.
func (t *tab) origins(r *rendering) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for _, resp := range r.p.Responses {
		u, err := url.Parse(resp.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			continue
		}
		if o := u.Scheme + "://" + u.Host; !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out
}

// forget empties a tab's own context once its page has gone (the tab
// shows a blank page) or is still (stillJS: it stays shown, nothing in
// it runs): its cookies, and everything stored for each of origins
// (Storage.clearDataForOrigin, "all": local and session storage,
// IndexedDB, Cache Storage, service workers, ...). A session's tab keeps
// it all.
func (t *tab) forget(ctx context.Context, origins []string) error {
	if t.session {
		return nil
	}
	c := chromedp.FromContext(t.ctx)
	if _, err := cdp.Call(ctx, c.Browser, storage.ClearCookies, storage.ClearCookiesParams{BrowserContextID: c.BrowserContextID}); err != nil {
		return fmt.Errorf("clearing the tab's cookies: %w", err)
	}
	for _, o := range origins {
		if _, err := cdp.Call(ctx, c.Target, storage.ClearDataForOrigin, storage.ClearDataForOriginParams{Origin: o, StorageTypes: "all"}); err != nil {
			return fmt.Errorf("clearing what %s stored: %w", o, err)
		}
	}
	// The cookies a page's script set reach the store after its
	// script ran, maybe after the clearing (a page that sets 10,000 has
	// them arrive for a while): a context that holds any now is not
	// reused.
	left, err := cdp.Call(ctx, c.Browser, storage.GetCookies, storage.GetCookiesParams{BrowserContextID: c.BrowserContextID})
	if err != nil {
		return fmt.Errorf("reading the tab's cookies: %w", err)
	}
	if len(left.Cookies) > 0 {
		return errCookiesLeft
	}
	return nil
}

// errCookiesLeft is a context that received cookies after it was cleared.
var errCookiesLeft = errors.New("cookies arrived after the tab's were cleared")

// timersJS runs in every document before its scripts
// (Page.addScriptToEvaluateOnNewDocument), and notes the timers its
// scripts set and when each is due, so that timersPending can tell
// whether running the page's timers on virtual time would do anything,
// and notes whether anything could react to the page being scrolled
// (lazyJS).
// The page's own functions are wrapped, not replaced: a timer runs as
// set. A timer set by a string is noted until cleared.
const timersJS = `(() => {
	const due = new Map(), now = () => performance.now();
	const st = window.setTimeout, si = window.setInterval, ct = window.clearTimeout, ci = window.clearInterval;
	window.setTimeout = function (f, d, ...a) {
		const at = now() + (Number(d) || 0);
		if (typeof f !== "function") { const id = st.call(this, f, d, ...a); due.set(id, at); return id; }
		const id = st.call(this, function () { due.delete(id); return f.apply(this, arguments); }, d, ...a);
		due.set(id, at);
		return id;
	};
	window.setInterval = function (f, d, ...a) {
		const every = Math.max(Number(d) || 0, 0);
		let id;
		const g = typeof f !== "function" ? f : function () { due.set(id, now() + every); return f.apply(this, arguments); };
		id = si.call(this, g, d, ...a);
		due.set(id, now() + every);
		return id;
	};
	window.clearTimeout = function (id) { due.delete(id); return ct.call(this, id); };
	window.clearInterval = function (id) { due.delete(id); return ci.call(this, id); };
	Object.defineProperty(window, Symbol.for("webcap.timers"), {value: within => {
		const by = now() + within;
		for (const at of due.values()) if (at <= by) return true;
		return false;
	}});
	// What could react to the page being scrolled (lazyJS): an observer
	// of what is seen, a listener of scrolling or of the window's size
	// (by addEventListener or an on… property; attributes are looked for
	// when asked), a script that polls: by an interval or a timer pending
	// (a chain of timeouts has one at any time), or by animation frames
	// or idle callbacks (a loop of them cannot be told from one call).
	// Whatever cannot be watched counts as reacting.
	let reacts = false;
	try {
		const kinds = new Set(["scroll", "scrollend", "wheel", "mousewheel", "resize"]), mark = Symbol.for("webcap.scroll");
		const ael = EventTarget.prototype.addEventListener;
		EventTarget.prototype.addEventListener = function (type) {
			try { if (kinds.has(String(type))) reacts = true; } catch (e) { reacts = true; }
			return ael.apply(this, arguments);
		};
		for (const k of ["requestAnimationFrame", "requestIdleCallback"]) {
			const f = window[k];
			if (typeof f === "function") window[k] = function () { reacts = true; return f.apply(this, arguments); };
		}
		if (window.IntersectionObserver) {
			const observe = IntersectionObserver.prototype.observe;
			IntersectionObserver.prototype.observe = function () { reacts = true; return observe.apply(this, arguments); };
		}
		for (const o of [window, Document.prototype, Element.prototype, HTMLElement.prototype, SVGElement.prototype, HTMLBodyElement.prototype, HTMLFrameSetElement.prototype]) {
			for (const k of kinds) {
				let at = o, d;
				while (at && !(d = Object.getOwnPropertyDescriptor(at, "on" + k))) at = Object.getPrototypeOf(at);
				if (!d || !d.set || d.set[mark]) continue;
				if (!d.configurable) { reacts = true; continue; }
				const set = d.set, wrapped = function (v) { if (v) reacts = true; return set.call(this, v); };
				wrapped[mark] = true;
				Object.defineProperty(at, "on" + k, {...d, set: wrapped});
			}
		}
	} catch (e) { reacts = true; }
	Object.defineProperty(window, Symbol.for("webcap.scroll"), {value: () => reacts || due.size > 0});
})()`

// pendingJS says whether the page (or a frame of it it can reach) has a
// timer due within %d milliseconds.
const pendingJS = `(() => {
	const key = Symbol.for("webcap.timers"), within = %d;
	const pending = w => { try { return typeof w[key] === "function" && w[key](within); } catch (e) { return false; } };
	if (pending(window)) return true;
	for (let i = 0; i < window.frames.length && i < 100; i++) if (pending(window.frames[i])) return true;
	return false;
})()`

// timersPending reports whether the page has a timer due within its
// Settle: only then are its timers run on virtual time (runTimers),
// which leaves its tab unusable for another page. A page that cannot
// tell is taken to have none.
func (t *tab) timersPending(ctx context.Context, r *rendering) bool {
	if r.opts.Settle <= 0 {
		return false
	}
	pending, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(pendingJS, r.opts.Settle.Milliseconds())))
	return err == nil && pending
}

// sessionCookies are the cookies of the browser's own context (the
// session's), to be set again in the next Chromium (restoreCookies); none
// when they cannot be read.
func (b *Browser) sessionCookies() []*network.CookieParam {
	got, err := cdp.Call(b.ctx, chromedp.FromContext(b.ctx).Browser, storage.GetCookies, storage.GetCookiesParams{})
	if err != nil {
		return nil
	}
	var out []*network.CookieParam
	for _, c := range got.Cookies {
		p := &network.CookieParam{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.Path, Secure: c.Secure, HTTPOnly: c.HTTPOnly,
			SameSite: c.SameSite, Priority: c.Priority, SourceScheme: c.SourceScheme, SourcePort: c.SourcePort, PartitionKey: c.PartitionKey}
		if !c.Session && c.Expires > 0 && !math.IsInf(c.Expires, 0) {
			p.Expires = cdp.TimeSinceEpoch(c.Expires)
		}
		out = append(out, p)
	}
	return out
}

// restoreCookies sets the session's cookies in the browser's own context.
func (b *Browser) restoreCookies(cs []*network.CookieParam) error {
	if len(cs) == 0 {
		return nil
	}
	if _, err := cdp.Call(b.ctx, chromedp.FromContext(b.ctx).Browser, storage.SetCookies, storage.SetCookiesParams{Cookies: cs}); err != nil {
		return fmt.Errorf("restoring the session's cookies after restarting the browser: %w", err)
	}
	return nil
}
