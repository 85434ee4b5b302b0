package warc_test

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/webcap/webcap/warc"
	"github.com/webcap/webcap/webcapture"
)

func TestSource(t *testing.T) {
	s, err := warc.Load("testdata/small.warc", nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Records != 5 || len(s.Problems) != 0 {
		t.Errorf("%d records, problems %q; want 5, none", s.Records, s.Problems)
	}
	want := map[string]string{
		"http://www.example.com/":          `<html><body><img src="logo.gif"></body></html>` + "\n",
		"http://www.example.com/logo.gif":  "GIF89a\x01\x00\x01\x00\x00\x00\x00;", // dechunked
		"http://www.example.com/logo2.gif": "GIF89a\x01\x00\x01\x00\x00\x00\x00;", // the revisit's original
	}
	for u, w := range want {
		rc, err := s.Open(u)
		if err != nil {
			t.Errorf("Open(%s): %v", u, err)
			continue
		}
		b, _ := io.ReadAll(rc)
		if string(b) != w {
			t.Errorf("Open(%s) = %q, want %q", u, b, w)
		}
	}
	if _, err := s.Open("http://example.com/"); err == nil || !strings.Contains(err.Error(), webcapture.ErrNotFound.Error()) {
		t.Errorf("Open of a redirect: %v, want ErrNotFound", err)
	}
	if got, want := s.Chain("http://example.com/"), []string{"http://example.com/", "http://www.example.com/"}; !slices.Equal(got, want) {
		t.Errorf("Chain = %q, want %q", got, want)
	}
	// The page's identifier, from the archive alone.
	src, err := webcapture.SourceID([]byte(want["http://www.example.com/"]), webcapture.SourceOptions{URL: "http://www.example.com/", Aux: s})
	if err != nil || !src.Complete() {
		t.Fatalf("SourceID: %v, complete %v", err, err == nil && src.Complete())
	}
}

// TestSourceRereads: a Source loaded from a file reads each response again
// when it is opened, and says so when the file has changed since.
func TestSourceRereads(t *testing.T) {
	orig, err := os.ReadFile("testdata/small.warc")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "s.warc")
	os.WriteFile(path, orig, 0o644)
	s, err := warc.Load(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rc, err := s.Open("http://www.example.com/logo.gif"); err != nil {
		t.Fatal(err)
	} else {
		rc.Close()
	}
	extra := "WARC/1.1\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000009>\r\nContent-Length: 0\r\n\r\n\r\n\r\n"
	os.WriteFile(path, append([]byte(extra), orig...), 0o644)
	if _, err := s.Open("http://www.example.com/logo.gif"); err == nil {
		t.Error("Open after the file changed: no error")
	}
}
