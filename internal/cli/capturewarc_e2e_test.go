package cli

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/md5"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"image/color"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestCaptureWARC is issue 16's second "done when": a local site captured
// with capture --warc, then every page-set and image-set identifier of the
// PDF recomputed from the WARC's payloads only, as node-warc (npm, an
// independent reader) reads them, MD5 computed here by the identifier rule
// (a page: its bytes, then its images' MD5 in order of reference; an
// image: its bytes). The site has a redirect chain, an image two pages
// share (a revisit record), an image linked to (an image set), a page sent
// with Content-Encoding gzip and one sent chunked. The same WARC audits the
// PDF clean (audit --sources), and each payload's sha256: digest is the
// SHA-256 of the bytes the server sent.
func TestCaptureWARC(t *testing.T) {
	browserSuite(t)
	node, err1 := exec.LookPath("node")
	npm, err2 := exec.LookPath("npm")
	if err1 != nil || err2 != nil {
		t.Skip("node or npm is not installed (apt-get install nodejs npm): the capture's WARC is not read by node-warc")
	}
	shared := gifOf(t, 3, 2, color.RGBA{200, 0, 0, 255})
	own := gifOf(t, 2, 3, color.RGBA{0, 0, 200, 255})
	photo := gifOf(t, 4, 4, color.RGBA{0, 150, 0, 255})
	sent := map[string][]byte{ // what the server sends, by path
		"/index.html":     []byte(`<!DOCTYPE html><html><head><title>Home</title></head><body><img src="/img/shared.gif"><a href="/moved">moved</a> <a href="zipped.html">zipped</a> <a href="chunked.html">chunked</a> <a href="/img/photo.gif">photo</a></body></html>`),
		"/a.html":         []byte(`<!DOCTYPE html><html><head><title>A</title></head><body><img src="/img/shared.gif"><img src="/img/own.gif"><p>Alpha.</p></body></html>`),
		"/zipped.html":    []byte(`<!DOCTYPE html><html><head><title>Zipped</title></head><body><img src="/img/shared.gif"><p>` + strings.Repeat("sent gzip-encoded. ", 40) + `</p></body></html>`),
		"/chunked.html":   []byte(`<!DOCTYPE html><html><head><title>Chunked</title></head><body><p>sent chunked</p></body></html>`),
		"/img/shared.gif": shared,
		"/img/own.gif":    own,
		"/img/photo.gif":  photo,
	}
	images := map[string][]string{
		"/index.html":  {"/img/shared.gif"},
		"/a.html":      {"/img/shared.gif", "/img/own.gif"},
		"/zipped.html": {"/img/shared.gif"},
	}
	newPage := []byte(`<!DOCTYPE html><html><head><title>New</title></head><body><img src="/img/own.gif"><p>Appended.</p></body></html>`)
	var zipped atomic.Int32 // responses sent gzip-encoded
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		switch {
		case p == "/new.html": // not linked: append captures it
			w.Header().Set("Content-Type", "text/html")
			w.Write(newPage)
			return
		case p == "/moved":
			http.Redirect(w, r, "/a.html", http.StatusFound)
			return
		case sent[p] == nil:
			http.NotFound(w, r)
			return
		case strings.HasSuffix(p, ".gif"):
			w.Header().Set("Content-Type", "image/gif")
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
		switch p {
		case "/zipped.html":
			if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
				break
			}
			zipped.Add(1)
			w.Header().Set("Content-Encoding", "gzip")
			z := gzip.NewWriter(w)
			z.Write(sent[p])
			z.Close()
			return
		case "/chunked.html":
			body := sent[p]
			w.Write(body[:20])
			w.(http.Flusher).Flush() // no Content-Length: chunked
			w.Write(body[20:])
			return
		}
		w.Write(sent[p])
	}))
	defer srv.Close()
	base := srv.URL
	dir := t.TempDir()
	pdf, archive := filepath.Join(dir, "site.pdf"), filepath.Join(dir, "site.warc.gz")

	var sum struct {
		Pages []struct {
			URL string `json:"url"`
		} `json:"captured"`
		Errors int `json:"auditErrors"`
	}
	if code := runJSON(t, &sum, "capture", "--json", "--ignore-robots", "--levels", "2", "--wait-idle", "50ms", "--warc", archive, base+"/index.html", "-o", pdf); code != 0 {
		t.Fatalf("capture: exit %d: %+v", code, sum)
	}
	if zipped.Load() == 0 {
		t.Error("no response was sent gzip-encoded: the test checks nothing of Content-Encoding")
	}
	ios, _, stdout, stderr := Test()
	if code := Main(context.Background(), []string{"audit", "--in-process", "--sources", archive, pdf}, ios); code != 0 {
		t.Errorf("audit --sources %s: exit %d\n%s%s", archive, code, stdout, stderr)
	}

	// The WARC as node-warc reads it.
	recs := nodeWARC(t, node, npm, archive)
	byID := map[string]nodeRecord{}
	count := map[string]int{}
	for _, r := range recs {
		byID[r.ID] = r
		count[r.Type]++
	}
	payload := map[string][]byte{} // target URI → the payload of its 200 response
	for _, r := range recs {
		switch r.Type {
		case "response":
			payload[r.URI] = r.content()
		case "revisit":
			orig, ok := byID[r.RefersTo]
			if !ok || orig.Type != "response" {
				t.Errorf("revisit %s refers to %q, not a response", r.URI, r.RefersTo)
			}
			payload[r.URI] = orig.content()
		case "request":
			if byID[r.ConcurrentTo].Type == "" {
				t.Errorf("request %s: WARC-Concurrent-To %q names no record", r.URI, r.ConcurrentTo)
			}
		}
	}
	if recs[0].Type != "warcinfo" || count["revisit"] == 0 || count["resource"] != 1 || count["request"] != count["response"]+count["revisit"] {
		t.Errorf("records by type %v (first %s): want a warcinfo first, a request per response or revisit, a revisit, one resource", count, recs[0].Type)
	}
	last := recs[len(recs)-1]
	data, err := os.ReadFile(pdf)
	if err != nil {
		t.Fatal(err)
	}
	if last.Type != "resource" || last.URI != "urn:pdf:"+base+"/index.html" || !bytes.Equal(last.content(), data) {
		t.Errorf("the last record is a %s %s of %d bytes, want the PDF (%d bytes) as urn:pdf:%s/index.html", last.Type, last.URI, len(last.content()), len(data), base)
	}
	// The payloads are the bytes the server sent, decoded (gzip).
	for path, body := range sent {
		got, ok := payload[base+path]
		if !ok {
			t.Errorf("%s: no response in the WARC", path)
			continue
		}
		if !bytes.Equal(got, body) {
			t.Errorf("%s: the WARC's payload (%d bytes) is not what the server sent (%d bytes)", path, len(got), len(body))
		}
	}
	for _, r := range recs {
		if r.Type == "response" && r.PayloadDigest != "sha256:"+hexSHA256(r.content()) {
			t.Errorf("%s: WARC-Payload-Digest %s, not the SHA-256 of its payload", r.URI, r.PayloadDigest)
		}
	}

	// Every content set's identifier, from the WARC's payloads only.
	var info struct {
		ContentSets []struct {
			Subtype string  `json:"subtype"`
			ID      *string `json:"id"`
			Sources []struct {
				URL    string `json:"url"`
				SHA256 string `json:"sha256"`
			} `json:"sources"`
		} `json:"contentSets"`
	}
	if code := runJSON(t, &info, "info", "--json", pdf); code != 0 {
		t.Fatalf("info: exit %d", code)
	}
	sets := map[string]int{}
	for _, cs := range info.ContentSets {
		u := cs.Sources[0].URL
		path := strings.TrimPrefix(u, base)
		sets[cs.Subtype]++
		h := md5.New()
		h.Write(payload[u])
		if cs.Subtype == "SPS" {
			for _, im := range images[path] {
				s := md5.Sum(payload[base+im])
				h.Write(s[:])
			}
		}
		want := strings.ToUpper(hex.EncodeToString(h.Sum(nil)))
		if got := "(none)"; cs.ID == nil || *cs.ID != want {
			if cs.ID != nil {
				got = *cs.ID
			}
			t.Errorf("%s %s: ID %s, want %s (recomputed from the WARC)", cs.Subtype, path, got, want)
		}
		if sha := cs.Sources[0].SHA256; sha != hexSHA256(payload[u]) {
			t.Errorf("%s %s: /WCSHA256 %s, want the SHA-256 of the WARC's payload %s", cs.Subtype, path, sha, hexSHA256(payload[u]))
		}
	}
	// The linked image is a page of its own, and an image set.
	if sets["SPS"] != 5 || sets["SIS"] != 1 {
		t.Errorf("content sets %v, want 5 page sets and 1 image set", sets)
	}

	// append --warc: the new page's exchange and the appended PDF. The
	// file's older sets are not in this WARC (WC-SOURCE-MISSING is a
	// notice); the new one audits against it.
	appended, appWARC := filepath.Join(dir, "app.pdf"), filepath.Join(dir, "app.warc.gz")
	ios, _, stdout, stderr = Test()
	if code := Main(context.Background(), []string{"append", "--ignore-robots", "--wait-idle", "50ms", "--warc", appWARC, pdf, base + "/new.html", "-o", appended}, ios); code != 0 {
		t.Fatalf("append --warc: exit %d\n%s%s", code, stdout, stderr)
	}
	recs = nodeWARC(t, node, npm, appWARC)
	data, _ = os.ReadFile(appended)
	var found bool
	for _, r := range recs {
		found = found || r.Type == "response" && r.URI == base+"/new.html" && bytes.Equal(r.content(), newPage)
	}
	if last := recs[len(recs)-1]; !found || last.Type != "resource" || !bytes.Equal(last.content(), data) {
		t.Errorf("append's WARC: the new page's response found %v, last record %s %s (%d bytes, the PDF has %d)", found, last.Type, last.URI, len(last.content()), len(data))
	}
	ios, _, stdout, stderr = Test()
	if code := Main(context.Background(), []string{"audit", "--in-process", "--sources", appWARC, appended}, ios); code != 0 || strings.Contains(stdout.String(), "MISMATCH") {
		t.Errorf("audit --sources %s: exit %d\n%s%s", appWARC, code, stdout, stderr)
	}

	// refresh --warc: every page fetched again, so the refreshed file
	// audits against its WARC with no source missing.
	refreshed, refWARC := filepath.Join(dir, "refreshed.pdf"), filepath.Join(dir, "refreshed.warc")
	ios, _, stdout, stderr = Test()
	if code := Main(context.Background(), []string{"refresh", "--ignore-robots", "--allow-private", "--wait-idle", "50ms", "--warc", refWARC, pdf, "-o", refreshed}, ios); code != 0 {
		t.Fatalf("refresh --warc: exit %d\n%s%s", code, stdout, stderr)
	}
	if head, err := os.ReadFile(refWARC); err != nil || !bytes.HasPrefix(head, []byte("WARC/1.1\r\n")) {
		t.Errorf("refresh --warc %s: not an uncompressed WARC (%v)", refWARC, err)
	}
	ios, _, stdout, stderr = Test()
	if code := Main(context.Background(), []string{"audit", "--in-process", "--sources", refWARC, refreshed}, ios); code != 0 || strings.Contains(stdout.String(), "WC-SOURCE-") {
		t.Errorf("audit --sources %s: exit %d\n%s%s", refWARC, code, stdout, stderr)
	}
}

