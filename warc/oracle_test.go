package warc_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/webcap/webcap/warc"
)

// site serves a few pages, an image, a redirect, a chunked response and a
// gzip-coded one, and records the entity body it sent for each URL.
type site struct {
	mu   sync.Mutex
	sent map[string][]byte // path: the body as sent (content-coded, not chunked)
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body := []byte(nil)
	switch r.URL.Path {
	case "/":
		w.Header().Set("Content-Type", "text/html")
		body = []byte(`<html><body><a href="a.html">a</a> <a href="old">old</a> <a href="chunked.html">c</a> <a href="gz.html">g</a><img src="img.gif"></body></html>`)
	case "/a.html":
		w.Header().Set("Content-Type", "text/html")
		body = []byte(`<html><body><img src="img.gif"><a href="/">home</a></body></html>`)
	case "/img.gif":
		w.Header().Set("Content-Type", "image/gif")
		body = []byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")
	case "/old":
		http.Redirect(w, r, "/a.html", http.StatusMovedPermanently)
		return
	case "/chunked.html":
		w.Header().Set("Content-Type", "text/html")
		parts := []string{"<html><body>", "chunked ", "body</body></html>"}
		for _, p := range parts {
			w.Write([]byte(p))
			w.(http.Flusher).Flush()
		}
		s.record(r.URL.Path, []byte(strings.Join(parts, "")))
		return
	case "/gz.html":
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		var b bytes.Buffer
		z := gzip.NewWriter(&b)
		z.Write([]byte("<html><body>zipped</body></html>"))
		z.Close()
		body = b.Bytes()
	default:
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Length", itoa(len(body)))
	w.Write(body)
	s.record(r.URL.Path, body)
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func (s *site) record(path string, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sent[path] = body
}

// TestWgetWARC: a WARC written by GNU wget --warc-file reads back with
// every record wget wrote (counted by zcat and grep, not by this package),
// and each 200 response's payload is the body the server sent.
func TestWgetWARC(t *testing.T) {
	wget, err := exec.LookPath("wget")
	if err != nil {
		t.Skip("wget is not installed (apt-get install wget): the WARC reader is not checked against wget's WARCs")
	}
	st := &site{sent: map[string][]byte{}}
	srv := httptest.NewServer(st)
	defer srv.Close()
	dir := t.TempDir()
	out := filepath.Join(dir, "site")
	cmd := exec.Command(wget, "--warc-file="+out, "--recursive", "--level=inf", "-e", "robots=off", "--no-verbose",
		"--directory-prefix="+filepath.Join(dir, "mirror"), srv.URL+"/")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("wget: %v\n%s", err, b)
	}
	path := out + ".warc.gz"
	// The records wget wrote, counted independently of this package.
	zcat, err := exec.Command("sh", "-c", "gzip -dc < '"+path+"' | grep -a -c '^WARC/1'").Output()
	if err != nil {
		t.Fatalf("counting records with gzip and grep: %v", err)
	}
	want := strings.TrimSpace(string(zcat))
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := warc.NewReader(f)
	n, responses := 0, map[string]bool{}
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("after %d records: %v", n, err)
		}
		n++
		if err := rec.VerifyDigests(); err != nil {
			t.Errorf("%s %s: %v", rec.Type(), rec.TargetURI(), err)
		}
		if rec.Type() != warc.TypeResponse {
			continue
		}
		resp, err := rec.ParseResponse(warc.Limits{})
		if err != nil {
			t.Errorf("%s: %v", rec.TargetURI(), err)
			continue
		}
		p := strings.TrimPrefix(rec.TargetURI(), srv.URL)
		if resp.Status != 200 {
			continue
		}
		responses[p] = true
		if sent := st.sent[p]; !bytes.Equal(resp.Payload, sent) {
			t.Errorf("%s: payload %q, the server sent %q", p, resp.Payload, sent)
		}
	}
	if itoa(n) != want || r.Members() != n {
		t.Errorf("read %d records in %d gzip members; gzip -dc | grep counts %s", n, r.Members(), want)
	}
	if len(responses) != 5 {
		t.Errorf("200 responses for %v, want 5 (/, a.html, img.gif, chunked.html, gz.html)", responses)
	}
	s, err := warc.Load(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Problems) > 0 {
		t.Errorf("Load: %q", s.Problems)
	}
	rc, err := s.Open(srv.URL + "/gz.html")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(rc); string(b) != "<html><body>zipped</body></html>" {
		t.Errorf("content of gz.html %q, want it without its gzip coding", b)
	}
	if to, ok := s.Redirect(srv.URL + "/old"); !ok || to != srv.URL+"/a.html" {
		t.Errorf("Redirect(/old) = %q, %v; want %s/a.html", to, ok, srv.URL)
	}
}
