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
	"testing"
	"time"

	"github.com/webcap/webcap/internal/sockettest"
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
	inner, err := sockettest.Listen()
	if err != nil {
		t.Skip(err)
	}
	defer inner.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The cloud metadata vector is the hostile suite's, in a network
		// namespace: here it would reach the machine's network.
		page, ct, ok := sockettest.Page(r.URL.Path, inner.Port(), "")
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", ct)
		io.WriteString(w, page)
	}))
	defer srv.Close()
	client := onlyHost(strings.TrimPrefix(srv.URL, "http://"))
	for _, path := range sockettest.Paths {
		t.Run(strings.TrimPrefix(path, "/"), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			_, err := b.Render(ctx, srv.URL+path, RenderOptions{Client: client, IdleQuiet: 300 * time.Millisecond})
			if err != nil {
				t.Logf("render: %v", err) // a navigation refused may fail the page: what matters is below
			}
			if got := inner.Got(); len(got) > 0 {
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
		if strings.Contains(r, ":"+inner.Port()) && !strings.HasPrefix(r, "CONNECT ") && !strings.HasSuffix(r, "/shared") {
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
