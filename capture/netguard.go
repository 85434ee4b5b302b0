// The address guard: which addresses webcap may connect to.
//
// webcap fetches URLs it did not choose. Refresh replays the commands
// stored in a PDF's /SpiderInfo, and that PDF may come from anyone; a page,
// once fetched, can link to, redirect to or load anything, and its name
// can resolve to any address, today or at the next lookup (DNS rebinding).
// Without a guard, a file sent by a stranger could make webcap reach this
// machine's own services (127.0.0.1:6379), its network's (a router's
// 192.168.1.1), or the cloud metadata service that hands out the
// machine's credentials (169.254.169.254), and record their answers in a
// PDF the stranger may get back: server-side request forgery.
//
// So every connection is checked where it is made: the dialer's Control
// function sees the address actually connected to, after DNS, for the
// first request and for every redirect, and refuses the classes of
// address (AddressClass) the policy does not allow. Public addresses are
// always allowed; a capture also allows the classes of its own start URLs,
// since the user asked for them (StartClasses).

package capture

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/webcap/webcap/webcapture"
	"golang.org/x/net/idna"
)

// An AddressClass is a set of kinds of IP address, as a bit set. Every
// address is of exactly one class (ClassifyAddr); a policy allows a set.
type AddressClass uint8

// The classes of address. The zero value, Public, is every address not of
// another class.
const (
	Loopback    AddressClass = 1 << iota // 127.0.0.0/8, ::1
	Private                              // 10/8, 172.16/12, 192.168/16, 100.64/10 (carrier-grade NAT), fc00::/7, fec0::/10
	LinkLocal                            // 169.254/16, fe80::/10
	Metadata                             // cloud metadata services: 169.254.169.254, 169.254.170.2, 100.100.100.200, fd00:ec2::254
	Unspecified                          // 0.0.0.0/8, :: (connecting to them reaches this machine)
	Multicast                            // 224/4, ff00::/8, and the broadcast address 255.255.255.255

	Public AddressClass = 0

	// NonPublic is every class but public: what AllowPrivateFlag is to
	// set Allow to.
	NonPublic = Loopback | Private | LinkLocal | Metadata | Unspecified | Multicast
)

// AllowPrivateFlag is the command-line flag a refusal (BlockedAddressError)
// names as the way to allow an address. The command line defines it; it
// allows NonPublic.
const AllowPrivateFlag = "--allow-private"

var classNames = []struct {
	c    AddressClass
	name string
}{
	{Loopback, "loopback"},
	{Private, "private"},
	{LinkLocal, "link-local"},
	{Metadata, "cloud metadata"},
	{Unspecified, "unspecified"},
	{Multicast, "multicast"},
}

// String names the class: "public", "loopback", "private", "link-local",
// "cloud metadata", "unspecified" or "multicast"; a set of several, its
// names joined by ", ".
func (c AddressClass) String() string {
	if c == Public {
		return "public"
	}
	var names []string
	for _, n := range classNames {
		if c&n.c != 0 {
			names = append(names, n.name)
		}
	}
	if rest := c &^ NonPublic; rest != 0 {
		names = append(names, fmt.Sprintf("AddressClass(%#x)", uint8(rest)))
	}
	return strings.Join(names, ", ")
}

// addressTable gives the class of each range of address that is not
// public. The metadata addresses come first: each is only Metadata, not
// also the link-local or private range it lies in.
var addressTable = []struct {
	p netip.Prefix
	c AddressClass
}{
	{netip.MustParsePrefix("169.254.169.254/32"), Metadata}, // AWS, GCP, Azure, OpenStack, ...
	{netip.MustParsePrefix("169.254.170.2/32"), Metadata},   // AWS ECS task metadata
	{netip.MustParsePrefix("100.100.100.200/32"), Metadata}, // Alibaba Cloud
	{netip.MustParsePrefix("fd00:ec2::254/128"), Metadata},  // AWS over IPv6

	{netip.MustParsePrefix("0.0.0.0/8"), Unspecified}, // "this network": Linux connects 0.0.0.0 to itself
	{netip.MustParsePrefix("127.0.0.0/8"), Loopback},
	{netip.MustParsePrefix("10.0.0.0/8"), Private},
	{netip.MustParsePrefix("172.16.0.0/12"), Private},
	{netip.MustParsePrefix("192.168.0.0/16"), Private},
	{netip.MustParsePrefix("100.64.0.0/10"), Private}, // carrier-grade NAT (RFC 6598)
	{netip.MustParsePrefix("169.254.0.0/16"), LinkLocal},
	{netip.MustParsePrefix("224.0.0.0/4"), Multicast},
	{netip.MustParsePrefix("255.255.255.255/32"), Multicast}, // broadcast

	{netip.MustParsePrefix("::/128"), Unspecified},
	{netip.MustParsePrefix("::1/128"), Loopback},
	{netip.MustParsePrefix("fc00::/7"), Private},  // unique local
	{netip.MustParsePrefix("fec0::/10"), Private}, // site-local, deprecated but still routed by some
	{netip.MustParsePrefix("fe80::/10"), LinkLocal},
	{netip.MustParsePrefix("ff00::/8"), Multicast},
}

