// Command cdppeer is the peer of webcap capture for issue 29's speed
// target: one headless Chromium driven over the DevTools protocol
// (chromedp) in one tab, as a script would print pages with the browser
// alone. For each URL, in order: navigate, wait for the load event,
// Page.printToPDF with webcap's print settings, write the bytes to
// DIR/NNN.pdf. Nothing is intercepted, nothing joined or recorded.
//
//	cdppeer -out DIR URL...
//
// Chromium runs with the flags webcap's launcher gives it on main
// (capture/browser.go start, memoryFlags, networkFlags), but for its
// proxy: the peer fetches the pages itself, so its connections go to the
// site directly. -extra adds flags (name or name=value, comma-separated),
// to measure what a flag buys the browser alone; disable-features=NAME
// adds NAME to the features disabled (once for each).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("cdppeer: ")
	out := flag.String("out", "", "the directory the PDFs are written to")
	exe := flag.String("chromium", "chromium", "the Chromium executable")
	extra := flag.String("extra", "", "more Chromium flags, comma-separated (name or name=value)")
	intercept := flag.Bool("intercept", false, "not the peer: fetch every request in Go and hand it to the browser (Fetch.fulfillRequest), as webcap does, to measure what that costs alone")
	blank := flag.Bool("blank", false, "not the peer: show about:blank between pages, as webcap does, to measure what that costs alone")
	ownContext := flag.Bool("context", false, "not the peer: render in a tab of a browser context of its own (a second window), as webcap does, to measure what that costs alone")
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		log.Fatal("usage: cdppeer -out DIR URL...")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(*exe), chromedp.Headless, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("js-flags", "--max-old-space-size=1024"),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("webrtc-ip-handling-policy", "disable_non_proxied_udp"),
		chromedp.Flag("dns-prefetch-disable", true),
		chromedp.Flag("no-pings", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("disable-site-isolation-trials", true),
	}
	disabled := "IsolateOrigins,site-per-process,NetworkPrediction,SpeculationRulesPrefetchFuture,Prerender2,RenderDocument,WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup"
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox)
	}
	for _, f := range strings.Split(*extra, ",") {
		if f = strings.TrimPrefix(strings.TrimSpace(f), "--"); f == "" {
			continue
		}
		name, value, ok := strings.Cut(f, "=")
		if name == "disable-features" {
			disabled += "," + value // one feature each time, added to the list
			continue
		}
		if ok {
			opts = append(opts, chromedp.Flag(name, value))
		} else {
			opts = append(opts, chromedp.Flag(name, true))
		}
	}
	opts = append(opts, chromedp.Flag("disable-features", disabled))
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer acancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	if *ownContext {
		if err := chromedp.Do(ctx); err != nil { // the browser, and its first tab
			log.Fatal(err)
		}
		ctx, cancel = chromedp.NewContext(ctx, chromedp.WithNewBrowserContext())
		defer cancel()
	}
	if *intercept {
		if err := chromedp.Do(ctx); err != nil {
			log.Fatal(err)
		}
		target := chromedp.FromContext(ctx).Target
		events := chromedp.Events(ctx, fetch.RequestPaused)
		if _, err := cdp.Call(ctx, target, fetch.Enable, fetch.EnableParams{}); err != nil {
			log.Fatal(err)
		}
		go func() {
			for ev, err := range events {
				if err != nil {
					return
				}
				go fulfill(ctx, target, ev)
			}
		}()
	}
	for i, u := range flag.Args() {
		if i > 0 && *blank {
			if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
				log.Fatal(err)
			}
		}
		if err := chromedp.Do(ctx, chromedp.Navigate(u)); err != nil {
			log.Fatalf("%s: %v", u, err)
		}
		pdf, err := chromedp.Run(ctx, chromedp.PrintToPDF(func(pp *page.PrintToPDFParams) {
			m := 0.3937
			pp.PaperWidth, pp.PaperHeight = 8.5, 11
			pp.MarginTop, pp.MarginBottom, pp.MarginLeft, pp.MarginRight = &m, &m, &m, &m
			t := true
			pp.PrintBackground = &t
		}))
		if err != nil {
			log.Fatalf("%s: %v", u, err)
		}
		if err := os.WriteFile(filepath.Join(*out, fmt.Sprintf("%03d.pdf", i)), pdf, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

// fulfill fetches a paused request with Go's client and hands the answer
// to the browser (-intercept).
func fulfill(ctx context.Context, target *chromedp.Target, ev fetch.EventRequestPaused) {
	req, err := http.NewRequestWithContext(ctx, ev.Request.Method, ev.Request.URL, nil)
	if err == nil {
		for k, v := range ev.Request.Headers {
			if s, ok := v.(string); ok && !strings.EqualFold(k, "Accept-Encoding") {
				req.Header.Set(k, s)
			}
		}
		var resp *http.Response
		if resp, err = http.DefaultClient.Do(req); err == nil {
			body, rerr := io.ReadAll(resp.Body)
			resp.Body.Close()
			if rerr == nil {
				var hs []*fetch.HeaderEntry
				for k, vs := range resp.Header {
					if !strings.EqualFold(k, "Content-Length") {
						for _, v := range vs {
							hs = append(hs, &fetch.HeaderEntry{Name: k, Value: v})
						}
					}
				}
				cdp.Call(ctx, target, fetch.FulfillRequest, fetch.FulfillRequestParams{RequestID: ev.RequestID, ResponseCode: int64(resp.StatusCode), ResponseHeaders: hs, Body: body})
				return
			}
		}
	}
	cdp.Call(ctx, target, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonFailed})
}
