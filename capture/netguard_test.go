package capture

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webcap/webcap/webcapture"
	"golang.org/x/net/dns/dnsmessage"
)

func TestClassifyAddr(t *testing.T) {
	tests := []struct {
		addr string
		want AddressClass
	}{
		// Loopback: 127/8, ::1.
		{"127.0.0.1", Loopback},
		{"127.0.0.0", Loopback},
		{"127.255.255.255", Loopback},
		{"126.255.255.255", Public},
		{"128.0.0.0", Public},
		{"::1", Loopback},
		{"::1%lo", Loopback},

		// Private: 10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7, fec0::/10.
		{"10.0.0.0", Private},
		{"10.255.255.255", Private},
		{"9.255.255.255", Public},
		{"11.0.0.0", Public},
		{"172.16.0.0", Private},
		{"172.31.255.255", Private},
		{"172.15.255.255", Public},
		{"172.32.0.0", Public},
		{"192.168.0.0", Private},
		{"192.168.255.255", Private},
		{"192.167.255.255", Public},
		{"192.169.0.0", Public},
		{"100.64.0.0", Private},
		{"100.127.255.255", Private},
		{"100.63.255.255", Public},
		{"100.128.0.0", Public},
		{"fc00::", Private},
		{"fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", Private},
		{"fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", Public},
		{"fe00::", Public},
		{"fec0::1", Private},

		// LinkLocal: 169.254/16, fe80::/10.
		{"169.254.0.0", LinkLocal},
		{"169.254.255.255", LinkLocal},
		{"169.253.255.255", Public},
		{"169.255.0.0", Public},
		{"169.254.169.253", LinkLocal},
		{"fe80::", LinkLocal},
		{"fe80::1%eth0", LinkLocal},
		{"febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff", LinkLocal},
		{"fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff", Public},

		// Metadata: only Metadata, not also the range it lies in.
		{"169.254.169.254", Metadata},
		{"169.254.170.2", Metadata},
		{"100.100.100.200", Metadata},
		{"100.100.100.201", Private},
		{"fd00:ec2::254", Metadata},
		{"fd00:ec2::253", Private},

		// Unspecified: 0.0.0.0/8, ::.
		{"0.0.0.0", Unspecified},
		{"0.255.255.255", Unspecified},
		{"1.0.0.0", Public},
		{"::", Unspecified},

		// Multicast: 224/4, ff00::/8, and broadcast.
		{"224.0.0.0", Multicast},
		{"239.255.255.255", Multicast},
		{"223.255.255.255", Public},
		{"240.0.0.0", Public},
		{"255.255.255.255", Multicast},
		{"255.255.255.254", Public},
		{"ff00::", Multicast},
		{"ff02::1", Multicast},

		// Public.
		{"8.8.8.8", Public},
		{"1.1.1.1", Public},
		{"2001:4860::8888", Public},
		{"2606:4700::1111", Public},

		// IPv6 carrying IPv4: classified by the IPv4 address.
		{"::ffff:127.0.0.1", Loopback},
		{"::ffff:10.1.2.3", Private},
		{"::ffff:169.254.169.254", Metadata},
		{"::ffff:0.0.0.0", Unspecified},
		{"::ffff:8.8.8.8", Public},
		{"::127.0.0.1", Loopback},        // IPv4-compatible
		{"64:ff9b::127.0.0.1", Loopback}, // NAT64
		{"64:ff9b::169.254.169.254", Metadata},
		{"64:ff9b::8.8.8.8", Public},
		{"2002:7f00:1::", Loopback}, // 6to4 of 127.0.0.1
		{"2002:a9fe:a9fe::1", Metadata},
		{"2002:c0a8:101::1", Private},
		{"2002:808:808::1", Public},
	}
	for _, tc := range tests {
		t.Run(tc.addr, func(t *testing.T) {
			if got := ClassifyAddr(netip.MustParseAddr(tc.addr)); got != tc.want {
				t.Errorf("ClassifyAddr(%s) = %v, want %v", tc.addr, got, tc.want)
			}
		})
	}
	if got := ClassifyAddr(netip.Addr{}); got != Unspecified {
		t.Errorf("ClassifyAddr(zero Addr) = %v, want %v", got, Unspecified)
	}
}