// IPv6 ranges that carry an IPv4 address, which is what they reach.
var (
	nat64   = netip.MustParsePrefix("64:ff9b::/96") // RFC 6052: the address in the last 32 bits
	sixToV4 = netip.MustParsePrefix("2002::/16")    // RFC 3056: the address in bits 16 to 48
	compat  = netip.MustParsePrefix("::/96")        // IPv4-compatible (deprecated), tunneled by Linux's sit0
)

// ClassifyAddr says what class of address ip is. An IPv6 address that
// carries an IPv4 address (IPv4-mapped ::ffff:0:0/96, IPv4-compatible
// ::/96, NAT64 64:ff9b::/96, 6to4 2002::/16) is classified by the IPv4
// address, which is what a connection to it reaches; Teredo (2001::/32)
// is not unwrapped. A zone is ignored. The zero Addr is Unspecified.
func ClassifyAddr(ip netip.Addr) AddressClass {
	if !ip.IsValid() {
		return Unspecified
	}
	ip = unwrap(ip.WithZone(""))
	for _, r := range addressTable {
		if r.p.Contains(ip) {
			return r.c
		}
	}
	return Public
}

// unwrap returns the IPv4 address an IPv6 address carries, or ip.
func unwrap(ip netip.Addr) netip.Addr {
	ip = ip.Unmap()
	if !ip.Is6() {
		return ip
	}
	b := ip.As16()
	switch {
	case nat64.Contains(ip):
		return netip.AddrFrom4([4]byte(b[12:16]))
	case sixToV4.Contains(ip):
		return netip.AddrFrom4([4]byte(b[2:6]))
	case compat.Contains(ip) && ip != netip.IPv6Unspecified() && ip != netip.IPv6Loopback():
		return netip.AddrFrom4([4]byte(b[12:16]))
	}
	return ip
}

// An AddressPolicy says which addresses may be connected to: public ones
// and those of the classes in Allow, and, for a request to one of Hosts,
// those of its classes too.
type AddressPolicy struct {
	Allow AddressClass // the classes allowed besides public
	// Hosts are classes allowed for requests to some hosts only, by
	// HostKey ("127.0.0.1:8080"): the start URLs' own hosts in a capture
	// limited to its site or path (StartPolicy). A request to another
	// host, a redirect's included, gets Allow only. Hosts apply through
	// NewClient and DialContext, which see the host a request names;
	// Dialer and Check, which see only an address, apply Allow.
	Hosts map[string]AddressClass
}

// Check returns nil if p allows connecting to ip, and a
// *BlockedAddressError if not.
func (p AddressPolicy) Check(ip netip.Addr) error {
	return p.check(ip, p.Allow, "")
}

// check is Check for a request to host (a HostKey; "" when unknown),
// which allow allows.
func (p AddressPolicy) check(ip netip.Addr, allow AddressClass, host string) error {
	c := ClassifyAddr(ip)
	if c&^allow == 0 {
		return nil
	}
	e := &BlockedAddressError{Addr: ip, Class: c, Host: host}
	for h, a := range p.Hosts {
		if c&^(p.Allow|a) == 0 {
			e.Only = append(e.Only, h)
		}
	}
	slices.Sort(e.Only)
	return e
}