func hexSHA256(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// A nodeRecord is one record as warc/testdata/nodewarc.js prints it.
type nodeRecord struct {
	Type, URI, ID, PayloadDigest, ConcurrentTo, RefersTo, Content string
}

// content is the record's content as node-warc parses it, without the
// first CRLF of the two that end a record, which node-warc keeps.
func (r nodeRecord) content() []byte {
	b, _ := base64.StdEncoding.DecodeString(r.Content)
	return bytes.TrimSuffix(b, []byte("\r\n"))
}

// nodeWARC reads path with node-warc (installed from npm into a temporary
// directory) through the warc package's script.
func nodeWARC(t *testing.T, node, npm, path string) []nodeRecord {
	t.Helper()
	dir := t.TempDir()
	install := exec.Command(npm, "install", "--no-audit", "--no-fund", "--silent", "--prefix", dir, "node-warc@3")
	if b, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm install node-warc: %v\n%s", err, b)
	}
	script, _ := filepath.Abs("../../warc/testdata/nodewarc.js")
	cmd := exec.Command(node, script, path)
	cmd.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(dir, "node_modules"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node-warc on %s: %v\n%s", path, err, out)
	}
	var recs []nodeRecord
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r nodeRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("node output %q: %v", sc.Text(), err)
		}
		recs = append(recs, r)
	}
	if len(recs) == 0 {
		t.Fatal("node-warc read no record")
	}
	return recs
}
