package cli

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/warc"
)

// TestWARCDigests ties a PDF's /WCSHA256 to the payload digests of a WARC
// file GNU wget wrote, for a response sent with Content-Encoding gzip, and
// checks every digest with tools that are not webcap's: sha256sum and
// Python's hashlib and base64, over the bytes the test server sent. wget's
// WARC-Payload-Digest covers the entity as sent (gzip); the identifier and
// /WCSHA256 cover its decoding (docs/sha256.md); id --warc prints both, and
// the record. A copy of the WARC file whose gzip-encoded payload was altered
// without changing its decoding (the gzip header's MTIME) still gives every
// identifier, but audit reports the record (WC-SOURCE-DIGEST).
func TestWARCDigests(t *testing.T) {
	wget, err := exec.LookPath("wget")
	if err != nil {
		t.Skip("wget is not installed (apt-get install wget): WARC digests are not checked against wget's")
	}
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: no independent digest to check against")
	}
	page := `<html><body><img src="logo.gif"><p>home</p></body></html>`
	logo := []byte(gifBytes + " a logo sent gzip-encoded")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(logo)
	zw.Close()
	sent := gz.Bytes() // the entity as sent
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, page)
		case "/logo.gif":
			w.Header().Set("Content-Type", "image/gif")
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(sent)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	wgetWARC(t, wget, dir, "files", false, srv.URL+"/", srv.URL+"/logo.gif")
	archive := filepath.Join(dir, "site.warc.gz")

	// The oracles: over the bytes the server sent, and their decoding.
	oracle := func(prog string, stdin []byte, args ...string) string {
		t.Helper()
		c := exec.Command(prog, args...)
		c.Stdin = bytes.NewReader(stdin)
		out, err := c.Output()
		if err != nil {
			t.Fatalf("%s: %v", prog, err)
		}
		return strings.Fields(string(out))[0]
	}
	sha256sum := func(b []byte) string { return oracle("sha256sum", b) }
	py := func(expr string, b []byte) string {
		return oracle(python, b, "-c", "import sys, hashlib, base64; d = sys.stdin.buffer.read(); print("+expr+")")
	}
	logoMD5 := strings.ToUpper(py("hashlib.md5(d).hexdigest()", logo))
	logoSHA256 := sha256sum(logo)
	sentSHA1 := "sha1:" + py("base64.b32encode(hashlib.sha1(d).digest()).decode()", sent)
	if logoSHA256 == sha256sum(sent) {
		t.Fatal("the gzip coding changed nothing")
	}

	// wget archived the entity as sent: its payload digest is of the gzip
	// bytes, not of the logo.
	logoRec := warcRecord(t, archive, srv.URL+"/logo.gif")
	if got := logoRec.Header.Get(warc.FieldPayloadDigest); got != sentSHA1 {
		t.Fatalf("wget's WARC-Payload-Digest %s, want %s (SHA-1 of the gzip bytes sent, by Python)", got, sentSHA1)
	}

	// id --warc: the identifier and SHA-256 of the logo, the record that
	// holds it and that record's digest of the bytes as sent.
	ios, _, stdout, stderr := Test()
	want := fmt.Sprintf("%s  %s/logo.gif  sha256:%s  %s  %s\n", logoMD5, srv.URL, logoSHA256, logoRec.ID(), sentSHA1)
	if code := Main(context.Background(), []string{"id", "--warc", archive, srv.URL + "/logo.gif"}, ios); code != 0 || stdout.String() != want {
		t.Errorf("id --warc: exit %d\n got %q\nwant %q%s", code, stdout, want, stderr)
	}

	// A PDF built from the WARC file records the logo's SHA-256 (sha256sum),
	// and audits clean against it.
	if err := os.WriteFile(filepath.Join(dir, "pages.pdf"), pb.Web(false), 0o644); err != nil {
		t.Fatal(err)
	}
	type set = map[string]any
	mb, _ := json.Marshal(set{"input": "pages.pdf",
		"pageSets":  []set{{"pages": "1", "url": srv.URL + "/"}},
		"imageSets": []set{{"url": srv.URL + "/logo.gif", "images": []set{{"page": 1, "name": "Im0"}}}},
	})
	os.WriteFile(filepath.Join(dir, "manifest.json"), mb, 0o644)
	built := filepath.Join(dir, "built.pdf")
	var sum buildSummary
	if code := runJSON(t, &sum, "build", "--json", "--sources", archive, filepath.Join(dir, "manifest.json"), "-o", built); code != 0 {
		t.Fatalf("build --sources %s: exit %d", archive, code)
	}
	ios, _, stdout, _ = Test()
	Main(context.Background(), []string{"info", "--json", built}, ios)
	if !strings.Contains(stdout.String(), `"sha256":"`+logoSHA256+`"`) {
		t.Errorf("info --json has no /WCSHA256 %s (sha256sum of the logo):\n%s", logoSHA256, stdout)
	}
	audit := func(sources string) (int, string) {
		ios, _, stdout, stderr := Test()
		code := Main(context.Background(), []string{"audit", "--in-process", "--sources", sources, built}, ios)
		return code, stdout.String() + stderr.String()
	}
	if code, out := audit(archive); code != 0 || strings.Contains(out, "WC-SOURCE") {
		t.Errorf("audit --sources %s: exit %d\n%s", archive, code, out)
	}

	// The gzip bytes altered, their decoding not: one gzip member of the
	// WARC file rewritten.
	tampered := filepath.Join(dir, "tampered.warc.gz")
	rewriteMember(t, archive, tampered, func(rec []byte) []byte {
		if !bytes.Contains(rec, []byte("WARC-Type: response")) || !bytes.Contains(rec, []byte(srv.URL+"/logo.gif")) { // WARC/1.0 writes <URI>
			return nil
		}
		i := bytes.Index(rec, sent[:4]) // the gzip header: 1f 8b 08 flags, then MTIME
		if i < 0 {
			t.Fatal("the logo's gzip bytes are not in its record")
		}
		rec[i+4] ^= 0x01
		return rec
	})
	code, out := audit(tampered)
	if !strings.Contains(out, "WC-SOURCE-DIGEST") || !strings.Contains(out, logoRec.ID()) || !strings.Contains(out, srv.URL+"/logo.gif") {
		t.Errorf("audit --sources tampered.warc.gz: exit %d, no WC-SOURCE-DIGEST naming %s:\n%s", code, logoRec.ID(), out)
	}
	if strings.Contains(out, "WC-SOURCE-MISMATCH") || strings.Contains(out, "WC-SOURCE-SHA256") {
		t.Errorf("the logo's decoding is unchanged, yet:\n%s", out)
	}
}

