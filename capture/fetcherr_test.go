package capture

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"
)

func TestFetchErrorKindString(t *testing.T) {
	tests := []struct {
		k    FetchErrorKind
		want string
	}{
		{Refused, "refused"},
		{DNS, "dns"},
		{TLS, "tls"},
		{Timeout, "timeout"},
		{Reset, "reset"},
		{Blocked, "blocked"},
		{Scheme, "scheme"},
		{HTTPStatus, "http"},
		{TooLarge, "too-large"},
		{NotModified, "not-modified"},
		{Interrupted, "interrupted"},
		{Other, "other"},
		{FetchErrorKind(200), "FetchErrorKind(200)"},
	}
	for _, tc := range tests {
		if got := tc.k.String(); got != tc.want {
			t.Errorf("FetchErrorKind(%d).String() = %q, want %q", uint8(tc.k), got, tc.want)
		}
	}
}

// A fetchCase is a failure, as it is made, and what ClassifyFetch (or
// StatusError) says of it.
type fetchCase struct {
	name string
	// fail fails a fetch and returns its URL, its error (from Do or from
	// reading the body), and the message expected (which may name the
	// address fail used).
	fail  func(t *testing.T) (u string, err error, want string)
	kind  FetchErrorKind
	check func(t *testing.T, err error) // more about the cause, or nil
}

// do fetches u with c and reads the whole body.
func do(ctx context.Context, c *http.Client, u string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, err = io.ReadAll(resp.Body)
	return err
}

// hijacking serves with f on the hijacked connection of each request.
func hijacking(t *testing.T, f func(c net.Conn)) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Errorf("Hijack: %v", err)
			return
		}
		f(c)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// quietTLSServer is a TLS server that does not log the handshakes that
// fail, as the tests make them.
func quietTLSServer(t *testing.T) *httptest.Server {
	srv := httptest.NewUnstartedServer(http.NotFoundHandler())
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv
}

