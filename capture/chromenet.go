// Chromium's own network: none.
//
// Every request a page makes is paused by request interception and served
// by webcap's guarded client (Browser.fetch). But Chromium also opens
// sockets of its own that interception never sees: speculative connects
// (<link rel=preconnect>, DNS prefetch), WebSockets, frames rendered in
// another process, workers. Each of them could reach an address the
// guard refuses (127.0.0.1:6379, 169.254.169.254). So Chromium is given a
// network that reaches nothing: every connection it makes goes to a proxy
// of webcap's (refusingProxy), a listener on the loopback interface that
// answers every request with 403 and records it; loopback is not
// bypassed; its resolver resolves nothing (so a host name costs no DNS
// query); QUIC, whose UDP the proxy would not carry, is off, and so is
// WebRTC's UDP (STUN and TURN to any address a page names); and every
// frame runs in the page's own process, so that interception sees its
// requests.

package capture

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/chromedp/chromedp"
)

// networkFlags starts the browser's proxy (b.proxy), when it is not
// running, and returns the flags that send every connection of Chromium's
// there.
func (b *Browser) networkFlags() ([]chromedp.ExecAllocatorOption, error) {
	if b.proxy == nil {
		p, err := newRefusingProxy()
		if err != nil {
			return nil, err
		}
		b.proxy = p
	}
	return []chromedp.ExecAllocatorOption{
		// Every scheme, WebSockets included, goes through the proxy, and
		// nothing bypasses it: Chromium bypasses loopback addresses
		// (localhost, 127.0.0.1, [::1]) implicitly, which <-loopback>
		// undoes.
		chromedp.ProxyServer("http://" + b.proxy.addr()),
		chromedp.Flag("proxy-bypass-list", "<-loopback>"),
		// No name is resolved (the proxy, an address, needs none): a DNS
		// prefetch or a preconnect to a name sends no query.
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"),
		chromedp.Flag("disable-quic", true),
		// WebRTC sends UDP (STUN, TURN) to any address a page names,
		// around the proxy: only what it can send through the proxy
		// (TURN over TCP, which the proxy refuses) is left it.
		chromedp.Flag("webrtc-ip-handling-policy", "disable_non_proxied_udp"),
		chromedp.Flag("dns-prefetch-disable", true),
		chromedp.Flag("no-pings", true),
		chromedp.Flag("disable-domain-reliability", true),
		// One process for every frame: the page target's interception
		// then sees the requests of its cross-site frames, which would
		// otherwise be rendered, and fetched, in processes of their own.
		chromedp.Flag("disable-site-isolation-trials", true),
		// RenderDocument (a new frame in the renderer for each document
		// the tab shows) is off: a page and the blank page after it are
		// two documents, and the frames cost 6-8% of a capture's CPU
		// (bench/capture-cpu.sh; the peer, given the same flag, 6%).
		// The omnibox's popup, a WebUI page (chrome://omnibox-popup) that
		// headless Chromium loads in a renderer of its own for every
		// window, whatever no one sees, is off too: a tab in a browser
		// context of its own is a second window, and the two popups'
		// renderers were a fifth of a capture's CPU (bench/README.md).
		chromedp.Flag("disable-features", "IsolateOrigins,site-per-process,NetworkPrediction,SpeculationRulesPrefetchFuture,Prerender2,RenderDocument,WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup"),
	}, nil
}

// RefusedRequests are the requests Chromium made around request
// interception, each as "CONNECT host:port" or "GET URL", which its proxy
// refused, in the order they came (at most maxRefusedKept; then the count
// of the others). They are what a page tried through a socket of the
// browser's own (a WebSocket, a preconnect): nothing of them was fetched.
func (b *Browser) RefusedRequests() (kept []string, more int) {
	if b.proxy == nil {
		return nil, 0
	}
	return b.proxy.refusals()
}

// maxRefusedKept bounds the refusals a proxy keeps.
const maxRefusedKept = 100

// A refusingProxy is an HTTP proxy that refuses every request: a CONNECT
// and a plain request alike get 403 and the connection is closed. It
// records what it refused. It runs until closed.
type refusingProxy struct {
	ln   net.Listener
	wg   sync.WaitGroup
	sem  chan struct{} // bounds the connections being answered
	mu   sync.Mutex
	kept []string
	more int
}

// The proxy's bounds: how many connections it answers at once (others
// are closed unanswered), how long it waits for a request, and how large
// a request's head may be.
const (
	proxyConns      = 32
	proxyReadTime   = 5 * time.Second
	proxyMaxRequest = 16 << 10
)

func newRefusingProxy() (*refusingProxy, error) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("starting the browser's proxy: %w", err)
	}
	p := &refusingProxy{ln: ln, sem: make(chan struct{}, proxyConns)}
	p.wg.Add(1)
	go p.serve()
	return p, nil
}

func (p *refusingProxy) addr() string { return p.ln.Addr().String() }

func (p *refusingProxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			// Closed, or out of descriptors: Chromium's connections are
			// then refused by the kernel, which is as safe.
			return
		}
		select {
		case p.sem <- struct{}{}:
		default:
			c.Close()
			p.record("(a connection beyond the proxy's limit)")
			continue
		}
		p.wg.Add(1)
		go func() {
			defer func() { <-p.sem; p.wg.Done() }()
			p.refuse(c)
		}()
	}
}

// refuse reads one request from c, answers 403 and closes c.
func (p *refusingProxy) refuse(c net.Conn) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(proxyReadTime))
	req, err := http.ReadRequest(bufio.NewReader(io.LimitReader(c, proxyMaxRequest)))
	switch {
	case err != nil:
		p.record("(a connection without a request)")
	case req.Method == http.MethodConnect:
		p.record("CONNECT " + req.Host)
	default:
		p.record(req.Method + " " + req.RequestURI)
	}
	io.WriteString(c, "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
}

func (p *refusingProxy) record(what string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.kept) < maxRefusedKept {
		p.kept = append(p.kept, what)
	} else {
		p.more++
	}
}

func (p *refusingProxy) refusals() ([]string, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.kept...), p.more
}

// close stops the proxy, if there is one, and waits for its connections
// to end.
func (p *refusingProxy) close() {
	if p == nil {
		return
	}
	p.ln.Close()
	p.wg.Wait()
}
