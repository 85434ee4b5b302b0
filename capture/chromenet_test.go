package capture

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestRefusingProxy(t *testing.T) {
	p, err := newRefusingProxy()
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	for _, tc := range []struct{ name, request, want string }{
		{"connect", "CONNECT 127.0.0.1:6379 HTTP/1.1\r\nHost: 127.0.0.1:6379\r\n\r\n", "CONNECT 127.0.0.1:6379"},
		{"get", "GET http://169.254.169.254/latest/meta-data/ HTTP/1.1\r\nHost: 169.254.169.254\r\n\r\n", "GET http://169.254.169.254/latest/meta-data/"},
		{"websocket", "GET ws://localhost:8080/ws HTTP/1.1\r\nHost: localhost:8080\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n", "GET ws://localhost:8080/ws"},
		{"garbage", "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", "(a connection without a request)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := net.Dial("tcp", p.addr())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			io.WriteString(c, tc.request)
			status, err := bufio.NewReader(c).ReadString('\n')
			if err != nil || !strings.HasPrefix(status, "HTTP/1.1 403 ") {
				t.Errorf("answer %q, %v; want a 403", status, err)
			}
			kept, _ := p.refusals()
			if len(kept) == 0 || kept[len(kept)-1] != tc.want {
				t.Errorf("refusals %q, want the last to be %q", kept, tc.want)
			}
		})
	}
}

func TestRefusingProxyKeepsABoundedLog(t *testing.T) {
	p := &refusingProxy{}
	for i := range maxRefusedKept + 7 {
		p.record(fmt.Sprint("GET http://x/", i))
	}
	kept, more := p.refusals()
	if len(kept) != maxRefusedKept || more != 7 {
		t.Errorf("kept %d and %d more, want %d and 7", len(kept), more, maxRefusedKept)
	}
}

// socketRecorder listens on one port of both loopback addresses
// (127.0.0.1 and [::1]), TCP and UDP, and records every connection it
// accepts and every datagram it gets: it is the internal service a page
// must not reach.
type socketRecorder struct {
	port string
	mu   sync.Mutex
	got  []string
}

func newSocketRecorder(t *testing.T) *socketRecorder {
	t.Helper()
	for range 20 {
		lns, port, err := listenBoth()
		if err != nil {
			continue
		}
		s := &socketRecorder{port: port}
		for _, l := range lns {
			t.Cleanup(func() { l.Close() })
			switch l := l.(type) {
			case net.Listener:
				go func() {
					for {
						c, err := l.Accept()
						if err != nil {
							return
						}
						s.note("TCP " + c.RemoteAddr().String())
						c.Close()
					}
				}()
			case net.PacketConn:
				go func() {
					buf := make([]byte, 1500)
					for {
						_, a, err := l.ReadFrom(buf)
						if err != nil {
							return
						}
						s.note("UDP " + a.String())
					}
				}()
			}
		}
		return s
	}
	t.Skip("no port free on 127.0.0.1 and [::1], TCP and UDP")
	return nil
}

// listenBoth listens on one port of 127.0.0.1 and [::1], TCP and UDP.
func listenBoth() ([]io.Closer, string, error) {
	l4, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		return nil, "", err
	}
	_, port, _ := net.SplitHostPort(l4.Addr().String())
	out := []io.Closer{l4}
	for _, l := range []struct{ network, addr string }{{"tcp6", "[::1]"}, {"udp4", "127.0.0.1"}, {"udp6", "[::1]"}} {
		var c io.Closer
		if strings.HasPrefix(l.network, "tcp") {
			c, err = net.Listen(l.network, l.addr+":"+port)
		} else {
			c, err = net.ListenPacket(l.network, l.addr+":"+port)
		}
		if err != nil {
			for _, c := range out {
				c.Close()
			}
			return nil, "", err
		}
		out = append(out, c)
	}
	return out, port, nil
}

func (s *socketRecorder) note(what string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.got = append(s.got, what)
}

func (s *socketRecorder) connections() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.got...)
}

