package capture

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

func TestExpiry(t *testing.T) {
	fetched := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name   string
		header http.Header
		want   time.Time
		ok     bool
	}{
		{"nothing", http.Header{}, time.Time{}, false},
		{"max-age", http.Header{"Cache-Control": {"public, max-age=3600"}}, fetched.Add(time.Hour), true},
		{"max-age wins over Expires", http.Header{"Cache-Control": {"max-age=60"}, "Expires": {"Thu, 01 Jan 2037 00:00:00 GMT"}}, fetched.Add(time.Minute), true},
		{"smallest max-age", http.Header{"Cache-Control": {"max-age=600", "max-age=60"}}, fetched.Add(time.Minute), true},
		{"s-maxage ignored", http.Header{"Cache-Control": {"s-maxage=60"}, "Expires": {"Thu, 01 Jan 2037 00:00:00 GMT"}}, time.Date(2037, 1, 1, 0, 0, 0, 0, time.UTC), true},
		{"no-store", http.Header{"Cache-Control": {"no-store"}, "Expires": {"Thu, 01 Jan 2037 00:00:00 GMT"}}, fetched, true},
		{"no-cache", http.Header{"Cache-Control": {"No-Cache"}}, fetched, true},
		{"bad max-age", http.Header{"Cache-Control": {"max-age=soon"}}, fetched, true},
		{"Expires", http.Header{"Expires": {"Sun, 06 Nov 1994 08:49:37 GMT"}}, time.Date(1994, 11, 6, 8, 49, 37, 0, time.UTC), true},
		{"bad Expires", http.Header{"Expires": {"0"}}, fetched, true},
	} {
		got, ok := Expiry(tc.header, fetched)
		if ok != tc.ok || !got.Equal(tc.want) {
			t.Errorf("%s: Expiry = %v, %v; want %v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func TestStripCredentials(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://user:pw@example.com/a?b#c", "http://example.com/a?b#c"},
		{"http://user@example.com/", "http://example.com/"},
		{"http://example.com/@x", "http://example.com/@x"},
		{"http://[::1", "http://[::1"},
	} {
		got, had := StripCredentials(tc.in)
		if got != tc.want || had != (got != tc.in) {
			t.Errorf("StripCredentials(%q) = %q, %v; want %q", tc.in, got, had, tc.want)
		}
	}
}

func TestRobots(t *testing.T) {
	var fetches atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		fetches.Add(1)
		w.Write([]byte("User-agent: webcap\nDisallow: /private/\nAllow: /private/ok.html\n\nUser-agent: *\nDisallow: /\n"))
	}))
	defer srv.Close()
	ctx := context.Background()
	r := &Robots{Client: srv.Client(), Agent: "webcap"}
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"/", true}, {"/a.html", true}, {"/private/x.html", false}, {"/private/ok.html", true}, {"", true},
	} {
		err := r.Check(ctx, srv.URL+tc.path)
		if (err == nil) != tc.want {
			t.Errorf("webcap: Check(%s) = %v, want allowed %v", tc.path, err, tc.want)
		}
		if tc.want {
			continue
		}
		want := "robots.txt of " + srv.URL + " forbids it (--ignore-robots to fetch it anyway)"
		var re *RobotsError
		if !errors.As(err, &re) || re.Kind != RobotsForbidden || re.URL != srv.URL+tc.path || re.Error() != want {
			t.Errorf("webcap: Check(%s) = %#v, want a RobotsForbidden RobotsError %q", tc.path, err, want)
		}
	}
	if n := fetches.Load(); n != 1 {
		t.Errorf("robots.txt fetched %d times, want once", n)
	}
	other := &Robots{Client: srv.Client(), Agent: "somebot"}
	if other.Check(ctx, srv.URL+"/a.html") == nil {
		t.Error("somebot: allowed under User-agent: * Disallow: /")
	}
}

