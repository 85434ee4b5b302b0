//go:build unix

package hostile

import (
	"bytes"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/webcap/webcap/warc"
)

// Issue 28, item 1's rest: audit --sources follows a WARC's redirect
// chains, and a capture's WARC records the TLS facts of each HTTPS origin,
// bounded whatever certificate chain the server presents.

// movedLogo writes a WARC in which the capture sample's logo URL
// (http://www.example.com/logo.gif) was answered with a 301 to
// /img/logo.gif, answered 200 with 13 bytes (MD5 c9eef186...).
func movedLogo(path string) error {
	var b bytes.Buffer
	w := warc.NewWriter(&b, true)
	at := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	for _, r := range []*warc.Record{
		warc.NewResponse("http://www.example.com/logo.gif", at, []byte("HTTP/1.1 301 Moved Permanently\r\nLocation: /img/logo.gif\r\nContent-Length: 0\r\n\r\n")),
		warc.NewResponse("http://www.example.com/img/logo.gif", at, []byte("HTTP/1.1 200 OK\r\nContent-Type: image/gif\r\nContent-Length: 13\r\n\r\nGIF89a a logo")),
	} {
		if err := w.Write(r); err != nil {
			return err
		}
	}
	return Write(filepath.Dir(path), filepath.Base(path), b.Bytes())
}

// chainCopies is how many certificates the hostile HTTPS server presents:
// its own, then as many copies of it as Go's client accepts in one
// certificate message (256 KiB).
func chainCopies(der []byte) int { return (250 << 10) / (len(der) + 3) }

// hugeChainSite starts an HTTPS server whose TLS certificate message holds
// its certificate chainCopies times, closing the connection after each
// answer (so each of the page's fetches is a new handshake with the same
// state), and writes its certificate, the child's only trusted root
// (SSL_CERT_FILE), to the case's ca.pem.
func hugeChainSite(dir string) ([]string, func(), error) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close")
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<!doctype html><title>Chain</title><img src="/a.gif"><img src="/b.gif">`)
		case "/a.gif", "/b.gif":
			w.Header().Set("Content-Type", "image/gif")
			io.WriteString(w, "GIF89a\x01\x00\x01\x00\x00\x00\x00;"+r.URL.Path)
		default:
			http.NotFound(w, r)
		}
	}))
	srv.StartTLS()
	cert := &srv.TLS.Certificates[0] // read at each handshake
	leaf := cert.Certificate[0]
	for range chainCopies(leaf) - 1 {
		cert.Certificate = append(cert.Certificate, leaf)
	}
	if err := Write(dir, "ca.pem", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: leaf})); err != nil {
		srv.Close()
		return nil, nil, err
	}
	return []string{"capture", "--wait-idle", "50ms", "--warc", "w.warc.gz", srv.URL + "/", "-o", "out.pdf"},
		func() { srv.CloseClientConnections(); srv.Close() }, nil
}

// tlsRecorded is a Check that the WARC name holds one pair of TLS
// metadata records, bounded: the facts say how many certificates the
// server presented and how many were left out, the PEM holds 10.
func tlsRecorded(name string) func(dir string) error {
	return func(dir string) error {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		defer f.Close()
		ca, err := os.ReadFile(filepath.Join(dir, "ca.pem"))
		if err != nil {
			return err
		}
		blk, _ := pem.Decode(ca)
		if blk == nil {
			return fmt.Errorf("ca.pem: no PEM block")
		}
		var facts, certs []*warc.Record
		rd := warc.NewReader(f)
		for {
			rec, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return err
			}
			if rec.Type() != warc.TypeMetadata {
				continue
			}
			switch rec.Header.Get(warc.FieldContentType) {
			case "application/warc-fields":
				facts = append(facts, rec)
			case "application/x-pem-file":
				certs = append(certs, rec)
			}
		}
		if len(facts) != 1 || len(certs) != 1 {
			return fmt.Errorf("%d TLS facts and %d PEM records, want one of each (one origin, one state)", len(facts), len(certs))
		}
		n := chainCopies(blk.Bytes)
		for _, want := range []string{"tls-version: TLS 1.3\r\n", fmt.Sprintf("tls-certificates: %d\r\n", n), fmt.Sprintf("tls-certificates-omitted: %d\r\n", n-10)} {
			if !strings.Contains(string(facts[0].Block), want) {
				return fmt.Errorf("the TLS facts %q do not say %q", facts[0].Block, want)
			}
		}
		if got := bytes.Count(certs[0].Block, []byte("-----BEGIN CERTIFICATE-----")); got != 10 || len(certs[0].Block) > 64<<10 {
			return fmt.Errorf("the PEM record holds %d certificates in %d bytes, want 10 within 64 KiB", got, len(certs[0].Block))
		}
		if !bytes.HasPrefix(certs[0].Block, ca) {
			return fmt.Errorf("the PEM record does not start with the server's certificate")
		}
		return nil
	}
}

func init() {
	Register(Case{Name: "capture-warc-tls-huge-chain", Part: Bounds, Browser: true,
		Setup:   hugeChainSite,
		Env:     []string{"SSL_CERT_FILE=ca.pem", "SSL_CERT_DIR=/nonexistent"},
		Exit:    0,
		Check:   tlsRecorded("w.warc.gz"),
		MaxCPU:  60e9,
		MaxRSS:  1 << 30,
		MaxTree: 3 << 30,
		Before:  "exit 0, 0.7 s CPU, 217 MB (tree 227 MB): the WARC held no TLS record at all (0 facts, 0 PEM: neither the TLS version, cipher and server name nor the chain of 250 KiB the server presented)"})
	Register(Case{Name: "audit-sources-warc-redirect", Part: Loss,
		Setup: warcSetup(map[string]func(string) error{"r.warc.gz": movedLogo}, nil, "audit", "--sources", "r.warc.gz", "cap.pdf"),
		Exit:  0,
		// The image set's bytes are found at the chain's end: its (made
		// up) /ID differs from their MD5, which the message gives.
		Stdout:    []string{`^cap\.pdf: warning WC-SOURCE-MISMATCH object 17 0 R /ID: .* http://www\.example\.com/img/logo\.gif now has the identifier <C9EEF1867BB9256F304BDFFE9B48FD32> \(MD5 of its 13 bytes; WARC record <urn:uuid:`},
		NotStdout: []string{`WC-SOURCE-MISSING .*logo\.gif`},
		MaxCPU:    cpuQuick, MaxRSS: rssQuick,
		Before: "exit 0 (0.02 s, 20 MB): WC-SOURCE-MISSING object 17 0 R: none of the set's source URLs (http://www.example.com/logo.gif) is among the sources; the 301 to /img/logo.gif was not followed"})
}