func loopbackClient(t *testing.T) *http.Client {
	c := NewClient(AddressPolicy{Allow: Loopback}, 30*time.Second)
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// isErr checks that errors.Is(err, target).
func isErr(target error) func(*testing.T, error) {
	return func(t *testing.T, err error) {
		t.Helper()
		if !errors.Is(err, target) {
			t.Errorf("errors.Is(%v, %v) = false", err, target)
		}
	}
}

// asErr checks that errors.As finds a T in err.
func asErr[T any]() func(*testing.T, error) {
	return func(t *testing.T, err error) {
		t.Helper()
		var target T
		if !errors.As(err, &target) {
			t.Errorf("errors.As(%v, %T) = false", err, &target)
		}
	}
}

func fetchCases() []fetchCase {
	return []fetchCase{
		{
			name: "refused",
			fail: func(t *testing.T) (string, error, string) {
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				addr := ln.Addr().String()
				ln.Close()
				u := "http://" + addr + "/"
				return u, do(t.Context(), loopbackClient(t), u), "connection refused (" + addr + ")"
			},
			kind:  Refused,
			check: isErr(syscall.ECONNREFUSED),
		},
		{
			name: "no such host",
			fail: func(t *testing.T) (string, error, string) {
				d := AddressPolicy{}.Dialer(30 * time.Second)
				d.Resolver = fakeDNS(nil)
				c := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
				u := "http://nosuch.invalid/page"
				return u, do(t.Context(), c, u), "no such host (nosuch.invalid)"
			},
			kind:  DNS,
			check: asErr[*net.DNSError](),
		},
		{
			name: "DNS failure",
			fail: func(t *testing.T) (string, error, string) {
				err := &net.DNSError{Err: "server misbehaving", Name: "broken.example", Server: "192.0.2.53:53", IsTemporary: true}
				return "http://broken.example/", fmt.Errorf("Get %q: %w", "http://broken.example/", &net.OpError{Op: "dial", Net: "tcp", Err: err}),
					"DNS lookup failed (broken.example): server misbehaving"
			},
			kind: DNS,
		},
		{
			name: "DNS timeout",
			fail: func(t *testing.T) (string, error, string) {
				err := &net.DNSError{Err: "i/o timeout", Name: "slow.example", IsTimeout: true}
				return "http://slow.example/", &net.OpError{Op: "dial", Net: "tcp", Err: err}, "DNS lookup timed out (slow.example)"
			},
			kind: DNS,
		},
		{
			name: "unknown authority",
			fail: func(t *testing.T) (string, error, string) {
				srv := quietTLSServer(t)
				return srv.URL, do(t.Context(), loopbackClient(t), srv.URL), "TLS: certificate signed by unknown authority"
			},
			kind:  TLS,
			check: asErr[x509.UnknownAuthorityError](),
		},
		{
			name: "wrong host",
			fail: func(t *testing.T) (string, error, string) {
				srv := quietTLSServer(t)
				u := "https://localhost:" + strconv.Itoa(srv.Listener.Addr().(*net.TCPAddr).Port) + "/"
				c := srv.Client() // trusts the server's certificate, for 127.0.0.1, ::1 and example.com
				return u, do(t.Context(), c, u), "TLS: certificate is valid for example.com, *.example.com, not localhost"
			},
			kind:  TLS,
			check: asErr[x509.HostnameError](),
		},
		{
			name: "not TLS",
			fail: func(t *testing.T) (string, error, string) {
				// An SSH server's greeting, after the client's hello.
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { ln.Close() })
				go func() {
					c, err := ln.Accept()
					if err != nil {
						return
					}
					defer c.Close()
					c.Read(make([]byte, 1))
					io.WriteString(c, "SSH-2.0-OpenSSH_9.6\r\n")
					io.Copy(io.Discard, c)
				}()
				u := "https://" + ln.Addr().String() + "/"
				return u, do(t.Context(), loopbackClient(t), u), "TLS: first record does not look like a TLS handshake"
			},
			kind:  TLS,
			check: asErr[tls.RecordHeaderError](),
		},
		{
			name: "plain HTTP",
			fail: func(t *testing.T) (string, error, string) {
				srv := httptest.NewServer(http.NotFoundHandler())
				t.Cleanup(srv.Close)
				u := "https://" + srv.Listener.Addr().String() + "/"
				return u, do(t.Context(), loopbackClient(t), u), "TLS: the server answered in plain HTTP"
			},
			kind: TLS,
		},
		{
			name: "deadline passed",
			fail: func(t *testing.T) (string, error, string) {
				srv := httptest.NewServer(http.NotFoundHandler())
				t.Cleanup(srv.Close)
				ctx, cancel := context.WithDeadline(t.Context(), time.Unix(0, 0))
				defer cancel()
				return srv.URL, do(ctx, loopbackClient(t), srv.URL), "timed out"
			},
			kind:  Timeout,
			check: isErr(context.DeadlineExceeded),
		},
		{
			name: "read timeout",
			fail: func(t *testing.T) (string, error, string) {
				return "http://192.0.2.1/", &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}, "timed out"
			},
			kind:  Timeout,
			check: isErr(os.ErrDeadlineExceeded),
		},
		{
			name: "canceled",
			fail: func(t *testing.T) (string, error, string) {
				srv := httptest.NewServer(http.NotFoundHandler())
				t.Cleanup(srv.Close)
				ctx, cancel := context.WithCancel(t.Context())
				cancel()
				return srv.URL, do(ctx, loopbackClient(t), srv.URL), "interrupted"
			},
			kind:  Interrupted,
			check: isErr(context.Canceled),
		},
		{
			name: "closed mid-body",
			fail: func(t *testing.T) (string, error, string) {
				srv := hijacking(t, func(c net.Conn) {
					io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nabc")
					c.Close()
				})
				return srv.URL, do(t.Context(), loopbackClient(t), srv.URL), "the connection closed before the answer was complete"
			},
			kind:  Reset,
			check: isErr(io.ErrUnexpectedEOF),
		},
		{
			name: "closed before answering",
			fail: func(t *testing.T) (string, error, string) {
				srv := hijacking(t, func(c net.Conn) { c.Close() })
				return srv.URL, do(t.Context(), loopbackClient(t), srv.URL), "the server closed the connection without answering"
			},
			kind:  Reset,
			check: isErr(io.EOF),
		},
		{
			name: "reset",
			fail: func(t *testing.T) (string, error, string) {
				srv := hijacking(t, func(c net.Conn) {
					c.(*net.TCPConn).SetLinger(0) // close with a RST
					c.Close()
				})
				return srv.URL, do(t.Context(), loopbackClient(t), srv.URL), "connection reset (" + srv.Listener.Addr().String() + ")"
			},
			kind:  Reset,
			check: isErr(syscall.ECONNRESET),
		},
		{
			name: "broken pipe",
			fail: func(t *testing.T) (string, error, string) {
				return "http://192.0.2.1/", &net.OpError{Op: "write", Net: "tcp", Addr: &net.TCPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 80},
					Err: os.NewSyscallError("write", syscall.EPIPE)}, "connection broken (192.0.2.1:80)"
			},
			kind:  Reset,
			check: isErr(syscall.EPIPE),
		},
		{
			name: "blocked",
			fail: func(t *testing.T) (string, error, string) {
				srv := httptest.NewServer(http.NotFoundHandler())
				t.Cleanup(srv.Close)
				c := NewClient(AddressPolicy{Allow: Private}, 30*time.Second)
				t.Cleanup(c.CloseIdleConnections)
				return srv.URL, do(t.Context(), c, srv.URL),
					"127.0.0.1 is a loopback address: refused (a page or file from elsewhere could reach this machine's services; allow it with --allow-private)"
			},
			kind:  Blocked,
			check: asErr[*BlockedAddressError](),
		},
		{
			name: "scheme",
			fail: func(t *testing.T) (string, error, string) {
				u := "ftp://x/"
				return u, do(t.Context(), loopbackClient(t), u), "only http and https URLs are fetched, not ftp:"
			},
			kind:  Scheme,
			check: asErr[*SchemeError](),
		},
		{
			name: "scheme, unguarded client",
			fail: func(t *testing.T) (string, error, string) {
				u := "ftp://x/"
				return u, do(t.Context(), &http.Client{Transport: &http.Transport{}}, u), `unsupported protocol scheme "ftp"`
			},
			kind: Scheme,
		},
		{
			name: "no route",
			fail: func(t *testing.T) (string, error, string) {
				return "http://192.0.2.1/", &net.OpError{Op: "dial", Net: "tcp", Addr: &net.TCPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 80},
					Err: os.NewSyscallError("connect", syscall.EHOSTUNREACH)}, "no route to host (192.0.2.1:80)"
			},
			kind:  Other,
			check: isErr(syscall.EHOSTUNREACH),
		},
		{
			name: "bad URL",
			fail: func(t *testing.T) (string, error, string) {
				u := "http://[::1/"
				return u, do(t.Context(), loopbackClient(t), u), `missing ']' in host`
			},
			kind: Other,
		},
		{
			name: "too large",
			fail: func(t *testing.T) (string, error, string) {
				return "http://192.0.2.1/", &FetchError{Kind: TooLarge, Err: errors.New("more than 10 bytes")}, "too large: more than 10 bytes"
			},
			kind: TooLarge,
		},
		{
			name: "dry run",
			fail: func(t *testing.T) (string, error, string) {
				msg := "a POST request: a dry run sends only GET and HEAD requests"
				return "http://192.0.2.1/", &FetchError{Kind: Blocked, Err: errors.New(msg)}, msg
			},
			kind: Blocked,
		},
	}
}