func TestAddressClassString(t *testing.T) {
	tests := []struct {
		c    AddressClass
		want string
	}{
		{Public, "public"},
		{Loopback, "loopback"},
		{Private, "private"},
		{LinkLocal, "link-local"},
		{Metadata, "cloud metadata"},
		{Unspecified, "unspecified"},
		{Multicast, "multicast"},
		{Loopback | Private, "loopback, private"},
		{NonPublic, "loopback, private, link-local, cloud metadata, unspecified, multicast"},
		{Loopback | 0x80, "loopback, AddressClass(0x80)"},
	}
	for _, tc := range tests {
		if got := tc.c.String(); got != tc.want {
			t.Errorf("AddressClass(%#x).String() = %q, want %q", uint8(tc.c), got, tc.want)
		}
	}
}

func TestAddressPolicyCheck(t *testing.T) {
	const (
		here = "a page or file from elsewhere could reach this machine's services; allow it with --allow-private)"
		near = "a page or file from elsewhere could reach services on this machine's network; allow it with --allow-private)"
	)
	tests := []struct {
		name  string
		allow AddressClass
		addr  string
		want  string // the error, "" for none
	}{
		{"public", Public, "8.8.8.8", ""},
		{"public v6", Public, "2001:4860::8888", ""},
		{"loopback", Public, "127.0.0.1", "127.0.0.1 is a loopback address: refused (" + here},
		{"loopback allowed", Loopback, "127.0.0.1", ""},
		{"mapped loopback allowed", Loopback, "::ffff:127.0.0.1", ""},
		{"mapped loopback", Private, "::ffff:127.0.0.1", "::ffff:127.0.0.1 is a loopback address: refused (" + here},
		{"v6 loopback", Private | LinkLocal, "::1", "::1 is a loopback address: refused (" + here},
		{"private", Loopback, "10.0.0.1", "10.0.0.1 is a private address: refused (" + near},
		{"carrier-grade NAT", Loopback, "100.64.0.1", "100.64.0.1 is a private address: refused (" + near},
		{"link-local", Private, "fe80::1%eth0", "fe80::1%eth0 is a link-local address: refused (" + near},
		{"unspecified", Loopback, "0.0.0.0", "0.0.0.0 is an unspecified address: refused (" + here},
		{"multicast", Private, "224.0.0.1", "224.0.0.1 is a multicast address: refused (" + near},
		{"metadata", Loopback | Private | LinkLocal, "169.254.169.254",
			"169.254.169.254 is a cloud metadata address: refused (a page or file from elsewhere could read this machine's cloud credentials; allow it with --allow-private)"},
		{"metadata allowed", Metadata, "169.254.169.254", ""},
		{"all allowed", NonPublic, "fd00:ec2::254", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ip := netip.MustParseAddr(tc.addr)
			err := AddressPolicy{Allow: tc.allow}.Check(ip)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Check(%s) = %v, want nil", tc.addr, err)
				}
				return
			}
			if err == nil || err.Error() != tc.want {
				t.Fatalf("Check(%s) = %v, want %q", tc.addr, err, tc.want)
			}
			var b *BlockedAddressError
			if !errors.As(err, &b) || b.Addr != ip || b.Class != ClassifyAddr(ip) {
				t.Errorf("Check(%s) = %#v, want a *BlockedAddressError{%s, %v}", tc.addr, err, ip, ClassifyAddr(ip))
			}
		})
	}
}

// counting is a handler that counts its requests and answers "ok".
type counting struct{ n atomic.Int32 }

func (c *counting) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.n.Add(1)
	io.WriteString(w, "ok")
}