// TestRobotsAccess: what a robots.txt that is not read whole means (RFC
// 9309 §2.3.1.3, §2.3.1.4): a 4xx allows everything; a 5xx, a network
// error, a body cut short or one that does not arrive within Timeout
// allows nothing, and says why. A server that stalls blocks until the
// test ends: the Timeout, not a sleep, ends the wait.
func TestRobotsAccess(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	handlers := map[string]http.HandlerFunc{
		"404": func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) },
		"403": func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", http.StatusForbidden) },
		"503": func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, "User-agent: *\nAllow: /\n")
		},
		"304": func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotModified) },
		"cut short": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "100")
			io.WriteString(w, "User-agent: *\n")
		},
		"stalls": func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "User-agent: *\n")
			w.(http.Flusher).Flush()
			select {
			case <-release:
			case <-r.Context().Done():
			}
		},
		"stalls before its header": func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		},
	}
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close() // nothing listens there: connection refused
	for _, tc := range []struct {
		name    string
		allowed bool
		why     string // RobotsUnreachable: in the error's parentheses (a prefix)
	}{
		{"404", true, ""},
		{"403", true, ""},
		{"503", false, "HTTP 503 Service Unavailable"},
		{"304", false, "HTTP 304 Not Modified"},
		{"cut short", false, "its body was cut short: unexpected EOF"},
		{"stalls", false, "timeout after 50ms"},
		{"stalls before its header", false, "timeout after 50ms"},
		{"network error", false, "dial tcp "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			origin := closed.URL
			client := http.DefaultClient
			if h, ok := handlers[tc.name]; ok {
				srv := httptest.NewServer(h)
				defer srv.Close()
				origin, client = srv.URL, srv.Client()
			}
			// The time limit is short only where the server never
			// answers (it is what ends the fetch); an answer has a minute,
			// however loaded the machine.
			timeout := time.Minute
			if strings.HasPrefix(tc.name, "stalls") {
				timeout = 50 * time.Millisecond
			}
			r := &Robots{Client: client, Agent: "webcap", Timeout: timeout}
			for _, path := range []string{"/", "/a.html"} { // once fetched, the answer is kept
				err := r.Check(context.Background(), origin+path)
				if tc.allowed {
					if err != nil {
						t.Fatalf("Check(%s) = %v, want nil (everything allowed)", path, err)
					}
					continue
				}
				var re *RobotsError
				if !errors.As(err, &re) || re.Kind != RobotsUnreachable || re.Origin != origin || re.URL != origin+path {
					t.Fatalf("Check(%s) = %#v, want a RobotsUnreachable RobotsError of %s", path, err, origin)
				}
				prefix := "robots.txt of " + origin + " could not be read (" + tc.why
				suffix := "): RFC 9309 §2.3.1.4 assumes everything is forbidden (--ignore-robots to fetch it anyway)"
				if msg := err.Error(); !strings.HasPrefix(msg, prefix) || !strings.HasSuffix(msg, suffix) {
					t.Errorf("Check(%s) = %q, want %q...%q", path, msg, prefix, suffix)
				}
			}
		})
	}
}

// TestRobotsTimeout: a robots.txt whose server sends its header and then
// nothing takes no longer than the Timeout (in a crawl, the page time
// limit), and forbids everything (it is unreachable); every concurrent
// asker waits for the one fetch. The server blocks until the test ends.
func TestRobotsTimeout(t *testing.T) {
	release := make(chan struct{})
	var fetches atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		io.WriteString(w, "User-agent: *\n")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	r := &Robots{Client: srv.Client(), Agent: "webcap", Timeout: 50 * time.Millisecond}
	const askers = 4
	got := make(chan error, askers)
	for range askers {
		go func() { got <- r.Check(context.Background(), srv.URL+"/a.html") }()
	}
	for range askers {
		select {
		case err := <-got:
			var re *RobotsError
			if !errors.As(err, &re) || re.Kind != RobotsUnreachable {
				t.Errorf("a robots.txt that never ends: Check = %v, want a RobotsUnreachable RobotsError", err)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("Check still waits for a robots.txt that never ends, 30 s after its 50 ms timeout")
		}
	}
	if n := fetches.Load(); n != 1 {
		t.Errorf("robots.txt fetched %d times, want once", n)
	}
}

// TestRobotsCanceled: a caller whose context ends while another fetches
// the robots.txt is told so, at once; the fetch goes on for the others
// (the first asker's end is not the origin's "unreachable").
func TestRobotsCanceled(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		started <- struct{}{}
		select {
		case <-release:
		case <-r.Context().Done():
		}
		io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
	}))
	defer srv.Close()
	r := &Robots{Client: srv.Client(), Agent: "webcap", Timeout: time.Minute}
	first, cancelFirst := context.WithCancel(context.Background())
	firstErr := make(chan error, 1)
	go func() { firstErr <- r.Check(first, srv.URL+"/a.html") }()
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := r.Check(ctx, srv.URL+"/b.html"); !errors.Is(err, context.Canceled) {
		t.Errorf("Check with a canceled context while robots.txt is fetched = %v, want context.Canceled", err)
	}
	cancelFirst()
	if err := <-firstErr; !errors.Is(err, context.Canceled) {
		t.Errorf("Check of the asker that started the fetch, canceled = %v, want context.Canceled", err)
	}
	close(release) // robots.txt arrives: the fetch was not the first asker's
	if err := r.Check(context.Background(), srv.URL+"/a.html"); err != nil {
		t.Errorf("Check(/a.html) once robots.txt arrived = %v, want nil", err)
	}
	if err := r.Check(context.Background(), srv.URL+"/private/x.html"); err == nil {
		t.Error("Check(/private/x.html) once robots.txt arrived = nil, want forbidden")
	}
}

