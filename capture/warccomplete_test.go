package capture

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/warc"
)

// TestWriteWARCComplete is issue 28's complete archive: every answer a
// capture received is a response (or a revisit) with its request, in
// order: robots.txt and the renderings kept on no page (Page.Others), a
// 301 and a 302, a 404, the same image fetched twice, and an auxiliary
// file's redirect; and the archive's redirect chain leads from the first
// URL of the chain to the page's payload (warc.Source), as id --warc
// looks it up.
func TestWriteWARCComplete(t *testing.T) {
	at := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	const host = "http://example.com"
	news := []byte(`<html><img src="/logo.gif"><img src="/gone.gif"><img src="/logo.gif?again"></html>`)
	gif := []byte("GIF89a the logo")
	answer := func(path string, status int, h http.Header, body []byte) *Response {
		if h == nil {
			h = http.Header{}
		}
		return &Response{URL: host + path, Method: "GET", Status: status, Header: h, Body: body, Fetched: at,
			Proto: "HTTP/1.1", Redirect: status >= 300 && status < 400 && h.Get("Location") != ""}
	}
	moved := func(path string, status int, to string) *Response {
		return answer(path, status, http.Header{"Location": {to}}, nil)
	}
	html := http.Header{"Content-Type": {"text/html"}}
	image := http.Header{"Content-Type": {"image/gif"}}
	page := &Page{Requested: host + "/news", URL: host + "/news",
		Others: []*Response{answer("/robots.txt", 404, nil, []byte("not found"))},
		Responses: []*Response{
			answer("/news", 200, html, news),
			answer("/logo.gif", 200, image, gif),
			answer("/gone.gif", 404, nil, []byte("404 page not found\n")),
			answer("/logo.gif", 200, image, gif), // fetched again
		},
		Aux: []*Response{moved("/small.gif", 302, "/logo.gif?small"), answer("/logo.gif?small", 200, image, gif)}}
	// The rendering of /old-news joined /news: archived with the next
	// page (here the last one's Others, after the crawl).
	page.Others = append(page.Others, moved("/old-news", 301, "/news-archive"), moved("/news-archive", 302, "/news"), answer("/news", 200, html, news))
	var buf bytes.Buffer
	if err := WriteWARC(&buf, true, []*Page{page}, []byte("%PDF-1.7"), WARCInfo{Software: "webcap/test", Date: at}); err != nil {
		t.Fatal(err)
	}
	var got []string
	refers := 0
	for _, rec := range warcRecords(t, buf.Bytes()) {
		switch rec.Type() {
		case warc.TypeResponse, warc.TypeRevisit:
			status := "?"
			if resp, err := rec.ParseResponse(warc.DefaultLimits); err == nil {
				status = strconv.Itoa(resp.Status)
			}
			got = append(got, rec.Type()+" "+status+" "+strings.TrimPrefix(rec.TargetURI(), host))
		case warc.TypeResource:
			for _, f := range rec.Header {
				if strings.EqualFold(f.Name, warc.FieldRefersTo) {
					refers++
				}
			}
		}
	}
	want := []string{
		"response 404 /robots.txt",
		"response 301 /old-news",
		"response 302 /news-archive",
		"response 200 /news",
		"revisit 200 /news",
		"response 200 /logo.gif",
		"response 404 /gone.gif",
		"revisit 200 /logo.gif",
		"response 302 /small.gif",
		"revisit 200 /logo.gif?small",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("responses and revisits:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The records holding the page's own 200s (its document, and its
	// image, which the aux file's final answer revisits), not the
	// joined rendering's.
	if refers != 2 {
		t.Errorf("the PDF's resource refers to %d records, want 2", refers)
	}
	src, err := warc.LoadReader(bytes.NewReader(buf.Bytes()), "w.warc.gz", canon.PDF, warc.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	chain := src.Chain(host + "/old-news")
	if want := []string{host + "/old-news", host + "/news-archive", host + "/news"}; strings.Join(chain, " ") != strings.Join(want, " ") {
		t.Fatalf("chain of /old-news = %q, want %q", chain, want)
	}
	rc, err := src.Open(chain[len(chain)-1])
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	if b, _ := io.ReadAll(rc); !bytes.Equal(b, news) {
		t.Errorf("/old-news leads to %q, want the page's bytes", b)
	}
}

// The answers webcap fetches itself are all kept for a WARC: each hop of
// an auxiliary file's redirects and its error answer (get), and each of
// robots.txt's (Robots.take).
func TestAnswersKept(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/small.gif":
			http.Redirect(w, r, "/a.gif", http.StatusFound)
		case "/robots.txt":
			http.Redirect(w, r, "/rules.txt", http.StatusMovedPermanently)
		case "/rules.txt":
			w.Write([]byte("User-agent: *\nDisallow: /private\n"))
		case "/a.gif":
			w.Write([]byte("GIF89a"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	statuses := func(rs []*Response) string {
		var s []string
		for _, r := range rs {
			s = append(s, strconv.Itoa(r.Status)+" "+strings.TrimPrefix(r.URL, srv.URL)+" "+strconv.Itoa(len(r.Body)))
		}
		return strings.Join(s, ", ")
	}
	b := &Browser{}
	for _, tc := range []struct {
		path, want string
		fails      bool
	}{
		{"/small.gif", "302 /small.gif 29, 200 /a.gif 6", false},
		{"/gone.gif", "404 /gone.gif 19", true},
	} {
		body, got, fe := b.get(context.Background(), srv.Client(), srv.URL+tc.path, "", nil, time.Now)
		if (fe != nil) != tc.fails || (body == nil) != tc.fails {
			t.Errorf("%s: error %v, %d bytes", tc.path, fe, len(body))
		}
		if s := statuses(got); s != tc.want {
			t.Errorf("%s: answers %q, want %q", tc.path, s, tc.want)
		}
	}
	r := &Robots{Client: srv.Client()}
	if err := r.Check(context.Background(), srv.URL+"/private"); err == nil {
		t.Error("/private is allowed: the redirected robots.txt was not read")
	}
	if s, want := statuses(r.take()), "301 /robots.txt 45, 200 /rules.txt 33"; s != want {
		t.Errorf("robots.txt answers %q, want %q", s, want)
	}
	if rest := r.take(); len(rest) != 0 {
		t.Errorf("taken twice: %d answers", len(rest))
	}
}
