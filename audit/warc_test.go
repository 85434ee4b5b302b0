package audit

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"
	"time"

	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/warc"
	"github.com/webcap/webcap/webcapture"
)

// warcSpec is sourcesSpec(AuxRaw) with /WCSHA256, its sources a WARC file:
// the page sent as is, the logo gzip-encoded (Content-Encoding), each
// record's digests written by warc.Writer, and edit applied to the logo's
// record before it is written; extra records follow.
func warcSpec(edit func(*warc.Record), extra ...*warc.Record) (spec, *warc.Source) {
	s := sourcesSpec(webcapture.AuxRaw)
	src := s.sources.(webcapture.MapSource)
	s = withSHA256(s, src[logo])
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(src[logo])
	zw.Close()
	date := time.Date(2026, 11, 25, 18, 0, 0, 0, time.UTC)
	page := warc.NewResponse(home, date, fmt.Appendf(nil, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(src[home]), src[home]))
	img := warc.NewResponse(logo, date, fmt.Appendf(nil, "HTTP/1.1 200 OK\r\nContent-Type: image/gif\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n%s", gz.Len(), gz.Bytes()))
	if edit != nil {
		edit(img)
	}
	var buf bytes.Buffer
	w := warc.NewWriter(&buf, false)
	for _, r := range append([]*warc.Record{page, img}, extra...) {
		if err := w.Write(r); err != nil {
			panic(err)
		}
	}
	ws, err := warc.LoadReader(&buf, "site.warc", nil, warc.Limits{})
	if err != nil {
		panic(err)
	}
	s.sources = ws
	return s, ws
}

// badPayloadDigest gives a record a WARC-Payload-Digest of other bytes.
func badPayloadDigest(r *warc.Record) {
	r.Header.Set(warc.FieldPayloadDigest, "sha256:"+strings.Repeat("0", 64))
}

// A WARC file whose records verify, holding the bytes the file was made
// from (the logo gzip-encoded), audits clean: /WCSHA256 covers the logo's
// content, the payload digest its encoding, and both hold.
func TestSourcesWARC(t *testing.T) {
	s, _ := warcSpec(nil)
	if fs := audit(t, s); len(fs) != 0 {
		t.Errorf("findings against a WARC file that holds the sources:%s", show(fs))
	}
}

// A record whose payload digest does not verify is one WC-SOURCE-DIGEST
// warning, on the image set whose source it holds, naming the record; the
// content still recomputes every identifier (no other finding).
func TestSourcesWARCDigest(t *testing.T) {
	s, ws := warcSpec(badPayloadDigest)
	probs := ws.DigestProblems()
	if len(probs) != 1 {
		t.Fatalf("DigestProblems() = %v, want the logo's record", probs)
	}
	fs := audit(t, s)
	if len(fs) != 1 || fs[0].Rule != "WC-SOURCE-DIGEST" || fs[0].Severity != Caution || fs[0].Key != "/SI" {
		t.Fatalf("want one WC-SOURCE-DIGEST warning on /SI:%s", show(fs))
	}
	for _, want := range []string{probs[0].RecordID, logo, "WARC-Payload-Digest sha256:000", "this content set's source"} {
		if !strings.Contains(fs[0].Message, want) {
			t.Errorf("message %q does not name %q", fs[0].Message, want)
		}
	}
}

// With a WARC file as sources, a message about a URL names the record
// that holds its bytes, its payload digest and its content coding.
func TestSourcesWARCRecordNamed(t *testing.T) {
	s, ws := warcSpec(nil)
	other := sha256.Sum256([]byte("GIF89a another logo"))
	s.sisSI = func(d *pb.Dict) { d.Set("WCSHA256", pb.Hex(string(other[:]))) }
	r, ok := ws.RecordOf(logo)
	if !ok || r.ContentEncoding != "gzip" || !strings.HasPrefix(r.PayloadDigest, "sha256:") {
		t.Fatalf("RecordOf(%s) = %+v, %v; want the gzip-encoded response with a sha256 payload digest", logo, r, ok)
	}
	fs := audit(t, s)
	if len(fs) != 1 || fs[0].Rule != "WC-SOURCE-SHA256" {
		t.Fatalf("want one WC-SOURCE-SHA256:%s", show(fs))
	}
	want := "; WARC record " + r.ID + ", WARC-Payload-Digest " + r.PayloadDigest + ", of the entity as sent with Content-Encoding gzip (decoded here)"
	if !strings.HasSuffix(fs[0].Message, want) {
		t.Errorf("message %q, want it to end %q", fs[0].Message, want)
	}
}

