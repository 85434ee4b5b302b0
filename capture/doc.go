// Package capture fetches web pages for Web Capture (PDF 1.7 §10.9, ISO
// 32000-1 §14.10): Capture and Append crawl from start URLs, render each
// page with headless Chromium (Browser), join the printed pages and write a
// page set per fetched resource, with its identifier, source information
// and command; Refresh re-runs a file's commands and replaces what changed.
//
// Usage:
//
//	exe, _ := capture.FindChromium("")
//	b, err := capture.NewBrowser(ctx, exe, capture.BrowserOptions{})
//	...
//	defer b.Close()
//	res, err := capture.Capture(ctx, b, []string{"https://example.com/"}, capture.Options{Levels: 2})
//	// res.PDF is the capture; res.Skips says what was not captured, and why.
//
// # Decisions
//
// Identifiers are computed from exactly the bytes the server sent. Every
// request the browser makes is paused (the DevTools Fetch domain), fetched
// by Go, and fulfilled with those bytes; only whole 200 answers are
// identifier material. The browser's cache is off and service workers are
// bypassed, and the validators a browser may still add (If-None-Match,
// If-Modified-Since, If-Match, If-Unmodified-Since, If-Range, Range) are
// never forwarded: a 304 or 206 that still arrives is an error for that
// resource, which is then fetched whole for the identifier.
//
// One fetched resource is one content set. A URL that redirects (3xx) to a
// page captured already, or that a page reached by redirection, joins that
// page: its source's URL alias dictionary holds every redirect chain, and
// every URL of every chain is a URLS key of the set, so a lookup by any of
// them finds it (PDF 1.7 §10.9.4, Table 10.42; ISO 32000-1 Table 356). The crawl handles rendered pages in
// queue order, so the result does not depend on timing.
//
// A URL that answers a PDF file is captured as the file's own pages, as
// Acrobat did, not as the browser's PDF viewer (pdfpage.go); a file whose
// pages cannot be copied within pdfio's bounds is a skip of kind SkipPDF.
//
// A page is printed once it is done, the way Browsertrix and Gotenberg
// wait: its load event; its lazy content (loading="lazy" made eager, and
// the page scrolled through a screen at a time for scripts that load what
// comes into view); no request for RenderOptions.IdleQuiet (500 ms), at
// most IdleMax (10 s), or for 50 ms on a still page, in which nothing can
// start a request once it is loaded (no script, handler, refresh, media,
// animation or prefetch, in it or its frames); then its fonts and images.
// It is printed with CSS media "print" (or "screen"), on US Letter with
// 1 cm margins and backgrounds. Every such choice is recorded in the command's settings
// dictionary (/S: /G for any engine, /C under Chromium's engine name), as
// Acrobat records its conversion settings.
//
// Chromium runs with its sandbox unless webcap runs as root (Browser.Notes
// says so), is restarted every BrowserOptions.RestartEvery pages (200) so a
// long crawl's memory stays bounded, and a tab is replaced after 50 pages.
// Chromium itself reaches nothing (chromenet.go): every request of a page
// and of its frames is paused and fetched by webcap's guarded client, and
// every socket of Chromium's own (a preconnect, a WebSocket, a shared
// worker's request, its component updater) goes to a proxy of webcap's
// that refuses it; it resolves no name, sends no WebRTC UDP, and renders
// every frame in the page's process so that interception sees its
// requests.
//
// A crawl's memory is bounded wherever a page can make it grow (memory.go,
// frontierlimit.go): a response of at most 64 MiB (Browser.MaxBytes; one
// that declares more is not read), and all the responses the pages being
// rendered hold at once at most 256 MiB (Browser.MaxInFlight: a response
// that finds none left fails at once, rather than wait for others that
// wait too); a page's first 1,000 links (Options.MaxLinks), and a queue no
// longer than the pages left to take can use; V8's heap half of
// BrowserOptions.Memory (2 GiB), and Chromium's processes all of it,
// watched: the renderer of the page past it is killed, the page skipped
// (BrowserMemoryError), and the crawl goes on. A page whose renderer
// crashes ends at once, not at its time limit. Pages are copied into the
// file as the crawl takes them, so that a capture stopped early (its
// context done) has little left to write; what is left (the structures,
// the internal links, the result read back) continues the update the
// pages were copied with (pdfio's Update.Continue) and parses nothing it
// wrote. That write holds some four times what the crawl held of the
// pages; Options.WriteBound bounds it as the context bounds the crawl: a
// write past it is done again with the first half of the pages until
// what is written fits, the others skipped (SkipMemoryLimit).
//
// What a crawl may reach is bounded (netguard.go): only http and https, and
// only public addresses unless the capture's own start URLs are loopback or
// private ones (the user asked for them) or Options.Allow says so; the
// address is checked when the connection is made, after DNS and for every
// redirect. A command limited to its site or path (SameSite, SamePath) is
// allowed its start URL's kind of address at that host only
// (StartPolicy), for its pages and their subresources alike: an image, a
// frame or a script's fetch() on a page of http://127.0.0.1:8080/ does
// not reach 127.0.0.1:6379. A page's own loads are judged as links are,
// at every hop (scope.go, mayLead): a redirect, or a page load its script
// starts, that leads out of the command's scope or to what robots.txt
// forbids is refused before anything is fetched from there, and the page
// is skipped, saying where it led (LeaveError); only a start URL's own
// redirects may leave the scope. A robots.txt takes at most the page time
// limit; one that cannot be read (a 5xx, a network error, a body cut
// short, the time limit) forbids its whole origin (RFC 9309 §2.3.1.4),
// and the skip says so (Robots.Check, RobotsError). Refresh replays URLs from a file that may come from anyone: it
// allows only Options.Allow, resubmits a form only with
// RefreshOptions.Resubmit, and sends nothing but GET and HEAD requests
// from a page's scripts either without it (a script's POST is answered
// in the browser by an empty 204 and named, RefreshResult.Unsent); a dry
// run sends nothing but GET and HEAD at all. A capture sends what the
// page's scripts send, as a visitor's browser does. Credentials in a URL go to its
// host only (the browser's rule) and are written into the PDF only with
// Options.KeepCredentials: without it, they are left out of the recorded
// URLs, and out of the page's links before it is printed (Chromium would
// write them into the link annotations). A WARC (WriteWARC) has its own
// rule, WARCInfo.KeepCredentials: without it, its URLs have no user
// information and the Cookie, Authorization, Proxy-Authorization and
// Set-Cookie fields of its HTTP messages are redacted.
//
// A WARC also records the TLS facts of each HTTPS origin: after the first
// answer received over a connection whose TLS state is new for its origin
// (version, cipher suite, ALPN, server name, certificates), two metadata
// records with WARC-Concurrent-To that answer's response: its facts as
// application/warc-fields ("tls-version: TLS 1.3", tls-cipher-suite,
// tls-server-name, tls-alpn, tls-certificates, one tls-certificate-sha256
// per certificate), and the server's certificates as application/x-pem-file
// (a PEM block cannot be a warc-fields value), WARC-Refers-To the facts.
// At most 10 certificates and 64 KiB of them are recorded, whatever the
// server presents; tls-certificates-omitted counts the others (warctls.go).
//
// An auxiliary file that cannot or must not be fetched (another scheme, a
// refused address, an error status, or not arrived within half the page's
// time: RenderOptions.ResourceTimeout) does not stop the crawl: the page's
// identifier covers the files fetched (see package webcapture, "Digital
// identifiers"), and Page.Missing names the others. A failure says its
// cause (FetchError: refused, DNS, TLS, time-out, an HTTP status), so that
// refresh can tell gone (404, 410) from unreachable.
package capture
