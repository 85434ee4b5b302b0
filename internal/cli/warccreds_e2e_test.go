package cli

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/webcap/webcap/warc"
)

// TestCaptureWARCCredentials: a site whose first page sets an HttpOnly
// session cookie that the second page's request carries (--session: one
// browser context for the crawl, in queue order). capture --warc
// writes no byte of the cookie's value (the second page's request record
// says "Cookie: (redacted)", the first page's response "Set-Cookie:
// (redacted)", the warcinfo names the fields) and every record's digests
// verify; --warc-keep-credentials writes the cookie as sent.
func TestCaptureWARCCredentials(t *testing.T) {
	browserSuite(t)
	const secret = "S3SSION-5ecret-value"
	var got atomic.Int32 // requests of page 2 that carried the cookie
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/":
			http.SetCookie(w, &http.Cookie{Name: "sid", Value: secret, Path: "/", HttpOnly: true})
			io.WriteString(w, `<!DOCTYPE html><html><head><title>One</title></head><body><a href="/two">two</a></body></html>`)
		case "/two":
			if c, err := r.Cookie("sid"); err == nil && c.Value == secret {
				got.Add(1)
			}
			io.WriteString(w, `<!DOCTYPE html><html><head><title>Two</title></head><body><p>Two.</p></body></html>`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	for _, keep := range []bool{false, true} {
		dir := t.TempDir()
		pdf, archive := filepath.Join(dir, "site.pdf"), filepath.Join(dir, "site.warc")
		args := []string{"capture", "--json", "--ignore-robots", "--levels", "2", "--session", "--wait-idle", "50ms", "--warc", archive}
		if keep {
			args = append(args, "--warc-keep-credentials")
		}
		var sum struct{}
		before := got.Load()
		if code := runJSON(t, &sum, append(args, srv.URL+"/", "-o", pdf)...); code != 0 {
			t.Fatalf("keep %v: capture: exit %d", keep, code)
		}
		if got.Load() == before {
			t.Fatalf("keep %v: page two's request carried no session cookie: the test checks nothing", keep)
		}
		data, err := os.ReadFile(archive)
		if err != nil {
			t.Fatal(err)
		}
		if has := bytes.Contains(data, []byte(secret)); has != keep {
			t.Errorf("keep %v: the WARC holds the cookie's value: %v", keep, has)
		}
		var blocks []byte
		rd := warc.NewReader(bytes.NewReader(data))
		for {
			rec, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := rec.VerifyDigests(); err != nil {
				t.Errorf("keep %v: %s %s: %v", keep, rec.Type(), rec.TargetURI(), err)
			}
			if rec.Type() == warc.TypeRequest && rec.TargetURI() == srv.URL+"/two" {
				want := "\r\nCookie: (redacted)\r\n"
				if keep {
					want = "\r\nCookie: sid=" + secret + "\r\n"
				}
				if !bytes.Contains(rec.Block, []byte(want)) {
					t.Errorf("keep %v: page two's request record %q, want it to hold %q", keep, rec.Block, want)
				}
			}
			blocks = append(blocks, rec.Block...)
		}
		const info = "webcap-redacted-headers: Cookie, Authorization, Proxy-Authorization, Set-Cookie\r\n"
		if strings.Contains(string(blocks), info) == keep {
			t.Errorf("keep %v: the warcinfo's %q", keep, strings.TrimSpace(info))
		}
		if !keep && !strings.Contains(string(blocks), "\r\nSet-Cookie: (redacted)\r\n") {
			t.Errorf("page one's response record has no redacted Set-Cookie")
		}
	}
}
