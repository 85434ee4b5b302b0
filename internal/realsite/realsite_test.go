package realsite

import (
	"crypto/md5"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/webcap/webcap/webcapture"
)

// TestWantID checks the site's own bookkeeping without a browser: every
// page set's WantID, from the bodies a plain client fetched (gzip
// undone), equals webcapture.PageSetID over the same bodies (the page's
// references found by the identifier rule, not by the site's list), or
// the file's MD5 for the PDF; the slow page's never-answered image is the
// one reference left out. It also checks that gzip and chunked answers
// were sent, and profile.html's two texts.
func TestWantID(t *testing.T) {
	site, err := New()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(site)
	defer srv.Close()
	defer site.Stop()
	get := func(path string, cookie bool) (string, []byte) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		if cookie {
			req.AddCookie(&http.Cookie{Name: "session", Value: "u12345"})
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %v", path, resp.StatusCode, err)
		}
		return resp.Header.Get("Content-Type"), body
	}
	aux := webcapture.MapSource{}
	for path := range site.files {
		if !strings.HasSuffix(path, ".html") || strings.HasPrefix(path, "/frames/") {
			_, aux[srv.URL+path] = get(path, false)
		}
	}
	for _, path := range Pages {
		ct, body := get(path, false)
		want, err := site.WantID(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		var got webcapture.ID
		if path == PDF {
			got = webcapture.ID(md5.Sum(body))
		} else {
			res, err := webcapture.PageSetID(body, webcapture.PageSetOptions{URL: srv.URL + path, ContentType: ct, Aux: aux})
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			var left []string
			for _, a := range res.Aux {
				if !a.Found {
					left = append(left, strings.TrimPrefix(a.URL, srv.URL))
				}
			}
			if wantLeft := map[bool]string{true: Never}[path == Slow]; strings.Join(left, " ") != wantLeft {
				t.Errorf("%s: references not found %q, want %q", path, left, wantLeft)
			}
			got = res.ID
		}
		if !strings.EqualFold(got.String(), want) {
			t.Errorf("%s: PageSetID %s, WantID %s", path, got, want)
		}
	}
	if n := site.Counts(); n.Gzipped == 0 || n.Chunked == 0 {
		t.Errorf("counts %+v: no gzip or no chunked answer", n)
	}
	for cookie, want := range map[bool]string{false: "<p>Not signed in</p>", true: "<p>Signed in as u12345</p>"} {
		if _, body := get(Profile, cookie); !strings.Contains(string(body), want) {
			t.Errorf("%s (cookie %v) lacks %q:\n%s", Profile, cookie, want, body)
		}
	}
}