// get fetches u with client, and its body.
func get(t *testing.T, client *http.Client, u string) (string, error) {
	t.Helper()
	resp, err := client.Get(u)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

// blocked checks that err is a refusal of an address of class c.
func blocked(t *testing.T, err error, c AddressClass) {
	t.Helper()
	var b *BlockedAddressError
	if !errors.As(err, &b) {
		t.Fatalf("err = %v, want a *BlockedAddressError", err)
	}
	if b.Class != c {
		t.Errorf("refused a %v address (%v), want %v", b.Class, b.Addr, c)
	}
}

func TestGuardClientLoopback(t *testing.T) {
	var h counting
	srv := httptest.NewServer(&h)
	defer srv.Close()

	refusing := NewClient(AddressPolicy{}, 30*time.Second)
	defer refusing.CloseIdleConnections()
	_, err := get(t, refusing, srv.URL)
	blocked(t, err, Loopback)
	want := "127.0.0.1 is a loopback address: refused (a page or file from elsewhere could reach this machine's services; allow it with --allow-private)"
	if got := ClassifyFetch(srv.URL, err).Error(); got != want {
		t.Errorf("ClassifyFetch(%q).Error() = %q, want %q", srv.URL, got, want)
	}
	if n := h.n.Load(); n != 0 {
		t.Errorf("the server was asked %d times, want 0", n)
	}

	allowing := NewClient(AddressPolicy{Allow: Loopback}, 30*time.Second)
	defer allowing.CloseIdleConnections()
	body, err := get(t, allowing, srv.URL)
	if err != nil || body != "ok" {
		t.Fatalf("with Allow=Loopback: Get(%q) = %q, %v, want \"ok\", nil", srv.URL, body, err)
	}
}

// TestGuardClientLocalhost: a name is checked by the address it resolves
// to.
func TestGuardClientLocalhost(t *testing.T) {
	ips, err := net.DefaultResolver.LookupNetIP(context.Background(), "ip", "localhost")
	if err != nil || len(ips) == 0 {
		t.Skipf("localhost does not resolve here: %v", err)
	}
	var h counting
	srv := httptest.NewServer(&h)
	defer srv.Close()
	u := "http://localhost:" + strconv.Itoa(srv.Listener.Addr().(*net.TCPAddr).Port) + "/"

	c := NewClient(AddressPolicy{}, 30*time.Second)
	defer c.CloseIdleConnections()
	_, err = get(t, c, u)
	blocked(t, err, Loopback)
	if n := h.n.Load(); n != 0 {
		t.Errorf("the server was asked %d times, want 0", n)
	}
}

// TestGuardDialerResolved: the dialer checks the address a name resolves
// to, whatever resolver it is given (DNS rebinding).
func TestGuardDialerResolved(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	addr := net.JoinHostPort("rebind.test", strconv.Itoa(port))
	r := fakeDNS(map[string]netip.Addr{"rebind.test": netip.MustParseAddr("127.0.0.1")})

	d := AddressPolicy{Allow: Private}.Dialer(30 * time.Second)
	d.Resolver = r
	_, err = d.DialContext(context.Background(), "tcp", addr)
	blocked(t, err, Loopback)

	d = AddressPolicy{Allow: Loopback}.Dialer(30 * time.Second)
	d.Resolver = r
	conn, err := d.DialContext(context.Background(), "tcp", addr)
	if err != nil {
		t.Fatalf("with Allow=Loopback: Dial(%s) = %v", addr, err)
	}
	conn.Close()
}

// TestGuardClientRedirect: each redirect is checked where it connects.
// (A test server cannot be public: the allowed server is on loopback, and
// it redirects to addresses of other classes.)
func TestGuardClientRedirect(t *testing.T) {
	var target counting
	mux := http.NewServeMux()
	mux.Handle("/target", &target)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	port := strconv.Itoa(srv.Listener.Addr().(*net.TCPAddr).Port)

	tests := []struct {
		name  string
		allow AddressClass
		to    string
		class AddressClass // refused; Public: followed
	}{
		{"to unspecified", Loopback, "http://0.0.0.0:" + port + "/target", Unspecified},
		{"to metadata", Loopback | Private | LinkLocal, "http://169.254.169.254/latest/meta-data/", Metadata},
		{"to mapped metadata", Loopback | LinkLocal, "http://[::ffff:169.254.169.254]/latest/meta-data/", Metadata},
		{"to private", Loopback, "http://10.0.0.1:" + port + "/target", Private},
		{"to loopback", Loopback, "http://127.0.0.1:" + port + "/target", Public},
	}
	for i, tc := range tests {
		mux.Handle("/to/"+strconv.Itoa(i), http.RedirectHandler(tc.to, http.StatusFound))
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := target.n.Load()
			c := NewClient(AddressPolicy{Allow: tc.allow}, 30*time.Second)
			defer c.CloseIdleConnections()
			u := srv.URL + "/to/" + strconv.Itoa(i)
			body, err := get(t, c, u)
			if tc.class == Public {
				if err != nil || body != "ok" {
					t.Fatalf("Get(%q) = %q, %v, want \"ok\", nil", u, body, err)
				}
				return
			}
			blocked(t, err, tc.class)
			if n := target.n.Load() - before; n != 0 {
				t.Errorf("the redirect's target was asked %d times, want 0", n)
			}
		})
	}
}

