package capture

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/webcap/webcap/warc"
)

// warcFields parses an application/warc-fields block: each name's values,
// in order.
func warcFields(t *testing.T, block []byte) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for line := range strings.SplitSeq(strings.TrimSuffix(string(block), "\r\n"), "\r\n") {
		name, value, ok := strings.Cut(line, ": ")
		if !ok {
			t.Fatalf("warc-fields line %q is not \"name: value\"", line)
		}
		out[name] = append(out[name], value)
	}
	return out
}

// pemCertificates decodes a PEM file's certificates, failing on anything
// else in it.
func pemCertificates(t *testing.T, b []byte) [][]byte {
	t.Helper()
	var out [][]byte
	for len(bytes.TrimSpace(b)) > 0 {
		var blk *pem.Block
		blk, b = pem.Decode(b)
		if blk == nil || blk.Type != "CERTIFICATE" {
			t.Fatalf("the PEM record holds something else than certificates: %q", b)
		}
		if _, err := x509.ParseCertificate(blk.Bytes); err != nil {
			t.Fatal(err)
		}
		out = append(out, blk.Bytes)
	}
	return out
}

// TestWARCTLS is issue 28's TLS facts: two answers fetched over one TLS
// connection (HTTP/1.1, then HTTP/2) are each archived, and the first one
// only is followed by the connection's facts (application/warc-fields)
// and the server's certificate in PEM, both concurrent to its response.
// The certificate recorded is the server's (its DER bytes, and openssl's
// SHA-256 fingerprint of the PEM written), and the server name is the one
// the client sent (example.com, dialled on loopback).
func TestWARCTLS(t *testing.T) {
	for _, tc := range []struct {
		name string
		h2   bool
	}{{"http1", false}, {"h2", true}} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/plain")
				w.Write([]byte("secure " + r.URL.Path))
			}))
			srv.EnableHTTP2 = tc.h2
			srv.StartTLS()
			defer srv.Close()
			client := srv.Client()
			tr := client.Transport.(*http.Transport).Clone()
			tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
				return (&net.Dialer{}).DialContext(ctx, network, srv.Listener.Addr().String())
			}
			tr.ForceAttemptHTTP2 = tc.h2
			client.Transport = tr
			_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
			base := "https://example.com:" + port
			var got []*Response
			b := &Browser{}
			for _, path := range []string{"/", "/logo.gif"} {
				_, rs, fe := b.get(context.Background(), client, base+path, "", nil, time.Now)
				if fe != nil {
					t.Fatal(fe)
				}
				got = append(got, rs...)
			}
			page := &Page{Requested: base + "/", URL: base + "/", Responses: got}
			var buf bytes.Buffer
			if err := WriteWARC(&buf, true, []*Page{page}, []byte("%PDF-1.7"), WARCInfo{Software: "webcap/test"}); err != nil {
				t.Fatal(err)
			}
			recs := warcRecords(t, buf.Bytes())
			var kinds []string
			for _, r := range recs {
				kinds = append(kinds, r.Type()+" "+r.Header.Get(warc.FieldContentType))
			}
			want := []string{"warcinfo application/warc-fields",
				"request application/http; msgtype=request", "response application/http; msgtype=response",
				"metadata application/warc-fields", "metadata application/x-pem-file",
				"request application/http; msgtype=request", "response application/http; msgtype=response",
				"resource application/pdf"}
			if strings.Join(kinds, "\n") != strings.Join(want, "\n") {
				t.Fatalf("records:\n%s\nwant:\n%s", strings.Join(kinds, "\n"), strings.Join(want, "\n"))
			}
			resp, facts, certs := recs[2], recs[3], recs[4]
			for _, r := range []*warc.Record{facts, certs} {
				if r.Header.Get(warc.FieldConcurrentTo) != resp.ID() || r.TargetURI() != base+"/" || r.Header.Get(warc.FieldDate) != resp.Header.Get(warc.FieldDate) {
					t.Errorf("metadata record %q: want WARC-Concurrent-To %s, the URI and date of the response", r.Header, resp.ID())
				}
			}
			if certs.Header.Get(warc.FieldRefersTo) != facts.ID() {
				t.Errorf("the PEM record refers to %q, want the facts' record %s", certs.Header.Get(warc.FieldRefersTo), facts.ID())
			}
			leaf := srv.Certificate().Raw
			sum := sha256.Sum256(leaf)
			alpn := ""
			if tc.h2 {
				alpn = "h2"
			}
			f := warcFields(t, facts.Block)
			state := got[0].TLS
			for name, want := range map[string]string{
				"tls-version": "TLS 1.3", "tls-cipher-suite": tls.CipherSuiteName(state.CipherSuite), "tls-server-name": "example.com",
				"tls-alpn": alpn, "tls-certificates": "1", "tls-certificate-sha256": hex.EncodeToString(sum[:]), "tls-certificates-omitted": "",
			} {
				if g := strings.Join(f[name], ","); g != want {
					t.Errorf("%s: %q, want %q", name, g, want)
				}
			}
			chain := pemCertificates(t, certs.Block)
			if len(chain) != 1 || !bytes.Equal(chain[0], leaf) {
				t.Errorf("the PEM record holds %d certificates, want the server's one", len(chain))
			}
			if openssl, err := exec.LookPath("openssl"); err == nil {
				cmd := exec.Command(openssl, "x509", "-noout", "-fingerprint", "-sha256")
				cmd.Stdin = bytes.NewReader(certs.Block)
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("openssl x509 on the PEM record: %v", err)
				}
				_, fp, _ := strings.Cut(strings.TrimSpace(string(out)), "=")
				if g := strings.ToLower(strings.ReplaceAll(fp, ":", "")); g != f["tls-certificate-sha256"][0] {
					t.Errorf("openssl's fingerprint of the PEM record %s, tls-certificate-sha256 %s", g, f["tls-certificate-sha256"][0])
				}
			}
			if tc.h2 {
				nodeReadsTLS(t, buf.Bytes(), resp.ID())
			}
		})
	}
}

