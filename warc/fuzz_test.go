package warc

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzRead: no input panics the Reader, ParseResponse, Content or
// VerifyDigests; a record read again at its Offset is the same; and every
// record read is written (WriteRaw) and read back identically.
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.warc*"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(gz(string(b)))
	}
	f.Add([]byte(rec("response", "http://a.example/", httpResp, "Content-Type: application/http; msgtype=response")))
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := Limits{MaxHeader: 4 << 10, MaxBlock: 1 << 20, MaxRecords: 100, MaxMembers: 100}
		r := NewReaderLimits(bytes.NewReader(data), lim)
		for {
			rc, err := r.Next()
			if err != nil {
				if err != io.EOF && !errors.Is(err, ErrFormat) {
					t.Fatalf("Next: %v does not wrap ErrFormat", err)
				}
				return
			}
			if off := r.Offset(); off >= 0 {
				again, err := NewReaderLimits(bytes.NewReader(data[off:]), lim).Next()
				if err != nil || !reflect.DeepEqual(again, rc) {
					t.Fatalf("the record read again at offset %d: %v", off, err)
				}
			}
			rc.VerifyDigests()
			if resp, err := rc.ParseResponse(lim); err == nil {
				resp.Content(lim)
			}
			var b bytes.Buffer
			if err := NewWriter(&b, len(data)%2 == 0).WriteRaw(rc); err != nil {
				continue // a value with a lone CR cannot be written
			}
			back, err := NewReaderLimits(&b, lim).Next()
			if err != nil {
				t.Fatalf("reading back a written record: %v", err)
			}
			if !reflect.DeepEqual(back, rc) {
				t.Fatalf("read back %+v, want %+v", back, rc)
			}
		}
	})
}