// closeRecorder is a request body that records being closed.
type closeRecorder struct {
	io.Reader
	closed bool
}

func (c *closeRecorder) Close() error { c.closed = true; return nil }

func TestGuardClientScheme(t *testing.T) {
	c := NewClient(AddressPolicy{Allow: NonPublic}, 30*time.Second)
	defer c.CloseIdleConnections()
	tests := []struct {
		url, scheme, want string
	}{
		{"file:///etc/passwd", "file", "only http and https URLs are fetched, not file:"},
		{"ftp://x/", "ftp", "only http and https URLs are fetched, not ftp:"},
		{"gopher://127.0.0.1:70/", "gopher", "only http and https URLs are fetched, not gopher:"},
		{"/relative", "", "only http and https URLs are fetched, not a URL without a scheme"},
	}
	for _, tc := range tests {
		t.Run(tc.url, func(t *testing.T) {
			body := &closeRecorder{Reader: strings.NewReader("x")}
			req, err := http.NewRequest(http.MethodPost, tc.url, body)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := c.Do(req)
			if resp != nil {
				resp.Body.Close()
				t.Fatalf("Do(%q) answered %s", tc.url, resp.Status)
			}
			var s *SchemeError
			if !errors.As(err, &s) || s.Scheme != tc.scheme {
				t.Fatalf("Do(%q) = %v, want a *SchemeError for %q", tc.url, err, tc.scheme)
			}
			if fe := ClassifyFetch(tc.url, err); fe.Kind != Scheme || fe.Error() != tc.want {
				t.Errorf("ClassifyFetch(%q) = %v %q, want %v %q", tc.url, fe.Kind, fe.Error(), Scheme, tc.want)
			}
			if !body.closed {
				t.Errorf("Do(%q) did not close the request's body", tc.url)
			}
		})
	}

	// A redirect to file: is refused too.
	srv := httptest.NewServer(http.RedirectHandler("file:///etc/passwd", http.StatusFound))
	defer srv.Close()
	_, err := get(t, c, srv.URL)
	var s *SchemeError
	if !errors.As(err, &s) || s.Scheme != "file" {
		t.Errorf("a redirect to file:///etc/passwd: err = %v, want a *SchemeError", err)
	}
}

func TestAddressStartClasses(t *testing.T) {
	// failing is a resolver that fails fast, asking no one.
	failing := &net.Resolver{PreferGo: true, Dial: func(context.Context, string, string) (net.Conn, error) {
		return nil, errors.New("no DNS in tests")
	}}
	names := fakeDNS(map[string]netip.Addr{
		"intranet.test": netip.MustParseAddr("10.1.2.3"),
		"v6.test":       netip.MustParseAddr("fd12::1"),
		"public.test":   netip.MustParseAddr("8.8.8.8"),
		"meta.test":     netip.MustParseAddr("169.254.169.254"),
	})
	tests := []struct {
		name string
		r    *net.Resolver
		urls []string
		want AddressClass
	}{
		{"v4 loopback", failing, []string{"http://127.0.0.1:1/"}, Loopback},
		{"localhost", failing, []string{"http://localhost/"}, Loopback},
		{"localhost, dot and case", failing, []string{"http://LocalHost.:8080/"}, Loopback},
		{"under .localhost", failing, []string{"http://app.localhost:3000/"}, Loopback},
		{"v6 loopback", failing, []string{"http://[::1]/"}, Loopback},
		{"unresolvable", failing, []string{"https://example.invalid/"}, Public},
		{"metadata", failing, []string{"http://169.254.169.254/latest/meta-data/"}, Public},
		{"mapped metadata", failing, []string{"http://[::ffff:169.254.169.254]/"}, Public},
		{"several", failing, []string{"http://10.0.0.1/", "http://[fe80::1%25eth0]/", "http://8.8.8.8/"}, Private | LinkLocal},
		{"unparsable and empty", failing, []string{"http://[::1", "", "mailto:a@b"}, Public},
		{"resolved private", names, []string{"http://intranet.test/"}, Private},
		{"resolved v6 private", names, []string{"https://v6.test/"}, Private},
		{"resolved public", names, []string{"http://public.test/"}, Public},
		{"resolved metadata", names, []string{"http://meta.test/"}, Public},
		{"resolves nowhere", names, []string{"http://nosuch.invalid/"}, Public},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := StartClasses(context.Background(), tc.r, tc.urls); got != tc.want {
				t.Errorf("StartClasses(%q) = %v, want %v", tc.urls, got, tc.want)
			}
		})
	}
}