// allowFor is what p allows for a connection to addr ("host:port", as a
// transport dials it).
func (p AddressPolicy) allowFor(addr string) AddressClass {
	if len(p.Hosts) == 0 {
		return p.Allow
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return p.Allow
	}
	return p.Allow | p.Hosts[hostKey(host, port)]
}

// HostKey is the key of Hosts for u's host: its host name in lower-case
// ASCII (IDNA), without a final dot, and its port, the scheme's default
// written out. It is "" for a URL without a host.
func HostKey(u *url.URL) string {
	port := u.Port()
	if port == "" {
		switch strings.ToLower(u.Scheme) {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	if u.Hostname() == "" {
		return ""
	}
	return hostKey(u.Hostname(), port)
}

func hostKey(host, port string) string {
	host = strings.TrimSuffix(host, ".")
	if a, err := idna.Lookup.ToASCII(host); err == nil {
		host = a
	}
	return net.JoinHostPort(strings.ToLower(host), port)
}

// A BlockedAddressError is a connection an AddressPolicy refused.
type BlockedAddressError struct {
	Addr  netip.Addr
	Class AddressClass
	Host  string   // the host the request named (a HostKey), when known
	Only  []string // the hosts for which the policy allows the address (a limited capture's start hosts)
}

func (e *BlockedAddressError) Error() string {
	article := "a"
	if e.Class == Unspecified {
		article = "an"
	}
	if len(e.Only) > 0 && e.Host != "" {
		return fmt.Sprintf("%s is %s %s address: refused for %s (a capture limited to its site or path reaches such an address at its start URL's host only, %s; allow it with %s)",
			e.Addr, article, e.Class, e.Host, strings.Join(e.Only, ", "), AllowPrivateFlag)
	}
	return fmt.Sprintf("%s is %s %s address: refused (a page or file from elsewhere could %s; allow it with %s)",
		e.Addr, article, e.Class, e.Class.risk(), AllowPrivateFlag)
}

// risk says what connecting to an address of the class could do.
func (c AddressClass) risk() string {
	switch c {
	case Loopback, Unspecified:
		return "reach this machine's services"
	case Metadata:
		return "read this machine's cloud credentials"
	}
	return "reach services on this machine's network"
}

// Dialer returns a dialer that connects only to addresses p allows: its
// ControlContext checks the address after DNS resolution, just before the
// connection is made, so a name resolving to a refused address (at any
// lookup: DNS rebinding) is refused too. A refusal is a *net.OpError
// wrapping a *BlockedAddressError. timeout bounds connecting; 0 means 30 s.
func (p AddressPolicy) Dialer(timeout time.Duration) *net.Dialer {
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	return &net.Dialer{
		Timeout:   timeout,
		KeepAlive: 30 * time.Second,
		ControlContext: func(ctx context.Context, network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("address guard: cannot check %s address %q: %w", network, address, err)
			}
			if d, ok := ctx.Value(dialing{}).(dialing); ok {
				return p.check(ap.Addr(), d.allow, d.host)
			}
			return p.Check(ap.Addr())
		},
	}
}

// dialing is what DialContext tells its dialer's check (a context value):
// the host a connection is for, and what p allows for it.
type dialing struct {
	host  string
	allow AddressClass
}

// DialContext returns a dial function that connects only to addresses p
// allows for the host it is asked to dial ("host:port", as an
// http.Transport asks): Allow, and Hosts's classes for that host. The
// address is checked as Dialer checks it.
func (p AddressPolicy) DialContext(timeout time.Duration) func(ctx context.Context, network, addr string) (net.Conn, error) {
	d := p.Dialer(timeout)
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err == nil {
			ctx = context.WithValue(ctx, dialing{}, dialing{hostKey(host, port), p.allowFor(addr)})
		}
		return d.DialContext(ctx, network, addr)
	}
}

// NewClient returns a client that connects only to addresses p allows for
// the host each request names, and fetches only http and https URLs: any
// other scheme fails with a *SchemeError before anything is opened. Redirects are followed as
// http.Client does (callers set CheckRedirect), each through the same
// check.
//
// Its transport has http.DefaultTransport's settings, but no proxy: the
// environment's HTTP_PROXY would connect to the proxy, which the guard
// allows, and the proxy then to anywhere. timeout (0: 30 s) bounds
// connecting, the TLS handshake and the wait for the response's header,
// each; reading the body is bounded by the request's context only.
func NewClient(p AddressPolicy, timeout time.Duration) *http.Client {
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	t := &http.Transport{
		Proxy:                 nil, // a proxy would defeat the guard
		DialContext:           p.DialContext(timeout),
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   min(timeout, 10*time.Second),
		ExpectContinueTimeout: 1 * time.Second,
		ResponseHeaderTimeout: timeout,
	}
	return &http.Client{Transport: schemeGuard{t}}
}

