package warc_test

import (
	"compress/gzip"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/webcap/webcap/warc"
)

// response is a response record for url whose body is body.
func response(url, body string) string {
	block := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	return fmt.Sprintf("WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:%s>\r\nWARC-Date: 2025-01-02T03:04:05Z\r\n"+
		"WARC-Target-URI: %s\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n",
		url, url, len(block), block)
}

// An HTTP header longer than MaxHTTPHeader is a limit of the format,
// found before net/http reads it: the record's, the file's, named.
func TestHTTPHeaderLimit(t *testing.T) {
	big := "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://a.example/\r\nContent-Type: application/http; msgtype=response\r\n"
	block := "HTTP/1.1 200 OK\r\nX-Big: " + strings.Repeat("a", 2<<20) + "\r\n\r\nbody"
	file := big + fmt.Sprintf("Content-Length: %d\r\n\r\n", len(block)) + block + "\r\n\r\n"
	rec, err := warc.NewReader(strings.NewReader(file)).Next()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rec.ParseResponse(warc.Limits{}); !errors.Is(err, warc.ErrHTTPHeader) {
		t.Errorf("ParseResponse: %v, want ErrHTTPHeader", err)
	}
	if _, err := rec.ParseResponse(warc.Limits{MaxHTTPHeader: 4 << 20}); err != nil {
		t.Errorf("ParseResponse within MaxHTTPHeader 4 MiB: %v", err)
	}
	_, err = warc.LoadReader(strings.NewReader(file), "h.warc", nil, warc.Limits{})
	const want = "h.warc: record 1 at byte 0: not a valid WARC file: HTTP header over the size limit: more than 1048576 bytes"
	if err == nil || err.Error() != want || !errors.Is(err, warc.ErrFormat) {
		t.Errorf("LoadReader: %v, want %q wrapping ErrFormat", err, want)
	}
}

// The blank lines between records are bounded by MaxGap: the records
// either side of a short run are read, a long run is an error at the
// record after it.
func TestGapLimit(t *testing.T) {
	a, b := response("http://a.example/", "a"), response("http://b.example/", "b")
	tests := []struct {
		name string
		gap  int
		err  string // "": both records read
	}{
		{"two CRLFs", 0, ""},
		{"more", 4096, ""},
		{"the limit", 64<<10 - 4, ""},
		{"over", 64 << 10, fmt.Sprintf("record 2 at byte %d: not a valid WARC file: more than 65536 bytes of blank lines between records", len(a)+64<<10-4)}, // where the 65,537th byte is,
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := warc.NewReader(strings.NewReader(a + strings.Repeat("\n", tc.gap) + b))
			var got []string
			var err error
			for {
				var rec *warc.Record
				if rec, err = r.Next(); err != nil {
					break
				}
				got = append(got, rec.TargetURI())
			}
			switch {
			case tc.err == "" && (err != io.EOF || len(got) != 2):
				t.Errorf("read %v, then %v; want both records", got, err)
			case tc.err != "" && (err == nil || err.Error() != tc.err || !errors.Is(err, warc.ErrFormat)):
				t.Errorf("error %v, want %q", err, tc.err)
			}
		})
	}
}

// A file's records are streamed, not held: loading a gzip member of three
// 32 MiB records, and reading the last one's content back, allocates a
// small part of one record; the content read again is the record's.
func TestRecordsStreamedNotHeld(t *testing.T) {
	const size = 32 << 20
	path := filepath.Join(t.TempDir(), "s.warc.gz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	z, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	bodies := map[string]string{}
	for i, c := range []byte("xyz") {
		u := fmt.Sprintf("http://a.example/%d", i)
		bodies[u] = strings.Repeat(string(c), size)
		io.WriteString(z, response(u, bodies[u])) // one member for the three
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	allocated := func(f func()) uint64 {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		f()
		runtime.ReadMemStats(&m1)
		return m1.TotalAlloc - m0.TotalAlloc
	}
	var s *warc.Source
	if n := allocated(func() { s, err = warc.LoadFile(path, warc.Options{}) }); err != nil || n > size/4 {
		t.Fatalf("LoadFile: %v, %d bytes allocated for records of %d", err, n, size)
	}
	for u, body := range bodies {
		var sum [32]byte
		var n int64
		if a := allocated(func() {
			rc, err := s.Open(u)
			if err != nil {
				t.Fatal(err)
			}
			h := sha256.New()
			n, err = io.Copy(h, rc)
			rc.Close()
			if err != nil {
				t.Fatal(err)
			}
			copy(sum[:], h.Sum(nil))
		}); a > size/4 {
			t.Errorf("Open(%s): %d bytes allocated for a content of %d", u, a, size)
		}
		if n != size || sum != sha256.Sum256([]byte(body)) {
			t.Errorf("Open(%s): %d bytes, not the record's %d", u, n, size)
		}
	}
}

// A context done stops the reading with its cause, which is no fault of
// the file's (no ErrFormat).
func TestLoadContext(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.warc")
	if err := os.WriteFile(path, []byte(response("http://a.example/", "a")), 0o644); err != nil {
		t.Fatal(err)
	}
	cause := errors.New("over a limit")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(cause)
	_, err := warc.LoadFile(path, warc.Options{Context: ctx})
	var fe *warc.FileError
	if !errors.Is(err, cause) || errors.Is(err, warc.ErrFormat) || !errors.As(err, &fe) || fe.File != path {
		t.Errorf("LoadFile with a context done: %v, want the cause, in a FileError", err)
	}
	if _, err := warc.LoadFile(path, warc.Options{MaxFileSize: 10}); err == nil || !strings.Contains(err.Error(), "file too large") {
		t.Errorf("LoadFile of a file over MaxFileSize: %v", err)
	}
	if _, err := warc.LoadFile(path, warc.Options{}); err != nil {
		t.Errorf("LoadFile: %v", err)
	}
}
