package warc_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/webcap/webcap/warc"
)

// A revisit record's block may stop after the HTTP header (ISO 28500
// §6.7): its header still says how the original's body came
// (Transfer-Encoding: chunked, as wget --warc-dedup writes it), and no
// body is decoded from what is not there. A response that says chunked
// and holds no chunks is still an error.
func TestParseResponseRevisit(t *testing.T) {
	const chunkedHead = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n"
	tests := []struct {
		name, typ, block string
		payload          string
		wantErr          bool
	}{
		{"revisit, chunked, header only", warc.TypeRevisit, chunkedHead, "", false},
		{"revisit, chunked, with its chunks", warc.TypeRevisit, chunkedHead + "2\r\nhi\r\n0\r\n\r\n", "hi", false},
		{"revisit, chunked, broken chunks", warc.TypeRevisit, chunkedHead + "zz\r\n", "", true},
		{"response, chunked, header only", warc.TypeResponse, chunkedHead, "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &warc.Record{Header: warc.Header{{Name: warc.FieldType, Value: tc.typ}, {Name: warc.FieldContentType, Value: "application/http; msgtype=response"}}, Block: []byte(tc.block)}
			resp, err := r.ParseResponse(warc.Limits{})
			if (err != nil) != tc.wantErr {
				t.Fatalf("ParseResponse: %v, want an error: %v", err, tc.wantErr)
			}
			if err != nil {
				return
			}
			if resp.Status != 200 || string(resp.Payload) != tc.payload || resp.Header.Get("Content-Type") != "text/html" {
				t.Errorf("status %d, payload %q, header %v; want 200, %q, text/html", resp.Status, resp.Payload, resp.Header, tc.payload)
			}
		})
	}
}

// TestSourceChunkedRevisit: a header-only revisit whose header says
// chunked stands for its original, as any revisit does, in a Source
// loaded from a file (streamed) and from a reader (in memory), gzip or
// not.
func TestSourceChunkedRevisit(t *testing.T) {
	const body = "<html><body>twice</body></html>"
	date := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	for _, compress := range []bool{true, false} {
		var buf bytes.Buffer
		w := warc.NewWriter(&buf, compress)
		head := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n"
		orig := warc.NewResponse("http://a.example/one", date, []byte(head+"1f\r\n"+body+"\r\n0\r\n\r\n"))
		again := warc.NewRevisit("http://a.example/two", date, []byte(head), orig)
		for _, r := range []*warc.Record{orig, again} {
			if err := w.Write(r); err != nil {
				t.Fatal(err)
			}
		}
		path := filepath.Join(t.TempDir(), "r.warc")
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		mem, err := warc.LoadReader(bytes.NewReader(buf.Bytes()), "r.warc", nil, warc.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		file, err := warc.LoadFile(path, warc.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for name, s := range map[string]*warc.Source{"LoadReader": mem, "LoadFile": file} {
			if s.Records != 2 || len(s.Problems) > 0 {
				t.Errorf("gzip %v, %s: %d records, problems %q; want 2, none", compress, name, s.Records, s.Problems)
			}
			for _, u := range []string{"http://a.example/one", "http://a.example/two"} {
				rc, err := s.Open(u)
				if err != nil {
					t.Errorf("gzip %v, %s: Open(%s): %v", compress, name, u, err)
					continue
				}
				b, _ := io.ReadAll(rc)
				rc.Close()
				if string(b) != body {
					t.Errorf("gzip %v, %s: Open(%s) = %q, want %q", compress, name, u, b, body)
				}
			}
		}
	}
}