func TestClassifyFetch(t *testing.T) {
	for _, tc := range fetchCases() {
		t.Run(tc.name, func(t *testing.T) {
			u, err, want := tc.fail(t)
			if err == nil {
				t.Fatalf("fetching %s did not fail", u)
			}
			fe := ClassifyFetch(u, err)
			if fe.Kind != tc.kind || fe.Error() != want {
				t.Errorf("ClassifyFetch(%q, %v) = %v %q, want %v %q", u, err, fe.Kind, fe.Error(), tc.kind, want)
			}
			if fe.URL != u {
				t.Errorf("ClassifyFetch(%q, ...).URL = %q", u, fe.URL)
			}
			if fe.Gone() {
				t.Errorf("ClassifyFetch(%q, %v).Gone() = true", u, err)
			}
			if tc.check != nil {
				tc.check(t, fe)
			}
		})
	}
}

func TestClassifyFetchNil(t *testing.T) {
	if fe := ClassifyFetch("http://x/", nil); fe != nil {
		t.Errorf("ClassifyFetch(nil) = %v, want nil", fe)
	}
}

// TestFetchErrorStatus: the server's answers, real ones, as StatusError says
// them; only 404 and 410 say the resource is gone.
func TestFetchErrorStatus(t *testing.T) {
	tests := []struct {
		status int
		kind   FetchErrorKind
		gone   bool
		want   string
	}{
		{404, HTTPStatus, true, "the server answered 404 Not Found"},
		{410, HTTPStatus, true, "the server answered 410 Gone"},
		{500, HTTPStatus, false, "the server answered 500 Internal Server Error"},
		{503, HTTPStatus, false, "the server answered 503 Service Unavailable"},
		{403, HTTPStatus, false, "the server answered 403 Forbidden"},
		{599, HTTPStatus, false, "the server answered 599"},
		{304, NotModified, false, "the server answered 304 Not Modified to a request without validators: no body to record"},
		{206, NotModified, false, "the server answered 206 Partial Content to a request without a range: no whole body to record"},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("status"))
		w.WriteHeader(n)
	}))
	defer srv.Close()
	c := loopbackClient(t)
	for _, tc := range tests {
		t.Run(strconv.Itoa(tc.status), func(t *testing.T) {
			u := srv.URL + "/?status=" + strconv.Itoa(tc.status)
			resp, err := c.Get(u)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			fe := StatusError(u, resp.StatusCode, http.StatusText(resp.StatusCode))
			if fe.Kind != tc.kind || fe.Status != tc.status || fe.Error() != tc.want || fe.Gone() != tc.gone {
				t.Errorf("StatusError(%d) = %v %d %q gone=%v, want %v %d %q gone=%v",
					resp.StatusCode, fe.Kind, fe.Status, fe.Error(), fe.Gone(), tc.kind, tc.status, tc.want, tc.gone)
			}
			// Carried as an error, it is classified as it is.
			if got := ClassifyFetch(u, fmt.Errorf("page: %w", fe)); *got != *fe {
				t.Errorf("ClassifyFetch(StatusError(%d)) = %+v, want %+v", tc.status, got, fe)
			}
		})
	}
	// A FetchError made without StatusError says its status the same way.
	fe := &FetchError{URL: srv.URL, Kind: HTTPStatus, Status: 410}
	if got, want := fe.Error(), "the server answered 410 Gone"; got != want || !fe.Gone() {
		t.Errorf("FetchError{410}.Error() = %q gone=%v, want %q gone=true", got, fe.Gone(), want)
	}
}

