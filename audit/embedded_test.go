package audit

import (
	"bytes"
	"compress/gzip"
	"crypto/md5"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/warc"
	"github.com/webcap/webcap/webcapture"
)

// embeddedWARC is the WARC warcSpec loads: the page as sent, the logo
// gzip-encoded, edit applied to the logo's record before it is written.
func embeddedWARC(src webcapture.MapSource, edit func(*warc.Record)) []byte {
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
	for _, r := range []*warc.Record{page, img} {
		if err := w.Write(r); err != nil {
			panic(err)
		}
	}
	return buf.Bytes()
}

// embeddedSpec is sourcesSpec(AuxRaw) with /WCSHA256 and no sources given:
// the file carries its WARC (embeddedWARC(edit), as webcap capture
// --embed-warc puts it), declared by a (nil: as it is) before it is
// attached, its bytes in the file changed by tamper (nil: none).
func embeddedSpec(edit func(*warc.Record), a func(*pdfio.Attachment), tamper func(file []byte, at int)) spec {
	s := sourcesSpec(webcapture.AuxRaw)
	src := s.sources.(webcapture.MapSource)
	s = withSHA256(s, src[logo])
	s.sources = nil
	data := embeddedWARC(src, edit)
	s.mangle = func(file []byte) []byte {
		u, err := pdfio.NewUpdate(file, "test.pdf", pdfio.Options{})
		if err != nil {
			panic(err)
		}
		att := pdfio.Attachment{Name: "site.warc", MediaType: pdfio.WARCMediaType, Relationship: "Source",
			Size: int64(len(data)), MD5: md5.Sum(data), Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }}
		if a != nil {
			a(&att)
		}
		if err := u.Attach(att); err != nil {
			panic(err)
		}
		out, err := u.Bytes()
		if err != nil {
			panic(err)
		}
		if tamper != nil {
			tamper(out, len(file)+bytes.Index(out[len(file):], data[:16]))
		}
		return out
	}
	return s
}

// A file that carries the WARC it was captured from audits clean with no
// sources given, and says it verified every set against it.
func TestEmbeddedWARC(t *testing.T) {
	fs := audit(t, embeddedSpec(nil, nil, nil))
	if len(fs) != 1 || fs[0].Rule != "WC-EMBED-VERIFIED" || !strings.Contains(fs[0].Message, "2 of 2 content sets verified against the embedded WARC site.warc (2 records)") {
		t.Errorf("want one WC-EMBED-VERIFIED, 2 of 2:%s", show(fs))
	}
}

// Sources given win over the embedded WARC: its sets are checked against
// them (the embedded file's checksum still is).
func TestEmbeddedWARCSourcesGiven(t *testing.T) {
	s := embeddedSpec(nil, nil, nil)
	s.sources = webcapture.MapSource{}
	for _, f := range audit(t, s) {
		if strings.HasPrefix(f.Rule, "WC-EMBED-") {
			t.Errorf("finding against the embedded WARC with sources given: %s %s", f.Rule, f.Message)
		}
	}
}