// A record that no content set has for its source is reported on the file.
func TestSourcesWARCDigestElsewhere(t *testing.T) {
	other := warc.NewResponse("http://www.example.com/other.gif", time.Date(2026, 11, 25, 18, 0, 0, 0, time.UTC), []byte("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nGIF"))
	badPayloadDigest(other)
	s, _ := warcSpec(nil, other)
	fs := audit(t, s)
	if len(fs) != 1 || fs[0].Rule != "WC-SOURCE-DIGEST" || !fs[0].Object.IsZero() || !strings.Contains(fs[0].Message, "other.gif (no content set's source)") {
		t.Errorf("want one WC-SOURCE-DIGEST on the file for other.gif:%s", show(fs))
	}
}

// A set whose source URL the archive answered with a redirect is checked
// against the 200 response at the end of the chain (issue 28), as id
// --warc looks it up: here the page's URL (a plain /AU, no alias) got a
// 301 to /home, then a 302 to /news; the page's relative image resolves
// against /news. With the chain's end changed, the mismatch names /news.
func TestSourcesWARCRedirect(t *testing.T) {
	const news = "http://www.example.com/news"
	s := sourcesSpec(webcapture.AuxRaw)
	src := s.sources.(webcapture.MapSource)
	s = withSHA256(s, src[logo])
	date := time.Date(2026, 11, 25, 18, 0, 0, 0, time.UTC)
	moved := func(from, status, to string) *warc.Record {
		return warc.NewResponse(from, date, []byte("HTTP/1.1 "+status+"\r\nLocation: "+to+"\r\nContent-Length: 0\r\n\r\n"))
	}
	ok := func(u, ct string, body []byte) *warc.Record {
		return warc.NewResponse(u, date, fmt.Appendf(nil, "HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s", ct, len(body), body))
	}
	for _, tc := range []struct {
		name string
		page []byte
		want string // the one finding's rule and what it names; "" none
	}{
		{"same", src[home], ""},
		{"changed", []byte(`<html><body><img src="logo.gif"><p>Changed</p></body></html>`), "WC-SOURCE-MISMATCH " + news},
		// A record at the chain's end whose digest fails is the page
		// set's source, not "no content set's source".
		{"digest", nil, "WC-SOURCE-DIGEST this content set's source"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			w := warc.NewWriter(&buf, true)
			page := ok(news, "text/html", tc.page)
			if tc.page == nil {
				page = ok(news, "text/html", src[home])
				badPayloadDigest(page)
			}
			for _, r := range []*warc.Record{moved(home, "301 Moved Permanently", "/home"), moved("http://www.example.com/home", "302 Found", "news"),
				page, ok(logo, "image/gif", src[logo])} {
				if err := w.Write(r); err != nil {
					t.Fatal(err)
				}
			}
			ws, err := warc.LoadReader(&buf, "site.warc.gz", nil, warc.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			s.sources = ws
			fs := audit(t, s)
			if tc.want == "" {
				if len(fs) != 0 {
					t.Errorf("findings against a WARC whose redirect chain leads to the page's bytes:%s", show(fs))
				}
				return
			}
			rule, url, _ := strings.Cut(tc.want, " ")
			if len(fs) != 1 || fs[0].Rule != rule || !strings.Contains(fs[0].Message, url) {
				t.Errorf("want one %s naming %s:%s", rule, url, show(fs))
			}
		})
	}
}