// nodeReadsTLS: node-warc (npm), an independent reader, reads the WARC b
// and finds the two metadata records concurrent to the response id, the
// facts first.
func nodeReadsTLS(t *testing.T, b []byte, id string) {
	if testing.Short() {
		t.Log("-short: node-warc is left out")
		return
	}
	node, err1 := exec.LookPath("node")
	npm, err2 := exec.LookPath("npm")
	if err1 != nil || err2 != nil {
		t.Log("node or npm is not installed: the TLS records are not read with node-warc")
		return
	}
	dir := t.TempDir()
	if out, err := exec.Command(npm, "install", "--no-audit", "--no-fund", "--silent", "--prefix", dir, "node-warc@3").CombinedOutput(); err != nil {
		t.Fatalf("npm install node-warc: %v\n%s", err, out)
	}
	path := filepath.Join(dir, "tls.warc.gz")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	script, _ := filepath.Abs(filepath.Join("..", "warc", "testdata", "nodewarc.js"))
	cmd := exec.Command(node, script, path)
	cmd.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(dir, "node_modules"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node-warc: %v\n%s", err, out)
	}
	var meta []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var g struct{ Type, ConcurrentTo, Content string }
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatalf("node output %q: %v", sc.Text(), err)
		}
		if g.Type == "metadata" && g.ConcurrentTo == id {
			c, _ := base64.StdEncoding.DecodeString(g.Content)
			first, _, _ := strings.Cut(string(c), "\n")
			meta = append(meta, strings.TrimSpace(first))
		}
	}
	if len(meta) != 2 || meta[0] != "tls-version: TLS 1.3" || meta[1] != "-----BEGIN CERTIFICATE-----" {
		t.Errorf("node-warc read the metadata records concurrent to %s starting %q, want the TLS facts, then the PEM chain", id, meta)
	}
}