// warcRecord returns the response record for uri in a WARC file.
func warcRecord(t *testing.T, path, uri string) *warc.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := warc.NewReader(f)
	for {
		rec, err := rd.Next()
		if err != nil {
			t.Fatalf("no response record for %s in %s: %v", uri, path, err)
		}
		if rec.Type() == warc.TypeResponse && rec.TargetURI() == uri {
			return rec
		}
	}
}

// rewriteMember copies a gzip-compressed WARC file member by member; edit
// is given each member's decompressed bytes and returns what replaces them
// (nil: the member as it was).
func rewriteMember(t *testing.T, from, to string, edit func([]byte) []byte) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	br := bytes.NewReader(data) // an io.ByteReader: gzip reads no further than each member
	edited := 0
	for br.Len() > 0 {
		start := len(data) - br.Len()
		zr, err := gzip.NewReader(br)
		if err != nil {
			t.Fatal(err)
		}
		zr.Multistream(false)
		rec, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		member := data[start : len(data)-br.Len()]
		if b := edit(rec); b != nil {
			edited++
			zw := gzip.NewWriter(&out)
			zw.Write(b)
			zw.Close()
			continue
		}
		out.Write(member)
	}
	if edited != 1 {
		t.Fatalf("%d members edited, want 1", edited)
	}
	if err := os.WriteFile(to, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
