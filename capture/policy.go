package capture

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/temoto/robotstxt"
)

// Expiry is when a response goes out of date, for a source's /E: by
// Cache-Control max-age (s-maxage is for shared caches and is ignored),
// else by Expires (RFC 9111 §4.2.1). no-store, no-cache, max-age=0 and an
// Expires that does not parse mean it is out of date when fetched. ok is
// false when the response says nothing.
func Expiry(h http.Header, fetched time.Time) (t time.Time, ok bool) {
	var maxAge = -1
	for _, v := range h.Values("Cache-Control") {
		for _, d := range strings.Split(v, ",") {
			name, val, _ := strings.Cut(strings.TrimSpace(d), "=")
			switch strings.ToLower(name) {
			case "no-store", "no-cache":
				return fetched, true
			case "max-age":
				n, err := strconv.Atoi(strings.Trim(val, `"`))
				if err != nil || n < 0 {
					return fetched, true
				}
				if maxAge < 0 || n < maxAge {
					maxAge = n
				}
			}
		}
	}
	if maxAge >= 0 {
		return fetched.Add(time.Duration(maxAge) * time.Second), true
	}
	if v := h.Get("Expires"); v != "" {
		t, err := http.ParseTime(v)
		if err != nil {
			return fetched, true
		}
		return t, true
	}
	return time.Time{}, false
}

// StripCredentials removes the user information from a URL that carries
// it ("http://user:pw@host/" becomes "http://host/"), so that passwords
// are not written into a PDF. It reports whether there was any.
func StripCredentials(u string) (string, bool) {
	p, err := url.Parse(u)
	if err != nil || p.User == nil {
		return u, false
	}
	p.User = nil
	return p.String(), true
}

// Robots answers whether robots.txt lets an agent fetch a URL, and if not,
// why (Check). It fetches each origin's robots.txt once, however many ask
// at once, and keeps the answer for the crawl. What the answer means
// follows RFC 9309 §2.3.1:
//
//   - 2xx: its rules hold (§2.3.1.1); redirects are followed (§2.3.1.2).
//   - 4xx: "the crawler MAY access any resources on the server"
//     (§2.3.1.3, "Unavailable" status): everything is allowed.
//   - 5xx, a network error, a body cut short, or an answer that does not
//     arrive whole within Timeout: "If the robots.txt file is unreachable
//     due to server or network errors, this means the robots.txt file is
//     undefined and the crawler MUST assume complete disallow" (§2.3.1.4,
//     "Unreachable" status): nothing on the origin is allowed. So is any
//     other status (1xx, an unfollowed 3xx), which the RFC does not name.
//
// Timeout bounds the fetch, its body's included: a server that sends its
// header and then nothing would otherwise hold the crawl up until its own
// time limit. The fetch does not end with the context of the caller that
// started it (only with Timeout), so one caller's page time limit or
// cancellation does not become every later caller's "unreachable".
type Robots struct {
	Client  *http.Client  // nil: http.DefaultClient
	Agent   string        // the user agent named in the rules
	Timeout time.Duration // bounds each robots.txt's fetch, its body's included; 0: 30 s

	mu      sync.Mutex
	hosts   map[string]*robotsEntry
	answers []*Response // every answer received, for a WARC (take)
}

// robotsEntry is one origin's robots.txt: data and err once done is
// closed; err (a *RobotsError without URL) when it could not be read.
type robotsEntry struct {
	done chan struct{}
	data *robotstxt.RobotsData
	err  *RobotsError
}

// RobotsKind says why robots.txt does not let a URL be fetched.
type RobotsKind int

const (
	RobotsForbidden   RobotsKind = iota // a rule of the origin's robots.txt forbids the URL
	RobotsUnreachable                   // the origin's robots.txt could not be read: everything is forbidden (RFC 9309 §2.3.1.4)
)

// A RobotsError is a URL that robots.txt does not let the agent fetch.
// Its message says why, and how to fetch it anyway; it does not repeat
// the URL, which its callers name.
type RobotsError struct {
	URL    string     // the URL asked about
	Origin string     // whose robots.txt: scheme://host[:port]
	Kind   RobotsKind // forbidden by a rule, or robots.txt unreachable
	Err    error      // RobotsUnreachable: why robots.txt could not be read
}

func (e *RobotsError) Error() string {
	var b *BlockedAddressError
	if e.Kind == RobotsUnreachable && errors.As(e.Err, &b) {
		// The address is the cause, of the page's refusal as of its
		// robots.txt's: --ignore-robots would not fetch it either.
		return fmt.Sprintf("%v (robots.txt of %s was not fetched for the same reason)", b, e.Origin)
	}
	if e.Kind == RobotsUnreachable {
		return fmt.Sprintf("robots.txt of %s could not be read (%v): RFC 9309 §2.3.1.4 assumes everything is forbidden (%s to fetch it anyway)", e.Origin, e.Err, ignoreRobotsFlag)
	}
	return fmt.Sprintf("robots.txt of %s forbids it (%s to fetch it anyway)", e.Origin, ignoreRobotsFlag)
}

func (e *RobotsError) Unwrap() error { return e.Err }