// socketPages are pages that make the browser reach port {B} in every way
// a page can (issue 27): speculative connects, WebSockets, frames of other
// sites, workers, navigations. {B} is the port.
var socketPages = map[string]string{
	"/p": `<!doctype html><title>Sockets</title>
<link rel=preconnect href="http://127.0.0.1:{B}/">
<link rel=preconnect href="https://127.0.0.1:{B}/">
<link rel=dns-prefetch href="http://webcap-inner.example:{B}/">
<link rel=prefetch href="http://127.0.0.1:{B}/prefetch">
<link rel=prerender href="http://127.0.0.1:{B}/prerender">
<link rel=modulepreload href="http://127.0.0.1:{B}/mod.js">
<p>Outer page.</p>
<iframe src="http://127.0.0.1:{B}/f1"></iframe>
<iframe src="http://localhost:{B}/f2"></iframe>
<iframe src="http://[::1]:{B}/f3"></iframe>
<iframe src="/framed"></iframe>
<video src="http://127.0.0.1:{B}/video.webm" autoplay muted></video>
<object data="http://127.0.0.1:{B}/object.html"></object>
<script>
try { new WebSocket("ws://127.0.0.1:{B}/ws"); } catch (e) {}
try { new WebSocket("wss://localhost:{B}/wss"); } catch (e) {}
fetch("http://127.0.0.1:{B}/fetch").catch(() => {});
try { const x = new XMLHttpRequest(); x.open("GET", "http://[::1]:{B}/xhr"); x.send(); } catch (e) {}
try { navigator.sendBeacon("http://127.0.0.1:{B}/beacon", "x"); } catch (e) {}
try { new Worker("/worker.js"); } catch (e) {}
try { new SharedWorker("/shared.js"); } catch (e) {}
try { window.open("http://127.0.0.1:{B}/popup"); } catch (e) {}
try { new EventSource("http://127.0.0.1:{B}/events"); } catch (e) {}
try { new WebTransport("https://127.0.0.1:{B}/wt"); } catch (e) {}
for (const url of ["stun:127.0.0.1:{B}", "turn:127.0.0.1:{B}?transport=udp", "turn:[::1]:{B}?transport=tcp"]) {
	try {
		const pc = new RTCPeerConnection({iceServers: [{urls: url, username: "u", credential: "p"}]});
		pc.createDataChannel("x");
		pc.createOffer().then(o => pc.setLocalDescription(o)).catch(() => {});
	} catch (e) {}
}
</script>`,
	"/framed":    `<!doctype html><title>Framed</title><p>A frame.</p><img src="http://127.0.0.1:{B}/in-frame.gif">`,
	"/worker.js": `fetch("http://127.0.0.1:{B}/worker").catch(() => {}); try { new WebSocket("ws://127.0.0.1:{B}/worker-ws"); } catch (e) {}`,
	"/shared.js": `fetch("http://127.0.0.1:{B}/shared").catch(() => {});`,
	"/meta":      `<!doctype html><title>Meta</title><meta http-equiv=refresh content="0; url=http://127.0.0.1:{B}/meta"><p>Meta refresh.</p>`,
	"/script":    `<!doctype html><title>Script</title><p>Script navigation.</p><script>location = "http://localhost:{B}/script";</script>`,
	"/form":      `<!doctype html><title>Form</title><form method=post action="http://127.0.0.1:{B}/form"><input name=a value=b></form><script>document.forms[0].submit();</script>`,
}

// onlyHost is a client that fetches from host (host:port) only, as the
// guard of a capture limited to its site does.
func onlyHost(host string) *http.Client {
	return &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		if r.URL.Host != host {
			return nil, fmt.Errorf("%s: not the site's host", r.URL.Host)
		}
		return http.DefaultTransport.RoundTrip(r)
	})}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestBrowserOwnSockets renders pages that try to reach another loopback
// port by every socket of the browser's own: none reaches it, and what
// went around interception was refused by the browser's proxy.
func TestBrowserOwnSockets(t *testing.T) {
	b := newBrowser(t)
	inner := newSocketRecorder(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page, ok := socketPages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		ct := "text/html; charset=utf-8"
		if strings.HasSuffix(r.URL.Path, ".js") {
			ct = "text/javascript"
		}
		w.Header().Set("Content-Type", ct)
		io.WriteString(w, strings.ReplaceAll(page, "{B}", inner.port))
	}))
	defer srv.Close()
	client := onlyHost(strings.TrimPrefix(srv.URL, "http://"))
	for _, path := range []string{"/p", "/meta", "/script", "/form"} {
		t.Run(strings.TrimPrefix(path, "/"), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			_, err := b.Render(ctx, srv.URL+path, RenderOptions{Client: client, IdleQuiet: 300 * time.Millisecond})
			if err != nil {
				t.Logf("render: %v", err) // a navigation refused may fail the page: what matters is below
			}
			if got := inner.connections(); len(got) > 0 {
				t.Errorf("the internal service got %d connections or datagrams: %q", len(got), got)
			}
		})
	}
	// What went around interception to the proxy: WebSockets and
	// preconnects (CONNECT), and the shared worker's fetch (a target of
	// its own). Any other request would be a frame or a worker whose
	// requests interception does not see.
	kept, _ := b.RefusedRequests()
	t.Logf("refused by the browser's proxy: %q", kept)
	for _, r := range kept {
		if strings.Contains(r, ":"+inner.port) && !strings.HasPrefix(r, "CONNECT ") && !strings.HasSuffix(r, "/shared") {
			t.Errorf("went around interception: %s", r)
		}
	}
}