// fakeDNS is a resolver that answers from names and says NXDOMAIN for
// every other name, over in-memory connections: no DNS server is asked.
func fakeDNS(names map[string]netip.Addr) *net.Resolver {
	return &net.Resolver{PreferGo: true, Dial: func(context.Context, string, string) (net.Conn, error) {
		client, server := net.Pipe()
		go serveDNS(server, names)
		return client, nil
	}}
}

// serveDNS answers one query on c, as DNS over a stream: two bytes of
// length, then the message.
func serveDNS(c net.Conn, names map[string]netip.Addr) {
	defer c.Close()
	var n [2]byte
	if _, err := io.ReadFull(c, n[:]); err != nil {
		return
	}
	msg := make([]byte, binary.BigEndian.Uint16(n[:]))
	if _, err := io.ReadFull(c, msg); err != nil {
		return
	}
	var p dnsmessage.Parser
	h, err := p.Start(msg)
	if err != nil {
		return
	}
	q, err := p.Question()
	if err != nil {
		return
	}
	resp := dnsmessage.Message{
		Header:    dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RecursionAvailable: true},
		Questions: []dnsmessage.Question{q},
	}
	ip, ok := names[strings.ToLower(strings.TrimSuffix(q.Name.String(), "."))]
	rh := dnsmessage.ResourceHeader{Name: q.Name, Type: q.Type, Class: dnsmessage.ClassINET, TTL: 60}
	switch {
	case !ok:
		resp.RCode = dnsmessage.RCodeNameError
	case q.Type == dnsmessage.TypeA && ip.Is4():
		resp.Answers = []dnsmessage.Resource{{Header: rh, Body: &dnsmessage.AResource{A: ip.As4()}}}
	case q.Type == dnsmessage.TypeAAAA && ip.Is6():
		resp.Answers = []dnsmessage.Resource{{Header: rh, Body: &dnsmessage.AAAAResource{AAAA: ip.As16()}}}
	}
	b, err := resp.Pack()
	if err != nil {
		return
	}
	c.Write(append(binary.BigEndian.AppendUint16(nil, uint16(len(b))), b...))
}

