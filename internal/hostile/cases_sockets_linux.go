//go:build linux

package hostile

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/webcap/webcap/internal/sockettest"
)

// The browser's own sockets (issue 27, item 2): a capture of a loopback
// site limited to it (--same-site) whose pages try to reach another
// loopback port (an "internal service", listening on 127.0.0.1 and [::1])
// by every socket Chromium opens besides the requests webcap serves:
// preconnects (http and https), DNS prefetch, WebSockets (ws and wss),
// frames of other sites (127.0.0.1, localhost, [::1]), a frame's image,
// fetch, XHR, sendBeacon, a worker and a shared worker, prefetch,
// prerender and modulepreload links, WebRTC's STUN and TURN (UDP and
// TCP), a popup, EventSource, WebTransport, a video, an object,
// and navigations by meta refresh,
// script and form; as root, a preconnect to the cloud metadata address
// too, the whole case then running in a network namespace of its own
// that has only loopback. The verdict is the internal service's count of
// connections and datagrams (none) and strace's record of every
// connect(): only to the site's port, to the browser's proxy (its port
// read from Chromium's command line), or a UDP connect to an address
// Chromium probes routes by (which sends nothing).

// socketSite is the site and the internal service of a sockets case.
type socketSite struct {
	ns      *netns // nil: none could be made (not root), the metadata vector left out
	site    *http.Server
	siteURL string
	inner   *sockettest.Recorder // TCP and UDP, on 127.0.0.1 and [::1]

	mu      sync.Mutex
	hostile bool // serve sockettest's pages; before, plain pages (what refresh's PDF is made of)
}

// publicSite is the site's address when it is public: an address of
// TEST-NET-1 (RFC 5737), given to the namespace's loopback interface,
// which the guard counts as public (so no --allow-private is needed, and
// loopback stays refused).
const publicSite = "192.0.2.1"

// newSocketSite starts the site and the internal service, in a network
// namespace of their own when one can be made. The site is on 127.0.0.1,
// or on publicSite when public, which needs the namespace.
func newSocketSite(public bool) (*socketSite, error) {
	s := &socketSite{}
	ns, err := newNetns()
	switch {
	case err != nil && public:
		return nil, fmt.Errorf("%w: a site on a public address needs a network namespace of its own (run as root): %v", ErrSkip, err)
	case err != nil:
		fmt.Fprintf(os.Stderr, "sockets: no network namespace (%v): the cloud metadata vector is left out\n", err)
		return s, s.listen("127.0.0.1")
	}
	s.ns = ns
	err = ns.do(func() error {
		if !public {
			return s.listen("127.0.0.1")
		}
		if out, err := exec.Command("ip", "addr", "add", publicSite+"/32", "dev", "lo").CombinedOutput(); err != nil {
			return fmt.Errorf("ip addr add %s: %v: %s", publicSite, err, out)
		}
		return s.listen(publicSite)
	})
	if err != nil {
		ns.close()
		return nil, err
	}
	return s, nil
}

// listen starts the internal service and the site, on host.
func (s *socketSite) listen(host string) error {
	inner, err := sockettest.Listen()
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp4", host+":0")
	if err != nil {
		inner.Close()
		return err
	}
	s.inner = inner
	s.siteURL = "http://" + ln.Addr().String()
	s.site = &http.Server{Handler: http.HandlerFunc(s.serve)}
	go s.site.Serve(ln)
	return nil
}

func (s *socketSite) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	hostile := s.hostile
	s.mu.Unlock()
	metadata := ""
	if s.ns != nil {
		metadata = sockettest.MetadataVector
	}
	page, ct, ok := sockettest.Page(r.URL.Path, s.inner.Port(), metadata)
	if !ok {
		http.NotFound(w, r)
		return
	}
	if !hostile && !sockettest.Script(r.URL.Path) {
		page = "<!doctype html><title>Plain</title><p>A plain page.</p>"
	}
	w.Header().Set("Content-Type", ct)
	io.WriteString(w, page)
}

func (s *socketSite) close() {
	s.site.Close()
	s.inner.Close()
	s.ns.close()
}

// urls are the start URLs.
func (s *socketSite) urls() []string {
	var out []string
	for _, p := range sockettest.Paths {
		out = append(out, s.siteURL+p)
	}
	return out
}

// wrap is the command webcap runs under: strace, recording every
// connect() and Chromium's command line to dir/strace.out, in the
// namespace when there is one.
func (s *socketSite) wrap(dir string) []string {
	var w []string
	if s.ns != nil {
		w = []string{"nsenter", "--net=" + s.ns.path, "--"}
	}
	return append(w, "strace", "-f", "-qq", "-yy", "-s", "512", "-e", "trace=connect,execve", "-o", filepath.Join(dir, "strace.out"), "--")
}

