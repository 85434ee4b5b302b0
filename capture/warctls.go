package capture

import (
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/webcap/webcap/warc"
)

// The TLS facts of an HTTPS answer (WriteWARC), as two metadata records
// (WARC/1.1 §6.6) written after the response (or revisit) record they
// accompany, each with WARC-Concurrent-To that record's ID, WARC-Target-URI
// the answer's URL and WARC-Date its fetch's:
//
//   - Content-Type application/warc-fields (WARC/1.1 §6.4: "name: value"
//     lines): tls-version ("TLS 1.3"), tls-cipher-suite (its IANA name,
//     "TLS_AES_128_GCM_SHA256"), tls-server-name (the server name the
//     client sent, SNI; none for an IP address), tls-alpn (the protocol
//     negotiated, "h2"; left out when none), tls-resumed: true for a
//     resumed session, tls-certificates (how many certificates the server
//     presented), one tls-certificate-sha256 per certificate recorded, leaf
//     first (the SHA-256 of its DER bytes, in hex: what "openssl x509
//     -fingerprint -sha256" prints, without the colons), and
//     tls-certificates-omitted when some were left out (below);
//   - Content-Type application/x-pem-file, and WARC-Refers-To the first
//     record: the certificates recorded, leaf first, in PEM ("-----BEGIN
//     CERTIFICATE-----"), as the server presented them (its chain, which
//     need not be the one Go verified). A PEM block cannot be a warc-fields
//     value, so it has its own record; "openssl x509" and "openssl
//     crl2pkcs7 -nocrl -certfile" read it as is.
//
// They are written once per origin (scheme, host, port) and TLS state:
// the first answer received over a connection whose version, cipher suite,
// ALPN, server name or certificates recorded (and their number) differ
// from those recorded before for its origin gets them; the answers after
// it over the same state do not.
// What they hold is bounded whatever the server presents (Go's client
// accepts a certificate message of up to 256 KiB): at most
// maxTLSCertificates certificates and maxTLSChainBytes bytes of DER are
// recorded, the first ones in order; tls-certificates-omitted says how many
// are not, and tls-certificates how many there were.
const (
	maxTLSCertificates = 10       // a real chain has 2 to 4
	maxTLSChainBytes   = 64 << 10 // of DER, in all
)

// PEM block type of a certificate (RFC 7468 §5).
const pemCertificate = "CERTIFICATE"

// recordedCertificates are the certificates of cs that its records hold:
// the first ones, at most maxTLSCertificates and maxTLSChainBytes of DER.
func recordedCertificates(cs *tls.ConnectionState) []*x509.Certificate {
	size := 0
	for i, c := range cs.PeerCertificates {
		if i == maxTLSCertificates || size+len(c.Raw) > maxTLSChainBytes {
			return cs.PeerCertificates[:i]
		}
		size += len(c.Raw)
	}
	return cs.PeerCertificates
}

// tlsKey identifies the origin and TLS state of cs, for writing its
// records once (tlsRecords): its certificates are those recorded and how
// many were presented (so that a key costs at most maxTLSChainBytes of
// hashing, however many answers came over connections of a huge chain).
func tlsKey(u string, cs *tls.ConnectionState) string {
	origin := u
	if p, err := url.Parse(u); err == nil {
		origin = p.Scheme + "://" + p.Host
	}
	h := sha256.New()
	for _, c := range recordedCertificates(cs) {
		h.Write(c.Raw)
	}
	return fmt.Sprintf("%s %x %x %q %q %d %x", origin, cs.Version, cs.CipherSuite, cs.NegotiatedProtocol, cs.ServerName, len(cs.PeerCertificates), h.Sum(nil))
}

// tlsRecords returns the metadata records of r's TLS state, concurrent to
// resp (its response or revisit record), unless seen already has its key
// (which it adds): nil for an answer not received over TLS.
func tlsRecords(r *Response, resp *warc.Record, seen map[string]bool, info WARCInfo) []*warc.Record {
	cs := r.TLS
	if cs == nil {
		return nil
	}
	key := tlsKey(r.URL, cs)
	if seen[key] {
		return nil
	}
	seen[key] = true
	var fields, chain strings.Builder
	field := func(name, value string) {
		if value != "" && !strings.ContainsAny(value, "\r\n") {
			fmt.Fprintf(&fields, "%s: %s\r\n", name, value)
		}
	}
	field("tls-version", tls.VersionName(cs.Version))
	field("tls-cipher-suite", tls.CipherSuiteName(cs.CipherSuite))
	field("tls-server-name", cs.ServerName)
	field("tls-alpn", cs.NegotiatedProtocol)
	if cs.DidResume {
		field("tls-resumed", "true")
	}
	field("tls-certificates", strconv.Itoa(len(cs.PeerCertificates)))
	kept := recordedCertificates(cs)
	for _, c := range kept {
		sum := sha256.Sum256(c.Raw)
		field("tls-certificate-sha256", hex.EncodeToString(sum[:]))
		pem.Encode(&chain, &pem.Block{Type: pemCertificate, Bytes: c.Raw}) // a strings.Builder does not fail
	}
	if n := len(cs.PeerCertificates) - len(kept); n > 0 {
		field("tls-certificates-omitted", strconv.Itoa(n))
	}
	uri := info.url(r.URL)
	facts := warc.NewMetadata(uri, r.Fetched, "application/warc-fields", []byte(fields.String())).ConcurrentTo(resp)
	out := []*warc.Record{facts}
	if len(kept) > 0 {
		certs := warc.NewMetadata(uri, r.Fetched, "application/x-pem-file", []byte(chain.String())).ConcurrentTo(resp)
		certs.Header = append(certs.Header, warc.Field{Name: warc.FieldRefersTo, Value: facts.ID()})
		out = append(out, certs)
	}
	return out
}
