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

// TestWgetDedupRevisit: GNU wget --warc-dedup writes a URL fetched again
// with the same payload as a revisit record that holds only the HTTP
// header, which says Transfer-Encoding: chunked when the server sent it
// so. Every record of that WARC reads back (the revisit with an empty
// payload, not "chunked body: unexpected EOF"), and in the two runs'
// WARCs joined into one (gzip members concatenate) the revisit stands for
// the first run's response.
func TestWgetDedupRevisit(t *testing.T) {
	wget, err := exec.LookPath("wget")
	if err != nil {
		t.Skip("wget is not installed (apt-get install wget): revisit records of wget --warc-dedup are not checked")
	}
	st := &site{sent: map[string][]byte{}}
	srv := httptest.NewServer(st)
	defer srv.Close()
	dir := t.TempDir()
	u := srv.URL + "/chunked.html"
	first, second := filepath.Join(dir, "first"), filepath.Join(dir, "second")
	for _, args := range [][]string{
		{"--warc-file=" + first, "--warc-cdx"},
		{"--warc-file=" + second, "--warc-dedup=" + first + ".cdx"},
	} {
		cmd := exec.Command(wget, append(args, "--no-verbose", "--output-document="+filepath.Join(dir, "page"), u)...)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("wget %q: %v\n%s", args, err, b)
		}
	}
	f, err := os.Open(second + ".warc.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := warc.NewReader(f)
	revisits := 0
	for n := 0; ; n++ {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("after %d records: %v", n, err)
		}
		if rec.Type() != warc.TypeRevisit {
			continue
		}
		revisits++
		resp, err := rec.ParseResponse(warc.Limits{})
		if err != nil {
			t.Fatalf("revisit %s: %v", rec.TargetURI(), err)
		}
		if resp.Status != 200 || len(resp.Payload) != 0 || !strings.Contains(string(rec.Block), "Transfer-Encoding: chunked\r\n") {
			t.Errorf("revisit: status %d, payload %q, block %q; want 200, a header that says chunked and no payload", resp.Status, resp.Payload, rec.Block)
		}
	}
	if revisits != 1 {
		t.Fatalf("%d revisit records in wget's second WARC, want 1 (did wget --warc-dedup change?)", revisits)
	}
	a, _ := os.ReadFile(first + ".warc.gz")
	b, _ := os.ReadFile(second + ".warc.gz")
	both := filepath.Join(dir, "both.warc.gz")
	if err := os.WriteFile(both, append(a, b...), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := warc.Load(both, nil)
	if err != nil {
		t.Fatal(err)
	}
	// wget 1.21's revisit says WARC-Block-Digest of no bytes (sha1:3I42…,
	// the empty string's), not of its block: a mismatch that is reported,
	// and the only problem (a revisit that is dropped, or whose original
	// is not found, is one too).
	for _, p := range s.Problems {
		if !strings.Contains(p, "WARC-Block-Digest sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ") {
			t.Errorf("Load: %s", p)
		}
	}
	rc, err := s.Open(u)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	if got, _ := io.ReadAll(rc); string(got) != "<html><body>chunked body</body></html>" {
		t.Errorf("content of the revisited URL %q, want the first run's", got)
	}
}