// TestFetchErrorWithoutCause: a FetchError made without a cause still
// says something.
func TestFetchErrorWithoutCause(t *testing.T) {
	tests := []struct {
		kind FetchErrorKind
		want string
	}{
		{Refused, "connection refused"},
		{DNS, "DNS lookup failed"},
		{TLS, "TLS: the handshake failed"},
		{Timeout, "timed out"},
		{Reset, "connection reset"},
		{Blocked, "refused by webcap"},
		{Scheme, "only http and https URLs are fetched"},
		{TooLarge, "too large"},
		{Interrupted, "interrupted"},
		{Other, "failed"},
		{FetchErrorKind(200), "FetchErrorKind(200)"},
	}
	for _, tc := range tests {
		fe := &FetchError{URL: "http://x/", Kind: tc.kind}
		if got := fe.Error(); got != tc.want {
			t.Errorf("FetchError{Kind: %v}.Error() = %q, want %q", tc.kind, got, tc.want)
		}
	}
}

// TestFetchErrorGuardAddr: a refusal keeps the address refused.
func TestFetchErrorGuardAddr(t *testing.T) {
	err := AddressPolicy{}.Check(netip.MustParseAddr("10.9.8.7"))
	fe := ClassifyFetch("http://10.9.8.7/", &net.OpError{Op: "dial", Net: "tcp", Err: err})
	var b *BlockedAddressError
	if fe.Kind != Blocked || !errors.As(fe, &b) || b.Addr != netip.MustParseAddr("10.9.8.7") || b.Class != Private {
		t.Errorf("ClassifyFetch(a refusal) = %v %+v, want blocked 10.9.8.7 private", fe.Kind, b)
	}
}

// TestFetchErrorLate: a page's resource that did not arrive within the
// time its page gives it says so, and is still a time-out.
func TestFetchErrorLate(t *testing.T) {
	fe := &FetchError{URL: "http://x/slow.gif", Kind: Timeout, Err: &lateError{15 * time.Second}}
	if got, want := fe.Error(), "did not arrive within 15s of its page's start: the page is printed without it"; got != want {
		t.Errorf("FetchError{late}.Error() = %q, want %q", got, want)
	}
	if !errors.Is(fe, context.DeadlineExceeded) || fe.Kind.String() != "timeout" {
		t.Errorf("FetchError{late}: Is(DeadlineExceeded) = %v, kind %s; want true, timeout", errors.Is(fe, context.DeadlineExceeded), fe.Kind)
	}
}
