package warc

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
)

func gz(parts ...string) []byte {
	var b bytes.Buffer
	for _, p := range parts {
		z := gzip.NewWriter(&b)
		z.Write([]byte(p))
		z.Close()
	}
	return b.Bytes()
}

const httpResp = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5\r\n\r\nhello"

func rec(typ, uri, block string, extra ...string) string {
	h := "WARC/1.1\r\nWARC-Type: " + typ + "\r\nWARC-Target-URI: " + uri + "\r\n"
	for _, e := range extra {
		h += e + "\r\n"
	}
	return h + "Content-Length: " + strconv.Itoa(len(block)) + "\r\n\r\n" + block + "\r\n\r\n"
}

func TestRead(t *testing.T) {
	one := rec("response", "http://a.example/", httpResp, "Content-Type: application/http; msgtype=response")
	tests := []struct {
		name    string
		in      []byte
		records int
		members int
		err     string
	}{
		{"uncompressed", []byte(one + one), 2, 0, ""},
		{"gzip per record", gz(one, one, one), 3, 3, ""},
		{"gzip, two records in a member", gz(one+one, one), 3, 2, ""},
		{"WARC/1.0", []byte(strings.Replace(one, "WARC/1.1", "WARC/1.0", 1)), 1, 0, ""},
		{"continuation line", []byte(strings.Replace(one, "WARC-Type: response\r\n", "WARC-Type:\r\n  response\r\n", 1)), 1, 0, ""},
		{"lower-case names", []byte(strings.Replace(one, "Content-Length", "content-length", 1)), 1, 0, ""},
		{"LF only", []byte("WARC/1.0\nContent-Length: 2\n\nab\n\n"), 1, 0, ""},
		{"empty", nil, 0, 0, ""},
		{"bad version", []byte("WARC/2.0\r\n\r\n"), 0, 0, "version line"},
		{"no Content-Length", []byte("WARC/1.1\r\nWARC-Type: x\r\n\r\n"), 0, 0, "Content-Length"},
		{"short block", []byte("WARC/1.1\r\nContent-Length: 10\r\n\r\nab"), 0, 0, "shorter"},
		{"negative length", []byte("WARC/1.1\r\nContent-Length: -1\r\n\r\n"), 0, 0, "Content-Length"},
		{"huge length", []byte("WARC/1.1\r\nContent-Length: 99999999999999\r\n\r\n"), 0, 0, "over the limit"},
		{"bad name", []byte("WARC/1.1\r\nBad Name: x\r\n\r\n"), 0, 0, "NAME: VALUE"},
		{"continuation first", []byte("WARC/1.1\r\n x\r\n\r\n"), 0, 0, "continuation"},
		{"header too long", []byte("WARC/1.1\r\nX: " + strings.Repeat("a", 70<<10) + "\r\n\r\n"), 0, 0, "size limit"},
		{"truncated gzip", gz(one)[:30], 0, 1, "unexpected EOF"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReader(bytes.NewReader(tc.in))
			n := 0
			var err error
			for {
				var rc *Record
				rc, err = r.Next()
				if err != nil {
					break
				}
				n++
				if rc.Header.Get("content-length") == "" {
					t.Errorf("record %d: no Content-Length via a lower-case name", n)
				}
			}
			if err == io.EOF {
				err = nil
			}
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("Next: %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("Next: %v, want an error with %q", err, tc.err)
			case tc.err != "" && !errors.Is(err, ErrFormat):
				t.Errorf("Next: %v does not wrap ErrFormat", err)
			}
			if n != tc.records || r.Members() != tc.members {
				t.Errorf("read %d records in %d members, want %d in %d", n, r.Members(), tc.records, tc.members)
			}
		})
	}
}

func TestContinuation(t *testing.T) {
	r := NewReader(strings.NewReader("WARC/1.1\r\nX-A: one\r\n two\r\n\tthree\r\nContent-Length: 0\r\n\r\n\r\n\r\n"))
	rc, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if got := rc.Header.Get("x-a"); got != "one two three" {
		t.Errorf("X-A = %q, want %q", got, "one two three")
	}
}

