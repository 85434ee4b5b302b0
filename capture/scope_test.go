package capture

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/webcap/webcap/webcapture"
)

func TestInScope(t *testing.T) {
	const (
		site = webcapture.SameSite
		path = webcapture.SamePath
	)
	for _, tc := range []struct {
		initial, candidate string
		flags              webcapture.Flags
		want               bool
	}{
		// The spec's example.
		{"http://www.example.com/fiddle/initial.html", "http://www.example.com/fiddle/faddle/foo.html", path, true},
		{"http://www.example.com/fiddle/initial.html", "http://www.example.com/fiddle/", path, true},
		{"http://www.example.com/fiddle/initial.html", "http://www.example.com/fiddle", path, false},
		{"http://www.example.com/fiddle/initial.html", "http://www.example.com/other/foo.html", path, false},
		// Path: case-sensitive; scheme and network location: not.
		{"http://www.example.com/fiddle/initial.html", "http://www.example.com/Fiddle/foo.html", path, false},
		{"http://www.example.com/fiddle/initial.html", "HTTP://WWW.EXAMPLE.COM/fiddle/foo.html", path, true},
		{"http://www.example.com/fiddle/initial.html", "https://www.example.com/fiddle/foo.html", path, false},
		{"http://www.example.com/fiddle/initial.html", "http://www.example.com:80/fiddle/foo.html", path, true},
		{"http://www.example.com/fiddle/initial.html", "http://www.example.com:8080/fiddle/foo.html", path, false},
		{"http://www.example.com/fiddle/initial.html", "http://other.example.com/fiddle/foo.html", path, false},
		{"http://www.example.com", "http://www.example.com/anything", path, true},
		{"http://www.example.com/a/b/", "http://www.example.com/a/b/c?q=1", path, true},
		// Site: the host and port, any scheme and path.
		{"http://www.example.com/a/", "https://WWW.example.com/z", site, true},
		{"http://www.example.com/a/", "http://www.example.com:81/z", site, false},
		{"http://www.example.com/a/", "http://example.com/z", site, false},
		{"http://[2001:db8::1]/a/", "http://[2001:DB8::1]/b", site, true},
		// Both flags, no flag, unparsable.
		{"http://www.example.com/a/x", "http://www.example.com/b/x", site | path, false},
		{"http://www.example.com/a/x", "http://www.example.com/a/y", site | path, true},
		{"http://www.example.com/a/x", "ftp://elsewhere/", 0, true},
		{"http://www.example.com/a/x", "http://[::1", site, false},
		{"http://www.example.com/a/x", "/relative", site, false},
	} {
		if got := InScope(tc.initial, tc.candidate, tc.flags); got != tc.want {
			t.Errorf("InScope(%q, %q, %v) = %v, want %v", tc.initial, tc.candidate, tc.flags, got, tc.want)
		}
	}
}

