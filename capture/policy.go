package capture

import (
	"context"
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

// Robots answers whether robots.txt lets an agent fetch a URL. It fetches
// each host's robots.txt once, however many ask at once; a robots.txt
// that cannot be fetched, or a 4xx answer, allows everything, and a 5xx
// answer allows nothing (RFC 9309 §2.3.1). One that does not arrive whole
// within Timeout counts as one that cannot be fetched: a server that
// sends its header and then nothing would otherwise hold the crawl up
// until its own time limit.
type Robots struct {
	Client  *http.Client  // nil: http.DefaultClient
	Agent   string        // the user agent named in the rules
	Timeout time.Duration // bounds each robots.txt's fetch, its body's included; 0: 30 s

	mu    sync.Mutex
	hosts map[string]*robotsEntry
}

// robotsEntry is one origin's robots.txt: data once done is closed.
type robotsEntry struct {
	done chan struct{}
	data *robotstxt.RobotsData
}

// Allowed reports whether r's agent may fetch u. A caller whose ctx ends
// while another fetches the same robots.txt is told no.
func (r *Robots) Allowed(ctx context.Context, u string) bool {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return false
	}
	origin := p.Scheme + "://" + p.Host
	r.mu.Lock()
	if r.hosts == nil {
		r.hosts = map[string]*robotsEntry{}
	}
	e, ok := r.hosts[origin]
	if !ok {
		e = &robotsEntry{done: make(chan struct{})}
		r.hosts[origin] = e
	}
	r.mu.Unlock()
	if !ok {
		e.data = r.fetch(ctx, origin)
		close(e.done)
	}
	select {
	case <-e.done:
	default:
		select {
		case <-e.done:
		case <-ctx.Done():
			return false
		}
	}
	path := p.EscapedPath()
	if path == "" {
		path = "/"
	}
	if p.RawQuery != "" {
		path += "?" + p.RawQuery
	}
	return e.data.TestAgent(path, r.Agent)
}

func (r *Robots) fetch(ctx context.Context, origin string) *robotstxt.RobotsData {
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
	all, _ := robotstxt.FromStatusAndBytes(http.StatusNotFound, nil)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, origin+"/robots.txt", nil)
	if err != nil {
		return all
	}
	if r.Agent != "" {
		req.Header.Set("User-Agent", r.Agent)
	}
	resp, err := client.Do(req)
	if err != nil {
		return all
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 500<<10)) // RFC 9309 §2.5: at least 500 KiB
	if err != nil {
		return all
	}
	d, err := robotstxt.FromStatusAndBytes(resp.StatusCode, body)
	if err != nil {
		return all
	}
	return d
}