func TestParseResponse(t *testing.T) {
	var gzBody bytes.Buffer
	z := gzip.NewWriter(&gzBody)
	z.Write([]byte("<p>zipped</p>"))
	z.Close()
	tests := []struct {
		name, block      string
		status           int
		payload, content string
	}{
		{"plain", httpResp, 200, "hello", "hello"},
		{"chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n7\r\n, world\r\n0\r\nTrailer: t\r\n\r\n", 200, "hello, world", "hello, world"},
		{"gzip", "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n" + gzBody.String(), 200, gzBody.String(), "<p>zipped</p>"},
		{"redirect", "HTTP/1.1 301 Moved\r\nLocation: /b\r\nContent-Length: 0\r\n\r\n", 301, "", ""},
		{"revisit, header only", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", 200, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &Record{Header: Header{{FieldContentType, "application/http; msgtype=response"}}, Block: []byte(tc.block)}
			resp, err := r.ParseResponse(Limits{})
			if err != nil {
				t.Fatal(err)
			}
			c, err := resp.Content(Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Status != tc.status || string(resp.Payload) != tc.payload || string(c) != tc.content {
				t.Errorf("status %d, payload %q, content %q; want %d, %q, %q", resp.Status, resp.Payload, c, tc.status, tc.payload, tc.content)
			}
		})
	}
	r := &Record{Block: []byte("HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\nxx")}
	resp, err := r.ParseResponse(Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := resp.Content(Limits{}); !errors.Is(err, ErrCoding) {
		t.Errorf("Content of a br body: %v, want ErrCoding", err)
	}
	bomb := gzip.NewWriter(&gzBody)
	gzBody.Reset()
	bomb.Write(make([]byte, 1<<20))
	bomb.Close()
	r = &Record{Block: []byte("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n" + gzBody.String())}
	resp, _ = r.ParseResponse(Limits{})
	if _, err := resp.Content(Limits{MaxBlock: 1000}); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Errorf("Content of 1 MiB of zeros, limit 1000: %v, want an error", err)
	}
}

func TestWriteReadBack(t *testing.T) {
	for _, compress := range []bool{false, true} {
		var b bytes.Buffer
		w := NewWriter(&b, compress)
		info, err := w.WriteInfo("x.warc.gz", Header{{"software", "webcap test"}})
		if err != nil {
			t.Fatal(err)
		}
		resp := &Record{Header: Header{{FieldType, TypeResponse}, {FieldTargetURI, "http://a.example/"}, {FieldContentType, "application/http; msgtype=response"}, {FieldWarcinfoID, info}},
			Block: []byte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")}
		if err := w.Write(resp); err != nil {
			t.Fatal(err)
		}
		if got, want := resp.Header.Get(FieldPayloadDigest), SHA256([]byte("hello")); got != want {
			t.Errorf("WARC-Payload-Digest %s, want %s (of the dechunked payload)", got, want)
		}
		bad := &Record{Header: Header{{"X", "a\r\nb"}}}
		if err := w.Write(bad); err == nil {
			t.Error("Write of a value with CRLF: no error")
		}
		r := NewReader(&b)
		var got []*Record
		for {
			rc, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := rc.VerifyDigests(); err != nil {
				t.Error(err)
			}
			got = append(got, rc)
		}
		if len(got) != 2 || got[1].ID() != resp.ID() || !bytes.Equal(got[1].Block, resp.Block) || got[0].Type() != TypeWarcinfo {
			t.Fatalf("gzip %v: read back %d records, want the warcinfo and the response", compress, len(got))
		}
		if compress && r.Members() != 2 {
			t.Errorf("%d gzip members, want 2", r.Members())
		}
	}
}

func TestVerifyDigests(t *testing.T) {
	r := &Record{Header: Header{{FieldBlockDigest, "sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}}, Block: []byte("x")}
	if err := r.VerifyDigests(); !errors.Is(err, ErrDigest) {
		t.Errorf("VerifyDigests: %v, want ErrDigest", err)
	}
	r.Header[0].Value = SHA256([]byte("x"))
	if err := r.VerifyDigests(); err != nil {
		t.Errorf("VerifyDigests: %v", err)
	}
	r.Header[0].Value = "md5:whatever"
	if err := r.VerifyDigests(); err != nil {
		t.Errorf("VerifyDigests of an unchecked algorithm: %v", err)
	}
}

func TestOffset(t *testing.T) {
	one := rec("response", "http://a.example/", httpResp)
	g1, g2 := gz(one), gz(one+one)
	tests := []struct {
		name string
		in   []byte
		want []int64
	}{
		{"uncompressed", []byte(one + "\r\n" + one), []int64{0, int64(len(one)) + 2}},
		{"gzip per record", append(append([]byte{}, g1...), g1...), []int64{0, int64(len(g1))}},
		{"two records in a member", append(append([]byte{}, g2...), g1...), []int64{0, -1, int64(len(g2))}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReader(bytes.NewReader(tc.in))
			var got []int64
			for {
				rc, err := r.Next()
				if err != nil {
					break
				}
				got = append(got, r.Offset())
				if off := r.Offset(); off >= 0 {
					again, err := NewReader(bytes.NewReader(tc.in[off:])).Next()
					if err != nil || !bytes.Equal(again.Block, rc.Block) {
						t.Errorf("the record read again at %d: %v", off, err)
					}
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("offsets %v, want %v", got, tc.want)
			}
		})
	}
}
