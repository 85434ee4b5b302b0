package capture

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
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
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		fetches.Add(1)
		w.WriteHeader(status)
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
		if got := r.Allowed(ctx, srv.URL+tc.path); got != tc.want {
			t.Errorf("webcap: Allowed(%s) = %v, want %v", tc.path, got, tc.want)
		}
	}
	if n := fetches.Load(); n != 1 {
		t.Errorf("robots.txt fetched %d times, want once", n)
	}
	other := &Robots{Client: srv.Client(), Agent: "somebot"}
	if other.Allowed(ctx, srv.URL+"/a.html") {
		t.Error("somebot: allowed under User-agent: * Disallow: /")
	}
	status = http.StatusServiceUnavailable
	if (&Robots{Client: srv.Client(), Agent: "webcap"}).Allowed(ctx, srv.URL+"/a.html") {
		t.Error("a 5xx robots.txt must allow nothing")
	}
	status = http.StatusNotFound
	if !(&Robots{Client: srv.Client(), Agent: "somebot"}).Allowed(ctx, srv.URL+"/a.html") {
		t.Error("a 404 robots.txt must allow everything")
	}
	srv.Close()
	if !(&Robots{Agent: "webcap"}).Allowed(ctx, srv.URL+"/a.html") {
		t.Error("an unreachable robots.txt allows everything")
	}
}

// TestRobotsTimeout: a robots.txt whose server sends its header and then
// nothing takes no longer than the Timeout (in a crawl, the page time
// limit), and counts as one that cannot be fetched; every concurrent
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
	got := make(chan bool, askers)
	for range askers {
		go func() { got <- r.Allowed(context.Background(), srv.URL+"/a.html") }()
	}
	for range askers {
		select {
		case ok := <-got:
			if !ok {
				t.Error("a robots.txt that never ends: Allowed = false, want true (it cannot be fetched)")
			}
		case <-time.After(30 * time.Second):
			t.Fatal("Allowed still waits for a robots.txt that never ends, 30 s after its 50 ms timeout")
		}
	}
	if n := fetches.Load(); n != 1 {
		t.Errorf("robots.txt fetched %d times, want once", n)
	}
}

// TestRobotsCanceled: a caller whose context ends while another fetches
// the robots.txt is told no, at once.
func TestRobotsCanceled(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	r := &Robots{Client: srv.Client(), Agent: "webcap", Timeout: time.Minute}
	go r.Allowed(context.Background(), srv.URL+"/a.html")
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r.Allowed(ctx, srv.URL+"/b.html") {
		t.Error("Allowed with a canceled context while robots.txt is fetched = true, want false")
	}
}