// TestMayLead: where a page's request leads (a redirect, or its script)
// is judged as a link to it would be: by its command's scope and by
// robots.txt, every hop; what is refused says where and why, and is
// skipped as scope or robots.
func TestMayLead(t *testing.T) {
	var pages atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
			return
		}
		pages.Add(1)
	}))
	defer srv.Close()
	site := srv.URL                                                // http://127.0.0.1:PORT
	other := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) // the same server, another host
	creds := strings.Replace(srv.URL, "http://", "http://alice:pw@", 1)
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close() // nothing listens there: its robots.txt is unreachable
	downAddr := strings.TrimPrefix(down.URL, "http://")
	tests := []struct {
		name     string
		start    Start
		to       string
		redirect bool
		ignore   bool   // IgnoreRobots
		kind     string // "": allowed
		reason   string
		level    int // the page's level; 0: 2, a link's
	}{
		{"same site", Start{URL: site + "/a/", Flags: webcapture.SameSite}, site + "/b.html", true, false, "", "", 0},
		{"another host", Start{URL: site + "/a/", Flags: webcapture.SameSite}, other + "/b.html", true, false, SkipScope,
			"redirects to " + other + "/b.html, outside the command's scope (SameSite of " + site + "/a/)", 0},
		{"another host by script", Start{URL: site + "/a/", Flags: webcapture.SameSite}, other + "/", false, false, SkipScope,
			"navigates to " + other + "/, outside the command's scope (SameSite of " + site + "/a/)", 0},
		{"another path", Start{URL: site + "/a/", Flags: webcapture.SamePath}, site + "/b/", true, false, SkipScope,
			"redirects to " + site + "/b/, outside the command's scope (SamePath of " + site + "/a/)", 0},
		{"same path, credentials left out", Start{URL: creds + "/a/", Flags: webcapture.SamePath}, site + "/a/b.html", true, false, "", "", 0},
		{"anywhere", Start{URL: site + "/a/"}, other + "/b.html", true, false, "", "", 0},
		{"robots.txt", Start{URL: site + "/a/"}, site + "/private/x.html", true, false, SkipRobots,
			"redirects to " + site + "/private/x.html, robots.txt of " + site + " forbids it (--ignore-robots to fetch it anyway)", 0},
		{"robots.txt ignored", Start{URL: site + "/a/"}, site + "/private/x.html", true, true, "", "", 0},
		{"scope before robots.txt", Start{URL: site + "/a/", Flags: webcapture.SameSite}, other + "/private/x.html", true, false, SkipScope,
			"redirects to " + other + "/private/x.html, outside the command's scope (SameSite of " + site + "/a/)", 0},
		{"the start URL redirects anywhere", Start{URL: site + "/a/", Flags: webcapture.SameSite}, other + "/b.html", true, false, "", "", 1},
		{"the start URL, not into robots.txt", Start{URL: site + "/a/", Flags: webcapture.SameSite}, site + "/private/x.html", true, false, SkipRobots,
			"redirects to " + site + "/private/x.html, robots.txt of " + site + " forbids it (--ignore-robots to fetch it anyway)", 1},
		{"robots.txt unreachable", Start{URL: site + "/a/"}, down.URL + "/b.html", false, false, SkipRobots,
			"navigates to " + down.URL + "/b.html, robots.txt of " + down.URL + " could not be read (dial tcp " + downAddr +
				": connect: connection refused): RFC 9309 §2.3.1.4 assumes everything is forbidden (--ignore-robots to fetch it anyway)", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cr := &crawler{opts: Options{IgnoreRobots: tc.ignore}, starts: []Start{tc.start}, robots: &Robots{Client: srv.Client(), Agent: "webcap"}}
			it := Item{URL: tc.start.URL + "link", Level: tc.level}
			if it.Level == 0 {
				it.Level = 2
			}
			err := cr.mayLead(context.Background(), it, tc.to, tc.redirect)
			if tc.kind == "" {
				if err != nil {
					t.Fatalf("mayLead(%s) = %v, want nil", tc.to, err)
				}
				return
			}
			var le *LeaveError
			if !errors.As(err, &le) || le.Kind != tc.kind || le.Error() != tc.reason {
				t.Fatalf("mayLead(%s) = %v, want a %s LeaveError %q", tc.to, err, tc.kind, tc.reason)
			}
			// As a page's skip: the request's FetchError wraps it.
			loading := fmt.Errorf("loading %s: %w", tc.start.URL, &FetchError{URL: tc.to, Kind: Blocked, Err: err})
			want := Skip{URL: tc.start.URL, Reason: tc.reason, Kind: tc.kind}
			if got := cr.skipOf(context.Background(), tc.start.URL, loading); got != want {
				t.Errorf("skipOf = %+v, want %+v", got, want)
			}
		})
	}
	if n := pages.Load(); n != 0 {
		t.Errorf("judging fetched %d pages: it asks robots.txt only", n)
	}
}

// TestWithoutCredentials: the links whose URLs are printed without their
// user information, and as what (StripCredentials decides).
func TestWithoutCredentials(t *testing.T) {
	in := []string{
		"http://alice:pw@example.com/a", "http://example.com/@b", "mailto:alice@example.com",
		"https://bob@example.com:8443/c?d#e", "http://[::1", "http://example.com/",
	}
	want := map[string]string{
		"http://alice:pw@example.com/a":      "http://example.com/a",
		"https://bob@example.com:8443/c?d#e": "https://example.com:8443/c?d#e",
	}
	if got := withoutCredentials(in); !maps.Equal(got, want) {
		t.Errorf("withoutCredentials(%q) = %v, want %v", in, got, want)
	}
	if got := withoutCredentials([]string{"http://example.com/@x"}); got != nil {
		t.Errorf("withoutCredentials without user information = %v, want nil (nothing to change)", got)
	}
}