// The TLS records are bounded whatever the server presents, and written
// once per origin and state: a chain of 300 certificates records the
// first 10 and says how many were left out; another origin, or another
// certificate on the same origin, gets its own records; the same state
// again, none; an answer over plain HTTP, none.
func TestWARCTLSRecords(t *testing.T) {
	srv := httptest.NewTLSServer(http.NotFoundHandler())
	defer srv.Close()
	leaf := srv.Certificate()
	// Another certificate: the leaf with its signature's last bit changed
	// (it still parses).
	otherCert := *leaf
	otherCert.Raw = bytes.Clone(leaf.Raw)
	otherCert.Raw[len(otherCert.Raw)-1] ^= 1
	large := bigCertificate(t, 30000)
	many := make([]*x509.Certificate, 300)
	for i := range many {
		many[i] = leaf
	}
	state := func(certs ...*x509.Certificate) *tls.ConnectionState {
		return &tls.ConnectionState{Version: tls.VersionTLS12, CipherSuite: tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, ServerName: "a.example", PeerCertificates: certs}
	}
	seen := map[string]bool{}
	for _, tc := range []struct {
		name  string
		url   string
		state *tls.ConnectionState
		want  int    // records
		certs string // tls-certificates, and tls-certificates-omitted's count
	}{
		{"many", "https://a.example/", state(many...), 2, "300 290"},
		{"same state", "https://a.example/logo.gif", state(many...), 0, ""},
		{"other origin", "https://a.example:8443/", state(many...), 2, "300 290"},
		{"other certificate", "https://a.example/b", state(&otherCert), 2, "1 "},
		{"large certificates", "https://c.example/", state(large, large, large, large), 2, "4 2"}, // 2 of 30 kB within 64 KiB
		{"plain HTTP", "http://a.example/", nil, 0, ""},
		{"no certificate", "https://b.example/", state(), 1, "0 "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Response{URL: tc.url, TLS: tc.state}
			resp := warc.NewResponse(tc.url, time.Time{}, nil)
			recs := tlsRecords(r, resp, seen, WARCInfo{})
			if len(recs) != tc.want {
				t.Fatalf("%d records, want %d", len(recs), tc.want)
			}
			if tc.want == 0 {
				return
			}
			f := warcFields(t, recs[0].Block)
			omitted := strings.Join(f["tls-certificates-omitted"], ",")
			if g := strings.Join(f["tls-certificates"], ",") + " " + omitted; g != tc.certs {
				t.Errorf("tls-certificates and omitted: %q, want %q", g, tc.certs)
			}
			if f["tls-version"][0] != "TLS 1.2" || f["tls-cipher-suite"][0] != "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256" || f["tls-server-name"][0] != "a.example" {
				t.Errorf("facts %q", f)
			}
			if tc.want < 2 {
				return
			}
			n, _ := strconv.Atoi(tc.certs[:strings.IndexByte(tc.certs, ' ')])
			kept := min(n, maxTLSCertificates)
			if tc.state.PeerCertificates[0] == large {
				kept = maxTLSChainBytes / len(large.Raw)
			}
			if chain := pemCertificates(t, recs[1].Block); len(chain) != kept || len(f["tls-certificate-sha256"]) != kept {
				t.Errorf("%d certificates in PEM, %d fingerprints; want %d", len(chain), len(f["tls-certificate-sha256"]), kept)
			}
			if len(recs[1].Block) > 2*maxTLSChainBytes {
				t.Errorf("the PEM record holds %d bytes, more than twice the %d bytes of DER recorded at most", len(recs[1].Block), maxTLSChainBytes)
			}
		})
	}
}

// bigCertificate makes a self-signed certificate of more than size bytes
// (an extension of size bytes).
func bigCertificate(t *testing.T, size int) *x509.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "big.example"},
		NotBefore: time.Unix(0, 0), NotAfter: time.Unix(1<<32, 0),
		ExtraExtensions: []pkix.Extension{{Id: asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 99999, 1}, Value: bytes.Repeat([]byte{4}, size)}}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