// A SchemeError is a request for a URL that is not http or https, which
// NewClient's clients refuse (file:, ftp:, data:, ...).
type SchemeError struct {
	Scheme string // "" when the URL has none
}

func (e *SchemeError) Error() string {
	if e.Scheme == "" {
		return "only http and https URLs are fetched, not a URL without a scheme"
	}
	return "only http and https URLs are fetched, not " + e.Scheme + ":"
}

// schemeGuard refuses every request but http and https ones.
type schemeGuard struct{ t *http.Transport }

func (g schemeGuard) RoundTrip(req *http.Request) (*http.Response, error) {
	if s := req.URL.Scheme; s != "http" && s != "https" {
		if req.Body != nil {
			req.Body.Close() // as RoundTrip must, even on error
		}
		return nil, &SchemeError{Scheme: s}
	}
	return g.t.RoundTrip(req)
}

// CloseIdleConnections lets http.Client.CloseIdleConnections reach the
// transport.
func (g schemeGuard) CloseIdleConnections() { g.t.CloseIdleConnections() }

// StartClasses returns the non-public classes the hosts of urls are, to be
// allowed for a capture of them: the user asked for those addresses, while
// a public start URL gives no page the right to reach a private address.
// An IP literal is classified as it is; "localhost" and names under
// .localhost are Loopback (RFC 6761); other names are resolved with r
// (nil: net.DefaultResolver), every address counting, and a name that does
// not resolve, like a URL that does not parse, adds nothing.
//
// Metadata is never added: a start URL at a cloud metadata address still
// needs the explicit AllowPrivateFlag: such a URL is more likely pasted
// from elsewhere than meant, and what it answers is a credential.
func StartClasses(ctx context.Context, r *net.Resolver, urls []string) AddressClass {
	if r == nil {
		r = net.DefaultResolver
	}
	var c AddressClass
	for _, raw := range urls {
		u, err := url.Parse(raw)
		if err != nil {
			continue
		}
		host := strings.TrimSuffix(u.Hostname(), ".")
		if host == "" {
			continue
		}
		if ip, err := netip.ParseAddr(host); err == nil {
			c |= ClassifyAddr(ip)
			continue
		}
		if lower := strings.ToLower(host); lower == "localhost" || strings.HasSuffix(lower, ".localhost") {
			c |= Loopback
			continue
		}
		ips, err := r.LookupNetIP(ctx, "ip", host)
		if err != nil {
			continue
		}
		for _, ip := range ips {
			c |= ClassifyAddr(ip)
		}
	}
	return c &^ Metadata
}

// StartPolicy is the address policy of a capture of starts that allows
// the classes in allow besides public addresses (AllowPrivateFlag), and
// the classes each start URL is (StartClasses): for every host when its
// command follows links anywhere, and for the start URL's own host only
// when the command is limited to its site or path (SameSite, SamePath).
// A page of a capture of http://127.0.0.1:8080/ limited so reaches
// neither 127.0.0.1:6379 nor localhost:8081: not by a link, a redirect,
// an image, a frame or a script's request, as it could never load such a
// page.
func StartPolicy(ctx context.Context, r *net.Resolver, starts []Start, allow AddressClass) AddressPolicy {
	p := AddressPolicy{Allow: allow}
	for _, s := range starts {
		c := StartClasses(ctx, r, []string{s.URL})
		u, err := url.Parse(s.URL)
		if s.Flags&(webcapture.SameSite|webcapture.SamePath) == 0 || err != nil || HostKey(u) == "" {
			p.Allow |= c
			continue
		}
		if c == Public {
			continue
		}
		if p.Hosts == nil {
			p.Hosts = map[string]AddressClass{}
		}
		p.Hosts[HostKey(u)] |= c
	}
	return p
}