// Changes, and what each gives: the finding names the set (its object)
// and the WARC record.
func TestEmbeddedWARCTampered(t *testing.T) {
	for _, tc := range []struct {
		name   string
		s      spec
		rules  []string // every warning and error, in order
		naming []string
	}{
		{"a payload rewritten with its digests", embeddedSpec(logoChanged, nil, nil), []string{"WC-EMBED-MISMATCH", "WC-EMBED-MISMATCH"}, []string{"/ID is <", logo, "WARC record <urn:uuid:", "of the embedded WARC site.warc"}},
		{"a digest that does not verify", embeddedSpec(badPayloadDigest, nil, nil), []string{"WC-EMBED-DIGEST"}, []string{"the embedded WARC site.warc: the response record <urn:uuid:", logo}},
		{"/Params /Size", embeddedSpec(nil, nil, paramsSize), []string{"WC-EMBED-CHECKSUM"}, []string{"site.warc: /Params /Size is 2124, but its stream holds 1124 bytes"}},
		{"one byte changed in the page's payload", embeddedSpec(nil, nil, func(file []byte, at int) { file[at+bytes.Index(file[at:], []byte("Home"))] = 'h' }),
			[]string{"WC-EMBED-CHECKSUM", "WC-EMBED-MISMATCH", "WC-EMBED-DIGEST"}, []string{"site.warc: /Params /CheckSum is <"}},
		{"not a WARC", embeddedSpec(nil, nil, func(file []byte, at int) { copy(file[at:], "not a WARC at all") }), []string{"WC-EMBED-CHECKSUM", "WC-EMBED-UNREADABLE"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := audit(t, tc.s)
			var got []string
			for _, f := range fs {
				if f.Severity >= Caution {
					got = append(got, f.Rule)
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.rules, " ") {
				t.Fatalf("rules %v, want %v:%s", got, tc.rules, show(fs))
			}
			for _, want := range tc.naming {
				if !strings.Contains(fs[0].Message, want) {
					t.Errorf("message %q does not name %q", fs[0].Message, want)
				}
			}
			if tc.rules[0] == "WC-EMBED-MISMATCH" && fs[0].Object.IsZero() {
				t.Errorf("the mismatch names no set: %+v", fs[0])
			}
		})
	}
}

// paramsSize changes the first digit of the embedded file's /Params
// /Size to 1 (or 2), in place.
func paramsSize(file []byte, _ int) {
	i := bytes.Index(file, []byte("/Params"))
	j := i + bytes.Index(file[i:], []byte("/Size ")) + len("/Size ")
	if file[j] == '1' {
		file[j] = '2'
	} else {
		file[j] = '1'
	}
}

// logoChanged makes the logo's record hold another logo, its digests made
// anew: the archive is consistent, the set's /ID is not its identifier.
func logoChanged(r *warc.Record) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("GIF89a another logo"))
	zw.Close()
	*r = *warc.NewResponse(logo, time.Date(2026, 11, 25, 18, 0, 0, 0, time.UTC), fmt.Appendf(nil, "HTTP/1.1 200 OK\r\nContent-Type: image/gif\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n%s", gz.Len(), gz.Bytes()))
}

// The embedded WARCs read as one: every range of their concatenation,
// across their boundaries too.
func TestConcatenation(t *testing.T) {
	parts := []string{"WARC/1.1\r\n", "", "ab", "cdefghij"}
	var ps []part
	for _, p := range parts {
		ps = append(ps, part{strings.NewReader(p), int64(len(p))})
	}
	c, whole := concat(ps), strings.Join(parts, "")
	for off := 0; off <= len(whole); off++ {
		for n := 0; off+n <= len(whole)+2; n++ {
			b := make([]byte, n)
			k, err := c.ReadAt(b, int64(off))
			want := whole[off:min(len(whole), off+n)]
			if string(b[:k]) != want || (k < n) != (err != nil) {
				t.Errorf("ReadAt(%d bytes, %d) = %q, %v; want %q", n, off, b[:k], err, want)
			}
		}
	}
}

// A set an update wrote after the WARC was embedded (refresh without
// --embed-warc) is not checked against the archive, which cannot vouch
// for it: WC-EMBED-MISSING, not a mismatch.
func TestEmbeddedWARCSetWrittenAfter(t *testing.T) {
	s := embeddedSpec(nil, nil, nil)
	attach := s.mangle
	s.mangle = func(file []byte) []byte {
		file = attach(file)
		d, err := pdfio.ReadBytes(file, "test.pdf", pdfio.Options{})
		if err != nil {
			panic(err)
		}
		u, err := pdfio.NewUpdate(file, "test.pdf", pdfio.Options{})
		if err != nil {
			panic(err)
		}
		for _, cs := range d.Sets {
			if cs.IsImageSet() {
				if err := u.SetSourceTimes(cs.Ref, "D:20261201000000Z", ""); err != nil {
					panic(err)
				}
			}
		}
		out, err := u.Bytes()
		if err != nil {
			panic(err)
		}
		return out
	}
	fs := audit(t, s)
	if len(fs) != 2 || fs[0].Rule != "WC-EMBED-MISSING" || !strings.Contains(fs[0].Message, "written by an update after the embedded WARC site.warc was put in the file") ||
		fs[1].Rule != "WC-EMBED-VERIFIED" || !strings.Contains(fs[1].Message, "1 of 2 content sets verified") {
		t.Errorf("want WC-EMBED-MISSING for the image set, and 1 of 2 verified:%s", show(fs))
	}
}
