// The crawl's scope: which links a command may follow (its SameSite and
// SamePath flags).

package capture

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/webcap/webcap/webcapture"
)

// InScope reports whether a command whose initial URL is initial and whose
// flags are f may follow a link to candidate (PDF 1.7 Table 10.44; ISO
// 32000-1 §14.10.5.3):
//
//   - SameSite: candidate is on the initial URL's host: the same host
//     name, compared case-insensitively, and the same port (a default port
//     written out counts as left out);
//   - SamePath: candidate has the initial URL's scheme and network location,
//     compared case-insensitively, and its path starts with the initial
//     URL's path up to and including its last '/', compared
//     case-sensitively: /fiddle/faddle/foo.html is in the path of
//     /fiddle/initial.html.
//
// With neither flag every link is in scope. Both URLs should be absolute;
// a URL that does not parse is never in scope under a flag.
func InScope(initial, candidate string, f webcapture.Flags) bool {
	if f&(webcapture.SameSite|webcapture.SamePath) == 0 {
		return true
	}
	a, err1 := url.Parse(initial)
	b, err2 := url.Parse(candidate)
	if err1 != nil || err2 != nil || a.Host == "" || b.Host == "" {
		return false
	}
	if f&webcapture.SameSite != 0 && !sameHost(a, b) {
		return false
	}
	if f&webcapture.SamePath != 0 {
		if !strings.EqualFold(a.Scheme, b.Scheme) || !strings.EqualFold(netloc(a), netloc(b)) {
			return false
		}
		dir := a.EscapedPath()
		if i := strings.LastIndexByte(dir, '/'); i >= 0 {
			dir = dir[:i+1]
		} else {
			dir = "/"
		}
		p := b.EscapedPath()
		if p == "" {
			p = "/"
		}
		if !strings.HasPrefix(p, dir) {
			return false
		}
	}
	return true
}

func sameHost(a, b *url.URL) bool {
	return strings.EqualFold(a.Hostname(), b.Hostname()) && port(a) == port(b)
}

// netloc is the network location: user information, host and port, with a
// default port left out.
func netloc(u *url.URL) string {
	s := u.Hostname()
	if strings.Contains(s, ":") {
		s = "[" + s + "]"
	}
	if p := port(u); p != "" {
		s += ":" + p
	}
	if u.User != nil {
		s = u.User.String() + "@" + s
	}
	return s
}

// port is u's port, empty when it is the scheme's default.
func port(u *url.URL) string {
	p := u.Port()
	switch {
	case p == "80" && strings.EqualFold(u.Scheme, "http"),
		p == "443" && strings.EqualFold(u.Scheme, "https"),
		p == "21" && strings.EqualFold(u.Scheme, "ftp"):
		return ""
	}
	return p
}

// scopeReason says why a URL is outside s's scope.
func scopeReason(s Start) string {
	return fmt.Sprintf("outside the command's scope (%v of %s)", s.Flags&(webcapture.SameSite|webcapture.SamePath), s.URL)
}

// ignoreRobotsFlag is the command-line flag that fetches what robots.txt
// forbids (Options.IgnoreRobots), as refusals name it.
const ignoreRobotsFlag = "--ignore-robots"

// A LeaveError is a page load webcap refused where it led: a redirect, or
// the page's script or refresh, took the page of a command outside the
// command's scope, or to a URL robots.txt forbids. The load stops there:
// nothing is fetched from URL, and the page is not captured.
type LeaveError struct {
	URL      string // where the load led
	Redirect bool   // by a redirect (else by the page's script or refresh)
	Kind     string // SkipScope or SkipRobots
	Reason   string // why URL may not be loaded
	Err      error  // SkipRobots: the *RobotsError
}

func (e *LeaveError) Unwrap() error { return e.Err }

func (e *LeaveError) Error() string {
	how := "navigates to"
	if e.Redirect {
		how = "redirects to"
	}
	return how + " " + e.URL + ", " + e.Reason
}

// mayLead says whether the page of it may be loaded from u, where its
// request led (by a redirect, or else by the page's script or refresh):
// only if a link to u would have been followed, within the command's
// scope and what robots.txt allows (*LeaveError if not). The URLs are
// compared without their user information, which the browser leaves out
// of the URLs it requests. A start URL's own redirects leave the scope
// freely: the user asked for that page, wherever it now is (the
// command's scope stays its URL's); robots.txt still holds there.
func (cr *crawler) mayLead(ctx context.Context, it Item, u string, redirect bool) error {
	s := cr.starts[it.Command]
	start, _ := StripCredentials(s.URL)
	to, _ := StripCredentials(u)
	if !(it.Level == 1 && !it.Revisit) && !InScope(start, to, s.Flags) {
		return &LeaveError{URL: u, Redirect: redirect, Kind: SkipScope, Reason: scopeReason(s)}
	}
	err := cr.checkRobots(ctx, u)
	var re *RobotsError
	if errors.As(err, &re) {
		return &LeaveError{URL: u, Redirect: redirect, Kind: SkipRobots, Reason: re.Error(), Err: re}
	}
	return err // nil, or ctx ended before robots.txt answered
}

// checkRobots is nil if robots.txt lets the crawl fetch u (or it is
// ignored), else why not: a *RobotsError, or the cause of ctx's end.
func (cr *crawler) checkRobots(ctx context.Context, u string) error {
	if cr.opts.IgnoreRobots {
		return nil
	}
	return cr.robots.Check(ctx, u)
}
