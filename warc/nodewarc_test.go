package warc_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/webcap/webcap/warc"
)

// TestNodeWARC: node-warc (npm), an independent reader, reads the WARC
// files this package writes, gzip or not, record for record: type, target
// URI, record ID, payload digest, WARC-Concurrent-To, WARC-Refers-To, and
// the HTTP body or the block. The warcinfo and the request are those of a
// capture's WARC whose credentials were redacted (capture.WriteWARC):
// "Cookie: (redacted)" lines, a webcap-redacted-headers field.
func TestNodeWARC(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: npm install node-warc is left out")
	}
	node, err1 := exec.LookPath("node")
	npm, err2 := exec.LookPath("npm")
	if err1 != nil || err2 != nil {
		t.Skip("node or npm is not installed (apt-get install nodejs npm): the WARC writer is not checked against node-warc")
	}
	dir := t.TempDir()
	install := exec.Command(npm, "install", "--no-audit", "--no-fund", "--silent", "--prefix", dir, "node-warc@3")
	if b, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm install node-warc: %v\n%s", err, b)
	}
	script, _ := filepath.Abs("testdata/nodewarc.js")
	for _, compress := range []bool{true, false} {
		var buf bytes.Buffer
		w := warc.NewWriter(&buf, compress)
		info, err := w.WriteInfo("site.warc.gz", warc.Header{{Name: "software", Value: "webcap test"},
			{Name: "webcap-redacted-headers", Value: "Cookie, Authorization, Proxy-Authorization, Set-Cookie"}})
		if err != nil {
			t.Fatal(err)
		}
		body := "<html><body>hi</body></html>"
		date := time.Date(2026, 11, 25, 18, 0, 0, 0, time.UTC)
		resp := warc.NewResponse("http://a.example/", date, []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 28\r\n\r\n"+body))
		resp.Header.Set(warc.FieldWarcinfoID, info)
		req := warc.NewRequest("http://a.example/", date, []byte("GET / HTTP/1.1\r\nHost: a.example\r\nAuthorization: (redacted)\r\nCookie: (redacted)\r\nCookie: (redacted)\r\n\r\n")).ConcurrentTo(resp)
		pdf := warc.NewResource("urn:pdf:http://a.example/", date, "application/pdf", []byte("%PDF-1.7\n%%EOF\n"))
		want := []*warc.Record{req, resp, pdf}
		for _, r := range want {
			if err := w.Write(r); err != nil {
				t.Fatal(err)
			}
		}
		again := warc.NewRevisit("http://a.example/again", date, []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"), resp)
		if err := w.Write(again); err != nil {
			t.Fatal(err)
		}
		want = append(want, again)
		if err := w.Write(&warc.Record{Header: warc.Header{{Name: warc.FieldType, Value: warc.TypeMetadata}, {Name: warc.FieldConcurrentTo, Value: resp.ID()},
			{Name: warc.FieldContentType, Value: "application/warc-fields"}}, Block: []byte("via: test\r\n")}); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "w.warc")
		if compress {
			path += ".gz"
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(node, script, path)
		cmd.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(dir, "node_modules"))
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("node-warc on %s: %v\n%s", path, err, out)
		}
		type got struct{ Type, URI, ID, PayloadDigest, ConcurrentTo, RefersTo, Content string }
		var recs []got
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			var g got
			if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
				t.Fatalf("node output %q: %v", sc.Text(), err)
			}
			recs = append(recs, g)
		}
		if len(recs) != 6 || recs[0].Type != "warcinfo" || recs[0].ID != info || recs[5].Type != "metadata" {
			t.Fatalf("gzip %v: node-warc read %+v, want warcinfo, request, response, resource, revisit, metadata", compress, recs)
		}
		for i, r := range want {
			g := recs[i+1]
			if g.Type != r.Type() || g.URI != r.TargetURI() || g.ID != r.ID() || g.PayloadDigest != r.Header.Get(warc.FieldPayloadDigest) ||
				g.ConcurrentTo != r.Header.Get(warc.FieldConcurrentTo) || g.RefersTo != r.Header.Get(warc.FieldRefersTo) {
				t.Errorf("gzip %v: node-warc read %+v, wrote %q", compress, g, r.Header)
			}
		}
		// node-warc keeps the first CRLF of the two that end a record.
		if c, _ := base64.StdEncoding.DecodeString(recs[2].Content); string(c) != body+"\r\n" {
			t.Errorf("gzip %v: node-warc's content of the response %q, want %q", compress, c, body)
		}
		if c, _ := base64.StdEncoding.DecodeString(recs[3].Content); string(c) != string(pdf.Block)+"\r\n" {
			t.Errorf("gzip %v: node-warc's content of the resource %q, want %q", compress, c, pdf.Block)
		}
		if recs[1].ConcurrentTo != resp.ID() || recs[4].RefersTo != resp.ID() || recs[4].PayloadDigest != warc.SHA256([]byte(body)) {
			t.Errorf("gzip %v: node-warc read the request %+v and the revisit %+v: want them to refer to the response %s, payload %s", compress, recs[1], recs[4], resp.ID(), warc.SHA256([]byte(body)))
		}
		// And this package's Source serves the revisit's URL the response's content.
		s, err := warc.LoadReader(bytes.NewReader(buf.Bytes()), "w.warc", nil, warc.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if rc, err := s.Open("http://a.example/again"); err != nil || len(s.Problems) > 0 {
			t.Errorf("Open of the revisit: %v, problems %q", err, s.Problems)
		} else if b, _ := io.ReadAll(rc); string(b) != body {
			t.Errorf("Open of the revisit: %q, want %q", b, body)
		}
	}
}