// untouched is the verdict: the internal service got no connection, and
// strace saw no connect() but to the site, the browser's proxy and
// Chromium's IPv6 probe.
func (s *socketSite) untouched(dir string) error {
	got := s.inner.Got()
	var errs []error
	if len(got) > 0 {
		errs = append(errs, fmt.Errorf("the internal service got %d connections or datagrams: %q", len(got), got))
	}
	b, err := os.ReadFile(filepath.Join(dir, "strace.out"))
	if err == nil {
		site, sitePort, _ := strings.Cut(strings.TrimPrefix(s.siteURL, "http://"), ":")
		err = connectsOnly(string(b), site, sitePort)
	}
	return errors.Join(append(errs, err)...)
}

var (
	proxyRE   = regexp.MustCompile(`--proxy-server=http://127\.0\.0\.1:(\d+)`)
	connectRE = regexp.MustCompile(`connect\(\d+(?:<([A-Za-z0-9]+):[^>]*>)?, \{sa_family=(AF_[A-Z0-9]+)(.*)`)
	portRE    = regexp.MustCompile(`sin6?_port=htons\((\d+)\)`)
	addrRE    = regexp.MustCompile(`inet_addr\("([^"]+)"\)|inet_pton\(AF_INET6, "([^"]+)"`)
)

// probes are the addresses Chromium connects a UDP socket to, sending
// nothing, to learn whether IPv6 is reachable and, for WebRTC, which local
// address routes out (Google's public DNS): public addresses, which the
// guard never refuses.
var probes = map[string]bool{"2001:4860:4860::8888": true, "8.8.8.8": true}

// connectsOnly checks strace's record: every connect() of an Internet
// socket is to the site (site:sitePort) or to the browser's proxy
// (127.0.0.1 at a port Chromium was started with), or a UDP connect to
// one of probes. The others are counted by address.
func connectsOnly(trace, site, sitePort string) error {
	allowed := map[string]bool{net.JoinHostPort(site, sitePort): true}
	for _, m := range proxyRE.FindAllStringSubmatch(trace, -1) {
		allowed["127.0.0.1:"+m[1]] = true
	}
	var errs []error
	if len(allowed) < 2 {
		errs = append(errs, fmt.Errorf("strace.out shows no Chromium started with webcap's proxy (--proxy-server)"))
	}
	elsewhere := map[string]int{}
	var order []string
	n := 0
	for _, line := range strings.Split(trace, "\n") {
		m := connectRE.FindStringSubmatch(line)
		if m == nil || (m[2] != "AF_INET" && m[2] != "AF_INET6") {
			continue
		}
		n++
		to := line
		if port, addr := portRE.FindStringSubmatch(m[3]), addrRE.FindStringSubmatch(m[3]); port != nil && addr != nil {
			to = net.JoinHostPort(addr[1]+addr[2], port[1])
			if allowed[to] || strings.HasPrefix(m[1], "UDP") && probes[addr[1]+addr[2]] {
				continue
			}
		}
		if elsewhere[to] == 0 {
			order = append(order, to)
		}
		elsewhere[to]++
	}
	if n == 0 {
		errs = append(errs, fmt.Errorf("strace.out shows no connect() at all: it recorded nothing"))
	}
	if len(order) > 0 {
		var list []string
		bad := 0
		for _, to := range order {
			list = append(list, fmt.Sprintf("%s ×%d", to, elsewhere[to]))
			bad += elsewhere[to]
		}
		errs = append(errs, fmt.Errorf("%d of %d connect() calls go elsewhere than the site (%s) and the browser's proxy: %s", bad, n, net.JoinHostPort(site, sitePort), strings.Join(list, ", ")))
	}
	return errors.Join(errs...)
}

// A netns is a network namespace with only loopback, held by a thread of
// this process: a listener made in it (do) is in the namespace, and a
// command run under "nsenter --net=PATH" joins it.
type netns struct {
	path string
	run  chan func()
	done chan struct{}
}