// Check says whether r's agent may fetch u: nil if so, else a
// *RobotsError saying why. A URL without a host is forbidden. A caller
// whose ctx ends before the answer is known gets ctx's cause, wrapped.
func (r *Robots) Check(ctx context.Context, u string) error {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return &RobotsError{URL: u, Origin: u, Kind: RobotsUnreachable, Err: errors.New("the URL has no host")}
	}
	// Built, not joined: a host's IPv6 zone ("[fe80::1%lo]") is escaped
	// ("%25lo"), so that origin+"/robots.txt" is a URL.
	origin := (&url.URL{Scheme: p.Scheme, Host: p.Host}).String()
	e := r.entry(ctx, origin)
	select {
	case <-e.done:
	default:
		select {
		case <-e.done:
		case <-ctx.Done():
			return fmt.Errorf("robots.txt of %s: %w", origin, context.Cause(ctx))
		}
	}
	if e.err != nil {
		re := *e.err
		re.URL = u
		return &re
	}
	path := p.EscapedPath()
	if path == "" {
		path = "/"
	}
	if p.RawQuery != "" {
		path += "?" + p.RawQuery
	}
	if !e.data.TestAgent(path, r.Agent) {
		return &RobotsError{URL: u, Origin: origin, Kind: RobotsForbidden}
	}
	return nil
}

// entry is origin's robots.txt, its fetch started by the first to ask.
func (r *Robots) entry(ctx context.Context, origin string) *robotsEntry {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.hosts == nil {
		r.hosts = map[string]*robotsEntry{}
	}
	e, ok := r.hosts[origin]
	if !ok {
		e = &robotsEntry{done: make(chan struct{})}
		r.hosts[origin] = e
		// Detached from the asker's cancellation (its values kept):
		// Timeout alone ends it.
		go func() {
			defer close(e.done)
			data, err := r.fetch(context.WithoutCancel(ctx), origin)
			if err != nil {
				e.err = &RobotsError{Origin: origin, Kind: RobotsUnreachable, Err: err}
				return
			}
			e.data = data
		}()
	}
	return e
}

// fetch reads origin's robots.txt: its rules, or why it is unreachable
// (RFC 9309 §2.3.1.4). A 4xx is every URL allowed (§2.3.1.3).
func (r *Robots) fetch(ctx context.Context, origin string) (*robotstxt.RobotsData, error) {
	client := r.Client
	if client == nil {
		client = http.DefaultClient
	}
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// unreachable names why, a timeout as one whatever the layer said.
	unreachable := func(err error) error {
		if ctx.Err() != nil {
			return fmt.Errorf("timeout after %v", timeout)
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			return ue.Err // without "Get URL": the origin is named
		}
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, origin+"/robots.txt", nil)
	if err != nil {
		return nil, err
	}
	if r.Agent != "" {
		req.Header.Set("User-Agent", r.Agent)
	}
	c := *client
	c.CheckRedirect = func(next *http.Request, via []*http.Request) error {
		r.keep(next.Response) // its body not yet closed: Go's client checks first
		if client.CheckRedirect != nil {
			return client.CheckRedirect(next, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, unreachable(err)
	}
	defer resp.Body.Close()
	if code := resp.StatusCode; code < 200 || code >= 300 {
		r.keep(resp)
	}
	switch code := resp.StatusCode; {
	case code >= 400 && code < 500:
		return robotstxt.FromStatusAndBytes(code, nil) // allows everything
	case code < 200 || code >= 300:
		return nil, fmt.Errorf("HTTP %s", resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 500<<10)) // RFC 9309 §2.5: at least 500 KiB
	if err != nil {
		return nil, unreachable(fmt.Errorf("its body was cut short: %w", err))
	}
	r.keepBody(resp, body)
	d, err := robotstxt.FromBytes(body)
	if err != nil {
		// Rules it cannot parse: as before RFC 9309's rule, no rule
		// holds. Read, it is not unreachable.
		return robotstxt.FromStatusAndBytes(http.StatusNotFound, nil)
	}
	return d, nil
}

// robotsArchived bounds the body of a robots.txt answer kept for a WARC
// (RFC 9309 §2.5's 500 KiB, which is all that is read of it).
const robotsArchived = 500 << 10

// keep records resp, an answer whose body is not read otherwise, reading
// at most robotsArchived bytes of it.
func (r *Robots) keep(resp *http.Response) {
	if resp == nil {
		return
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, robotsArchived))
	r.keepBody(resp, body)
}

// keepBody records resp, with body, among the answers a WARC archives.
func (r *Robots) keepBody(resp *http.Response, body []byte) {
	a := &Response{URL: resp.Request.URL.String(), Method: http.MethodGet, Status: resp.StatusCode, Header: resp.Header,
		Body: body, Fetched: time.Now().UTC()}
	a.Redirect = resp.StatusCode >= 300 && resp.StatusCode < 400 && resp.Header.Get("Location") != ""
	a.sent(resp.Request, nil, resp)
	r.mu.Lock()
	r.answers = append(r.answers, a)
	r.mu.Unlock()
}

// take returns the answers received since the last take, in the order
// received: every robots.txt fetch's, each redirect included, for a WARC.
func (r *Robots) take() []*Response {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.answers
	r.answers = nil
	return out
}