func TestHostKey(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://Example.COM./a", "example.com:80"},
		{"https://example.com/", "example.com:443"},
		{"http://user:pw@127.0.0.1:8080/", "127.0.0.1:8080"},
		{"http://[::1]/", "[::1]:80"},
		{"http://bücher.example:81/", "xn--bcher-kva.example:81"},
		{"mailto:a@b", ""},
	} {
		u, err := url.Parse(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := HostKey(u); got != tc.want {
			t.Errorf("HostKey(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestStartPolicy(t *testing.T) {
	failing := &net.Resolver{PreferGo: true, Dial: func(context.Context, string, string) (net.Conn, error) {
		return nil, errors.New("no DNS in tests")
	}}
	site := webcapture.SameSite
	tests := []struct {
		name   string
		starts []Start
		allow  AddressClass
		want   AddressPolicy
	}{
		{"anywhere: for every host", []Start{{URL: "http://127.0.0.1:8080/"}}, 0, AddressPolicy{Allow: Loopback}},
		{"same site: its host only", []Start{{URL: "http://127.0.0.1:8080/", Flags: site}}, 0,
			AddressPolicy{Hosts: map[string]AddressClass{"127.0.0.1:8080": Loopback}}},
		{"same path, localhost, default port", []Start{{URL: "http://LocalHost/a/", Flags: webcapture.SamePath}}, 0,
			AddressPolicy{Hosts: map[string]AddressClass{"localhost:80": Loopback}}},
		{"a flag's allowance stays for all", []Start{{URL: "http://10.0.0.1/", Flags: site}}, Loopback,
			AddressPolicy{Allow: Loopback, Hosts: map[string]AddressClass{"10.0.0.1:80": Private}}},
		{"public: nothing", []Start{{URL: "https://8.8.8.8/", Flags: site}, {URL: "https://example.invalid/"}}, 0, AddressPolicy{}},
		{"metadata: never", []Start{{URL: "http://169.254.169.254/", Flags: site}}, 0, AddressPolicy{}},
		{"mixed", []Start{{URL: "http://127.0.0.1:1/", Flags: site}, {URL: "http://10.0.0.1/"}}, 0,
			AddressPolicy{Allow: Private, Hosts: map[string]AddressClass{"127.0.0.1:1": Loopback}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := StartPolicy(context.Background(), failing, tc.starts, tc.allow)
			if got.Allow != tc.want.Allow || !maps.Equal(got.Hosts, tc.want.Hosts) {
				t.Errorf("StartPolicy(%+v, %v) = %+v, want %+v", tc.starts, tc.allow, got, tc.want)
			}
		})
	}
}

// TestGuardClientHosts: a capture limited to its site reaches a loopback
// address at its start URL's host only, not another port or name of the
// same machine, directly or by a redirect.
func TestGuardClientHosts(t *testing.T) {
	var inner counting
	in := httptest.NewServer(&inner)
	defer in.Close()
	innerPort := strconv.Itoa(in.Listener.Addr().(*net.TCPAddr).Port)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/go" {
			http.Redirect(w, r, in.URL+"/secret", http.StatusFound)
			return
		}
		io.WriteString(w, "ok")
	}))
	defer site.Close()
	start := site.URL + "/"
	p := StartPolicy(context.Background(), nil, []Start{{URL: start, Flags: webcapture.SameSite}}, 0)
	c := NewClient(p, 30*time.Second)
	defer c.CloseIdleConnections()
	if body, err := get(t, c, start); err != nil || body != "ok" {
		t.Fatalf("the start URL: Get(%q) = %q, %v, want \"ok\"", start, body, err)
	}
	for _, u := range []string{in.URL + "/secret", "http://localhost:" + innerPort + "/secret", site.URL + "/go"} {
		_, err := get(t, c, u)
		blocked(t, err, Loopback)
		var b *BlockedAddressError
		if errors.As(err, &b) && (!strings.HasSuffix(b.Host, ":"+innerPort) || !slices.Equal(b.Only, []string{strings.TrimPrefix(site.URL, "http://")})) {
			t.Errorf("Get(%q): refused for %q, allowed only for %q; want the internal service's host, and the site's", u, b.Host, b.Only)
		}
		if msg := ClassifyFetch(u, err).Error(); !strings.Contains(msg, "at its start URL's host only, "+strings.TrimPrefix(site.URL, "http://")) {
			t.Errorf("Get(%q): %s: does not say which host may be reached", u, msg)
		}
	}
	if n := inner.n.Load(); n != 0 {
		t.Errorf("the internal service was asked %d times, want 0", n)
	}
	// Without the limit, the start URL's class is allowed everywhere.
	any := NewClient(StartPolicy(context.Background(), nil, []Start{{URL: start}}, 0), 30*time.Second)
	defer any.CloseIdleConnections()
	if body, err := get(t, any, in.URL+"/secret"); err != nil || body != "ok" {
		t.Errorf("an unlimited capture: Get(%q) = %q, %v, want \"ok\"", in.URL, body, err)
	}
}