// TestRobotsUnreachableSkip: a page whose robots.txt could not be read is
// skipped by robots.txt's rule, but when its server cannot be reached at
// all (nothing listens, no such name), the skip is of that kind, and
// refresh says the page unreachable, as it would of the page itself.
func TestRobotsUnreachableSkip(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	tests := []struct {
		name       string
		err        error
		kind, stat string
	}{
		{"forbidden by a rule", &RobotsError{Origin: "http://a", Kind: RobotsForbidden}, SkipRobots, StatusUnchecked},
		{"time-out", &RobotsError{Origin: "http://a", Kind: RobotsUnreachable, Err: errors.New("timeout after 3s")}, SkipRobots, StatusUnchecked},
		{"5xx", &RobotsError{Origin: "http://a", Kind: RobotsUnreachable, Err: errors.New("HTTP 503 Service Unavailable")}, SkipRobots, StatusUnchecked},
		{"connection refused", &RobotsError{Origin: "http://a", Kind: RobotsUnreachable, Err: refused}, "refused", StatusUnreachable},
		{"loopback address refused", &RobotsError{Origin: "http://127.0.0.1:8080", Kind: RobotsUnreachable,
			Err: &url.Error{Op: "Get", URL: "http://127.0.0.1:8080/robots.txt", Err: &BlockedAddressError{Addr: netip.MustParseAddr("127.0.0.1"), Class: Loopback}}},
			"blocked", StatusUnchecked},
		{"no such host", &RobotsError{Origin: "http://a", Kind: RobotsUnreachable, Err: &net.DNSError{Err: "no such host", Name: "a", IsNotFound: true}}, "dns", StatusUnreachable},
	}
	for _, tt := range tests {
		s := (&crawler{}).skipOf(context.Background(), "http://a/p.html", tt.err)
		if s.Kind != tt.kind || skipStatus(s) != tt.stat || s.Reason != tt.err.Error() {
			t.Errorf("%s: skip %q (%s), %q; want %q (%s), the robots.txt reason", tt.name, s.Kind, skipStatus(s), s.Reason, tt.kind, tt.stat)
		}
	}
}

// TestRobotsZone: a URL whose host is an IPv6 address with a zone
// (fe80::1%lo, written %25lo) has its robots.txt asked for at that host,
// and the refusal of its address is what the skip says (the transport
// refuses it as the guard would: nothing connects to fe80::).
func TestRobotsZone(t *testing.T) {
	var asked []string
	client := &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		asked = append(asked, r.URL.String())
		return nil, &BlockedAddressError{Addr: netip.MustParseAddr("fe80::1%lo"), Class: LinkLocal}
	})}
	r := &Robots{Client: client, Agent: "webcap"}
	err := r.Check(context.Background(), "http://[fe80::1%25lo]:8080/p.html")
	if want := []string{"http://[fe80::1%25lo]:8080/robots.txt"}; !slices.Equal(asked, want) {
		t.Errorf("asked for %q, want %q", asked, want)
	}
	// The address is named first, with --allow-private: --ignore-robots
	// would fetch nothing more.
	want := "fe80::1%lo is a link-local address: refused"
	var re *RobotsError
	if !errors.As(err, &re) || re.Kind != RobotsUnreachable || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Check = %v, want a RobotsUnreachable RobotsError starting %q", err, want)
	}
	if strings.Contains(err.Error(), ignoreRobotsFlag) || !strings.Contains(err.Error(), AllowPrivateFlag) {
		t.Errorf("Check = %v, want %s named and not %s", err, AllowPrivateFlag, ignoreRobotsFlag)
	}
	if s := (&crawler{}).skipOf(context.Background(), "http://[fe80::1%25lo]:8080/p.html", err); s.Reason != err.Error() || s.Kind != Blocked.String() {
		t.Errorf("skip %q (%s), want the robots.txt reason, blocked", s.Reason, s.Kind)
	}
}