// newNetns makes a namespace; it needs root (CAP_SYS_ADMIN).
func newNetns() (*netns, error) {
	ns := &netns{run: make(chan func()), done: make(chan struct{})}
	errc := make(chan error, 1)
	go func() {
		// Never unlocked: the thread, which is in the namespace, ends
		// with this goroutine.
		runtime.LockOSThread()
		if err := syscall.Unshare(syscall.CLONE_NEWNET); err != nil {
			errc <- fmt.Errorf("unshare: %w", err)
			return
		}
		// A command started here is in the thread's namespace. Besides
		// loopback, a pair of virtual interfaces that lead nowhere but
		// to each other, with an address of TEST-NET-2 (RFC 5737):
		// WebRTC gathers nothing on a machine without an interface but
		// loopback, so its vectors would show nothing.
		for _, args := range [][]string{
			{"link", "set", "lo", "up"},
			{"link", "add", "wc0", "type", "veth", "peer", "name", "wc1"},
			{"addr", "add", "198.51.100.1/24", "dev", "wc0"},
			{"link", "set", "wc0", "up"},
			{"link", "set", "wc1", "up"},
		} {
			if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
				errc <- fmt.Errorf("ip %s: %v: %s", strings.Join(args, " "), err, out)
				return
			}
		}
		ns.path = fmt.Sprintf("/proc/%d/task/%d/ns/net", os.Getpid(), syscall.Gettid())
		errc <- nil
		for {
			select {
			case f := <-ns.run:
				f()
			case <-ns.done:
				return
			}
		}
	}()
	if err := <-errc; err != nil {
		return nil, err
	}
	return ns, nil
}

// do runs f on the namespace's thread.
func (ns *netns) do(f func() error) error {
	errc := make(chan error, 1)
	ns.run <- func() { errc <- f() }
	return <-errc
}

func (ns *netns) close() {
	if ns != nil {
		close(ns.done)
	}
}

// command is name with args, run in the namespace when there is one.
func (s *socketSite) command(name string, args ...string) *exec.Cmd {
	if s.ns == nil {
		return exec.Command(name, args...)
	}
	return exec.Command("nsenter", append([]string{"--net=" + s.ns.path, "--", name}, args...)...)
}

// socketCase is a sockets case: args (the site's start URLs appended
// when urls) is webcap's command; before, when set, runs in dir first,
// with the site still plain. The site is on a public address when
// public.
func socketCase(c Case, public, urls bool, before []string, args ...string) Case {
	var s *socketSite
	c.Part, c.Browser, c.Needs = Scope, true, []string{"strace"}
	c.Setup = func(dir string) ([]string, func(), error) {
		var err error
		if s, err = newSocketSite(public); err != nil {
			return nil, nil, err
		}
		if before != nil {
			cmd := s.command("webcap", append(before, s.urls()...)...)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				s.close()
				return nil, nil, fmt.Errorf("webcap %s: %v\n%s", strings.Join(before, " "), err, out)
			}
		}
		s.mu.Lock()
		s.hostile = true
		s.mu.Unlock()
		a := append([]string(nil), args...)
		if urls {
			a = append(a, s.urls()...)
		}
		return a, s.close, nil
	}
	c.Wrap = func(dir string) []string { return s.wrap(dir) }
	c.Check = func(dir string) error { return s.untouched(dir) }
	return c
}

func init() {
	Register(
		socketCase(Case{
			Name:   "browser-sockets-capture",
			Exit:   0,
			MaxCPU: 60 * time.Second,
			Before: "exit 0, 8.0 s CPU, 229 MB; the internal service got 16 connections (6 TLS ClientHellos: the https preconnect, wss; the others from the frames to 127.0.0.1, localhost and [::1], the navigations, the http preconnect) and 10 WebRTC datagrams (12 in another run); strace (in a network namespace): 96 of 109 connect() calls elsewhere than the site: 78 DNS queries to the resolver (10.255.255.53:53), 16 to the internal service, 2 to 169.254.169.254:80",
		}, false, true, nil, "capture", "--same-site", "--json", "-o", "out.pdf"),
		// The PDF, captured while the site was plain, is refreshed once
		// its pages are hostile; the site is on a public address so that
		// refresh needs no --allow-private (which would let webcap's own
		// client fetch loopback), and loopback stays refused.
		socketCase(Case{
			Name:   "browser-sockets-refresh",
			MaxCPU: 60 * time.Second,
			Before: "exit 0, 8.7 s CPU, 230 MB; the internal service got 18 connections (6 TLS ClientHellos) and 11 WebRTC datagrams; strace (in a network namespace): 98 of 114 connect() calls elsewhere than the site: 78 DNS queries to the resolver (10.255.255.53:53), 18 to the internal service, 2 to 169.254.169.254:80",
		}, true, false, []string{"capture", "--same-site", "-o", "in.pdf"}, "refresh", "--json", "-o", "out.pdf", "in.pdf"),
	)
}