// TestBrowserCrossSiteFrame renders a page with a frame of another site
// that loads an image and fetches: the frame's requests are the page's,
// fetched by webcap's client (they would go, in a process of the frame's
// own, around interception to the browser's proxy, which refuses them).
func TestBrowserCrossSiteFrame(t *testing.T) {
	b := newBrowser(t)
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/frame.html":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<!doctype html><p>Frame.</p><img src="/in-frame.gif"><script>fetch("/api").catch(() => {});</script>`)
		case "/in-frame.gif":
			w.Header().Set("Content-Type", "image/gif")
			w.Write(gif)
		default:
			io.WriteString(w, "{}")
		}
	}))
	defer other.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(other.URL, "http://"))
	frame := "http://localhost:" + port + "/frame.html" // another site than 127.0.0.1
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<!doctype html><title>Outer</title><iframe src="`+frame+`"></iframe>`)
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p, err := b.Render(ctx, srv.URL+"/", RenderOptions{Client: NewClient(AddressPolicy{Allow: Loopback}, 10*time.Second), IdleQuiet: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	fetched := map[string]bool{}
	for _, r := range p.Responses {
		if r.Usable() {
			fetched[strings.TrimPrefix(r.URL, "http://localhost:"+port)] = true
		}
	}
	for _, want := range []string{"/frame.html", "/in-frame.gif", "/api"} {
		if !fetched[want] {
			t.Errorf("the frame's %s was not fetched by webcap: responses %v", want, fetched)
		}
	}
	if kept, _ := b.RefusedRequests(); slices.ContainsFunc(kept, func(s string) bool { return strings.Contains(s, ":"+port) }) {
		t.Errorf("the frame's requests went around interception: %q", kept)
	}
}

// TestBrowserWorkers renders a page whose worker fetches: the worker's
// request is fetched by webcap's client. A shared worker, a target of its
// own that interception does not see, has its request refused by the
// browser's proxy.
func TestBrowserWorkers(t *testing.T) {
	b := newBrowser(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<!doctype html><title>Workers</title><p id=out></p><script>
const w = new Worker("/w.js"); w.onmessage = e => { document.getElementById("out").textContent = e.data; };
try { new SharedWorker("/s.js"); } catch (e) {}
</script>`)
		case "/w.js", "/s.js":
			w.Header().Set("Content-Type", "text/javascript")
			io.WriteString(w, `fetch("/from`+strings.TrimSuffix(r.URL.Path, ".js")+`").then(r => r.text()).then(t => postMessage(t)).catch(() => {});`)
		default:
			io.WriteString(w, "worker-fetched")
		}
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p, err := b.Render(ctx, srv.URL+"/", RenderOptions{Client: NewClient(AddressPolicy{Allow: Loopback}, 10*time.Second), IdleQuiet: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	fetched := map[string]bool{}
	for _, r := range p.Responses {
		fetched[strings.TrimPrefix(r.URL, srv.URL)] = r.Usable()
	}
	if !fetched["/from/w"] {
		t.Errorf("the worker's fetch was not fetched by webcap: %v", fetched)
	}
	if kept, _ := b.RefusedRequests(); !slices.Contains(kept, "GET "+srv.URL+"/from/s") {
		t.Errorf("the shared worker's fetch was not refused by the browser's proxy: %q", kept)
	}
}

// TestBrowserHTTPS renders an https page through interception: Chromium,
// whose every connection goes to the refusing proxy, makes none of its
// own to the server, and the page and its image are what webcap fetched.
func TestBrowserHTTPS(t *testing.T) {
	b := newBrowser(t)
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<!doctype html><title>Secure</title><p>Secure.</p><img src="/logo.gif">`)
		default:
			w.Header().Set("Content-Type", "image/gif")
			w.Write(gif)
		}
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p, err := b.Render(ctx, srv.URL+"/", RenderOptions{Client: srv.Client(), IdleQuiet: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if p.Title != "Secure" || p.URL != srv.URL+"/" || len(p.Responses) != 2 || !p.Responses[1].Usable() {
		t.Errorf("title %q, URL %s, %d responses; want Secure, %s/, the page and its image", p.Title, p.URL, len(p.Responses), srv.URL)
	}
}
