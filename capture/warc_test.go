package capture

import (
	"bytes"
	"compress/gzip"
	"crypto/md5"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/warc"
	"github.com/webcap/webcap/webcapture"
)

// TestWriteWARC: a capture's WARC reads back (package warc), every record
// verifies, a page's identifier recomputed from the archive alone equals
// the one computed from the fetched bodies, a repeated payload is a
// revisit, requests are concurrent to their responses, and the PDF is a
// resource record that refers to the responses.
func TestWriteWARC(t *testing.T) {
	at := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	html := []byte(`<html><img src="a.gif"><img src="b.gif"></html>`)
	gif := []byte("GIF89a same bytes")
	resp := func(u, ct string, body []byte) *Response {
		return &Response{URL: u, Method: "GET", Status: 200, Header: http.Header{"Content-Type": {ct}, "Content-Length": {"999"}},
			Body: body, Fetched: at, Sent: http.Header{"User-Agent": {"test"}}, Proto: "HTTP/1.1", StatusLine: "200 OK", Uncompressed: true}
	}
	page := &Page{Requested: "http://user:pw@example.com/", URL: "http://example.com/",
		Responses: []*Response{resp("http://user:pw@example.com/", "text/html", html), resp("http://example.com/a.gif", "image/gif", gif)},
		Aux:       []*Response{resp("http://example.com/b.gif", "image/gif", gif)}}
	res := &Result{PDF: []byte("%PDF-1.7 not really"), Pages: []*Page{page}}
	var buf bytes.Buffer
	if err := WriteWARC(&buf, true, res.Pages, res.PDF, WARCInfo{Filename: "x.warc.gz", Software: "webcap/test", Command: "webcap capture", Args: []string{"http://user:pw@example.com/"}, Date: at}); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(buf.Bytes(), []byte("pw@")) {
		t.Error("the WARC holds the URL's password")
	}
	var types []string
	byID := map[string]*warc.Record{}
	var recs []*warc.Record
	for _, rec := range warcRecords(t, buf.Bytes()) {
		if rec.Type() != warc.TypeWarcinfo && !strings.HasPrefix(rec.Header.Get(warc.FieldBlockDigest), "sha256:") {
			t.Errorf("%s: block digest %q", rec.Type(), rec.Header.Get(warc.FieldBlockDigest))
		}
		types = append(types, rec.Type())
		byID[rec.ID()] = rec
		recs = append(recs, rec)
	}
	want := "warcinfo request response request response request revisit resource"
	if got := strings.Join(types, " "); got != want {
		t.Fatalf("records = %s, want %s", got, want)
	}
	for _, rec := range recs {
		if rec.Type() == warc.TypeRequest && byID[rec.Header.Get(warc.FieldConcurrentTo)] == nil {
			t.Errorf("request %s: WARC-Concurrent-To %q names no record", rec.TargetURI(), rec.Header.Get(warc.FieldConcurrentTo))
		}
	}
	pdf := recs[len(recs)-1]
	if pdf.TargetURI() != "urn:pdf:http://example.com/" || !bytes.Equal(pdf.Block, res.PDF) {
		t.Errorf("resource %s: %d bytes", pdf.TargetURI(), len(pdf.Block))
	}
	var refs []string
	for _, f := range pdf.Header {
		if strings.EqualFold(f.Name, warc.FieldRefersTo) {
			refs = append(refs, f.Value)
			if r := byID[f.Value]; r == nil || r.Type() != warc.TypeResponse {
				t.Errorf("WARC-Refers-To %s is not a response record", f.Value)
			}
		}
	}
	if len(refs) != 2 { // the page, and a.gif (b.gif's revisit refers to it)
		t.Errorf("WARC-Refers-To %d records, want 2", len(refs))
	}
	if z, err := gzip.NewReader(bytes.NewReader(buf.Bytes())); err != nil {
		t.Fatal(err)
	} else if z.Multistream(false); true {
		one, _ := io.ReadAll(z)
		if !bytes.HasPrefix(one, []byte("WARC/1.1\r\nWARC-Type: warcinfo")) || bytes.Count(one, []byte("WARC/1.1\r\n")) != 1 {
			t.Errorf("the first gzip member is not the warcinfo record alone: %.60q", one)
		}
	}

	src, err := warc.LoadReader(bytes.NewReader(buf.Bytes()), "x.warc.gz", canon.PDF, warc.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if len(src.Problems) > 0 {
		t.Errorf("problems: %v", src.Problems)
	}
	fromWARC := func(u, ct string) webcapture.ID {
		rc, err := src.Open(u)
		if err != nil {
			t.Fatalf("Open(%s): %v", u, err)
		}
		body, _ := io.ReadAll(rc)
		rc.Close()
		s, err := webcapture.SourceID(body, webcapture.SourceOptions{ContentType: ct, URL: u, Aux: src, Profile: canon.PDF})
		if err != nil {
			t.Fatal(err)
		}
		return s.ID
	}
	f := fetched{}
	f.put("http://example.com/a.gif", gif)
	f.put("http://example.com/b.gif", gif)
	direct, err := page.Responses[0].SourceID(f, canon.PDF)
	if err != nil {
		t.Fatal(err)
	}
	if !direct.Complete() {
		t.Fatalf("the page's auxiliary files were not all found: %+v", direct.Page.Aux)
	}
	if got := fromWARC("http://example.com/", "text/html"); got != direct.ID {
		t.Errorf("page ID from the WARC = %v, want %v", got, direct.ID)
	}
	if got, want := fromWARC("http://example.com/b.gif", "image/gif"), webcapture.ID(md5.Sum(gif)); got != want {
		t.Errorf("b.gif (a revisit) ID from the WARC = %v, want %v", got, want)
	}
}

// TestWriteWARCCredentials: without KeepCredentials, a request's Cookie,
// Authorization and Proxy-Authorization and a response's Set-Cookie are
// written with the value Redacted (the name kept), URLs without their
// user information, and the warcinfo names the fields; with it, all are
// written as sent. Every record's digests verify over the block as
// written.
func TestWriteWARCCredentials(t *testing.T) {
	at := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	const secret = "s3cr3t-session"
	r := &Response{URL: "http://user:pw@example.com/", Method: "GET", Status: 200, Fetched: at, Proto: "HTTP/1.1", StatusLine: "200 OK",
		Header: http.Header{"Content-Type": {"text/html"}, "Set-Cookie": {"sid=" + secret + "; HttpOnly"}},
		Body:   []byte("<html>hi</html>"),
		Sent: http.Header{"User-Agent": {"test"}, "Cookie": {"sid=" + secret, "b=" + secret}, "Authorization": {"Basic " + secret},
			"Proxy-Authorization": {"Bearer " + secret}}}
	pages := []*Page{{Requested: r.URL, URL: r.URL, Responses: []*Response{r}}}
	const infoLine = "webcap-redacted-headers: Cookie, Authorization, Proxy-Authorization, Set-Cookie\r\n"
	for _, tc := range []struct {
		keep       bool
		want, lose []string // in the records' blocks; not in the WARC
	}{
		{false, []string{infoLine, "Cookie: (redacted)\r\nCookie: (redacted)\r\n", "Authorization: (redacted)\r\n",
			"Proxy-Authorization: (redacted)\r\n", "Set-Cookie: (redacted)\r\n", "User-Agent: test\r\n", "<html>hi</html>"},
			[]string{secret, "pw@"}},
		{true, []string{"Cookie: sid=" + secret + "\r\nCookie: b=" + secret + "\r\n", "Authorization: Basic " + secret + "\r\n",
			"Proxy-Authorization: Bearer " + secret + "\r\n", "Set-Cookie: sid=" + secret + "; HttpOnly\r\n"},
			[]string{"webcap-redacted-headers", Redacted}},
	} {
		var buf bytes.Buffer
		if err := WriteWARC(&buf, false, pages, []byte("%PDF-1.7"), WARCInfo{Software: "webcap/test", Command: "webcap capture",
			Args: []string{r.URL}, Date: at, KeepCredentials: tc.keep}); err != nil {
			t.Fatal(err)
		}
		for _, s := range tc.lose {
			if bytes.Contains(buf.Bytes(), []byte(s)) {
				t.Errorf("keep %v: the WARC holds %q", tc.keep, s)
			}
		}
		var blocks []byte
		for _, rec := range warcRecords(t, buf.Bytes()) {
			if rec.Type() == warc.TypeRequest || rec.Type() == warc.TypeResponse {
				if u := rec.TargetURI(); (u == r.URL) != tc.keep {
					t.Errorf("keep %v: %s WARC-Target-URI %s", tc.keep, rec.Type(), u)
				}
			}
			blocks = append(blocks, rec.Block...)
		}
		for _, s := range tc.want {
			if !bytes.Contains(blocks, []byte(s)) {
				t.Errorf("keep %v: no record holds %q", tc.keep, s)
			}
		}
	}
}

// warcRecords reads every record of a WARC webcap wrote, each of whose
// digests must verify.
func warcRecords(t *testing.T, b []byte) []*warc.Record {
	t.Helper()
	var recs []*warc.Record
	rd := warc.NewReader(bytes.NewReader(b))
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			return recs
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := rec.VerifyDigests(); err != nil {
			t.Errorf("%s %s: %v", rec.Type(), rec.TargetURI(), err)
		}
		recs = append(recs, rec)
	}
}
