// Package testpki is the tests' public-key infrastructure: a CA, a signer
// certificate and key (PEM and a password-protected PKCS#12), an RFC 3161
// time-stamping authority, an OCSP responder and a CRL, all served by one
// HTTP server on 127.0.0.1. Nothing here reaches beyond loopback; it exists
// so that seal's tests, the auditor's and the hostile suite check
// signatures and timestamps against a CA they made, with openssl and pdfsig
// as oracles.
//
//	p, err := testpki.New()
//	...
//	defer p.Close()
//	files, err := p.WriteFiles(t.TempDir()) // CA.pem, signer.pem, key.pem, signer.p12, ...
//	... --timestamp-url p.TSAURL() --sign-cert files.Signer --sign-key files.Key
//
// The keys are fixed (testdata/*.key.pem, made for this package and for no
// other use), so a run is quick; the certificates are made by New, because
// their AIA and CRL distribution point URLs name the server's port.
//
// Certificates:
//   - CA: self-signed, "webcap test CA", CA:true, keyCertSign|cRLSign.
//   - Signer: "webcap test signer", issued by the CA, digitalSignature and
//     nonRepudiation, AIA OCSP p.OCSPURL(), CRL distribution point p.CRLURL().
//   - TSA: "webcap test TSA", issued by the CA, extended key usage
//     timeStamping alone and critical (RFC 3161 §2.3), same AIA and CRL URLs.
//
// The OCSP responses and the CRL are signed by the CA itself. Revoke marks
// a serial number revoked in both.
package testpki

import (
	"bytes"
	"crypto"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"embed"
	"encoding/asn1"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/digitorus/timestamp"
	"golang.org/x/crypto/ocsp"
	pkcs12 "software.sslmate.com/src/go-pkcs12"
)

//go:embed testdata/*.key.pem
var keys embed.FS

// Password is the PKCS#12 file's password (WriteFiles writes it to
// password.txt, as --sign-password-file reads it).
const Password = "webcap-test-p12"

// Paths of the server's services.
const (
	TSAPath  = "/tsa"
	OCSPPath = "/ocsp"
	CRLPath  = "/ca.crl"
	CAPath   = "/ca.crt"
)

// PKI is a test CA with its certificates and the server that answers for it.
type PKI struct {
	CA, Signer, TSA          *x509.Certificate
	CAKey, SignerKey, TSAKey crypto.Signer
	// OtherKey is a key no certificate names (a test's wrong key).
	OtherKey crypto.Signer

	server *httptest.Server

	mu      sync.Mutex
	revoked map[string]time.Time    // serial (decimal) → revocation time
	handler map[string]http.Handler // SetHandler's replacements, by path
	counts  map[string]int          // path → requests served
}

// New makes the CA and its certificates and starts the server on
// 127.0.0.1 (an ephemeral port). Close stops it.
func New() (*PKI, error) {
	p := &PKI{revoked: map[string]time.Time{}, counts: map[string]int{}, handler: map[string]http.Handler{}}
	var err error
	for _, k := range []struct {
		name string
		dst  *crypto.Signer
	}{{"ca", &p.CAKey}, {"signer", &p.SignerKey}, {"tsa", &p.TSAKey}, {"other", &p.OtherKey}} {
		if *k.dst, err = loadKey(k.name); err != nil {
			return nil, err
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("testpki: listen on 127.0.0.1: %w", err)
	}
	p.server = httptest.NewUnstartedServer(http.HandlerFunc(p.serve))
	p.server.Listener.Close()
	p.server.Listener = ln
	base := "http://" + ln.Addr().String()
	if err := p.issue(base); err != nil {
		ln.Close()
		return nil, err
	}
	p.server.Start()
	return p, nil
}

// Close stops the server.
func (p *PKI) Close() { p.server.Close() }

// URL is the server's base URL (http://127.0.0.1:PORT).
func (p *PKI) URL() string { return p.server.URL }

// TSAURL is the time-stamping authority's URL (what --timestamp-url takes).
func (p *PKI) TSAURL() string { return p.server.URL + TSAPath }

// OCSPURL is the OCSP responder's URL, named by the certificates' AIA.
func (p *PKI) OCSPURL() string { return p.server.URL + OCSPPath }

// CRLURL is the CRL's URL, named by the certificates' CRL distribution point.
func (p *PKI) CRLURL() string { return p.server.URL + CRLPath }

// Requests is how many requests the server answered on path (TSAPath, ...).
func (p *PKI) Requests(path string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.counts[path]
}

// SetTSA replaces the time-stamping authority's handler (nil: the real
// one, TSAHandler): a test's TSA that answers garbage, another imprint, or
// never ends. The replacement may call p.TSAHandler() to answer for real.
func (p *PKI) SetTSA(h http.Handler) { p.SetHandler(TSAPath, h) }

// SetHandler replaces the handler of path (TSAPath, OCSPPath, CRLPath,
// CAPath; nil: the real one): an OCSP responder that is down, a CRL that
// is not one.
func (p *PKI) SetHandler(path string, h http.Handler) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if h == nil {
		delete(p.handler, path)
		return
	}
	p.handler[path] = h
}

// Revoke marks the certificate with serial revoked (at), for OCSP and the CRL.
func (p *PKI) Revoke(serial *big.Int, at time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.revoked[serial.String()] = at
}

// Pool is a certificate pool holding the CA alone (a verifier's roots).
func (p *PKI) Pool() *x509.CertPool {
	pool := x509.NewCertPool()
	pool.AddCert(p.CA)
	return pool
}

func (p *PKI) serve(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	p.counts[r.URL.Path]++
	h := p.handler[r.URL.Path]
	p.mu.Unlock()
	if h != nil {
		h.ServeHTTP(w, r)
		return
	}
	switch r.URL.Path {
	case TSAPath:
		p.TSAHandler().ServeHTTP(w, r)
	case OCSPPath:
		p.OCSPHandler().ServeHTTP(w, r)
	case CRLPath:
		p.CRLHandler().ServeHTTP(w, r)
	case CAPath:
		w.Header().Set("Content-Type", "application/pkix-cert")
		w.Write(p.CA.Raw)
	default:
		http.NotFound(w, r)
	}
}

func loadKey(name string) (crypto.Signer, error) {
	b, err := keys.ReadFile("testdata/" + name + ".key.pem")
	if err != nil {
		return nil, fmt.Errorf("testpki: %w", err)
	}
	blk, _ := pem.Decode(b)
	if blk == nil {
		return nil, fmt.Errorf("testpki: %s.key.pem: no PEM block", name)
	}
	k, err := x509.ParsePKCS8PrivateKey(blk.Bytes)
	if err != nil {
		return nil, fmt.Errorf("testpki: %s.key.pem: %w", name, err)
	}
	s, ok := k.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("testpki: %s.key.pem: %T is no signer", name, k)
	}
	return s, nil
}

var (
	oidExtKeyUsage   = asn1.ObjectIdentifier{2, 5, 29, 37}
	oidTimeStamping  = asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 3, 8}
	errNoTSARequest  = errors.New("testpki: not a time-stamp request")
	maxRequestLength = int64(1 << 16)
)

// issue makes the three certificates, their URLs under base.
func (p *PKI) issue(base string) error {
	now := time.Now().UTC().Truncate(time.Hour)
	notBefore, notAfter := now.Add(-48*time.Hour), now.AddDate(5, 0, 0)
	ca := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "webcap test CA", Organization: []string{"webcap tests"}},
		NotBefore:             notBefore,
		NotAfter:              notAfter.AddDate(1, 0, 0),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
	}
	var err error
	if p.CA, err = create(ca, ca, p.CAKey, p.CAKey); err != nil {
		return err
	}
	leaf := func(serial int64, cn string) *x509.Certificate {
		return &x509.Certificate{
			SerialNumber:          big.NewInt(serial),
			Subject:               pkix.Name{CommonName: cn, Organization: []string{"webcap tests"}},
			NotBefore:             notBefore,
			NotAfter:              notAfter,
			BasicConstraintsValid: true,
			KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageContentCommitment,
			OCSPServer:            []string{base + OCSPPath},
			IssuingCertificateURL: []string{base + CAPath},
			CRLDistributionPoints: []string{base + CRLPath},
		}
	}
	if p.Signer, err = create(leaf(2, "webcap test signer"), p.CA, p.SignerKey, p.CAKey); err != nil {
		return err
	}
	tsa := leaf(3, "webcap test TSA")
	tsa.KeyUsage = x509.KeyUsageDigitalSignature
	// RFC 3161 §2.3: the TSA's certificate has one extended key usage,
	// timeStamping, and it is critical. crypto/x509 writes ExtKeyUsage
	// non-critical, so the extension is written here.
	eku, err := asn1.Marshal([]asn1.ObjectIdentifier{oidTimeStamping})
	if err != nil {
		return err
	}
	tsa.ExtraExtensions = []pkix.Extension{{Id: oidExtKeyUsage, Critical: true, Value: eku}}
	p.TSA, err = create(tsa, p.CA, p.TSAKey, p.CAKey)
	return err
}

func create(tmpl, parent *x509.Certificate, key, parentKey crypto.Signer) (*x509.Certificate, error) {
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, key.Public(), parentKey)
	if err != nil {
		return nil, fmt.Errorf("testpki: certificate %q: %w", tmpl.Subject.CommonName, err)
	}
	return x509.ParseCertificate(der)
}

// TSAHandler answers RFC 3161 requests (POST, application/timestamp-query)
// with a token signed by the TSA certificate, the TSA certificate and the
// CA in the token, the request's nonce echoed.
func (p *PKI) TSAHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, maxRequestLength))
		if err != nil || r.Method != http.MethodPost {
			http.Error(w, "POST a time-stamp request", http.StatusBadRequest)
			return
		}
		resp, err := p.TimestampResponse(body, time.Now())
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/timestamp-reply")
		w.Write(resp)
	})
}

// TimestampResponse is the DER TimeStampResp the TSA gives to the DER
// TimeStampReq req, dated at.
func (p *PKI) TimestampResponse(req []byte, at time.Time) ([]byte, error) {
	q, err := timestamp.ParseRequest(req)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errNoTSARequest, err)
	}
	return p.Token(q.HashAlgorithm, q.HashedMessage, q.Nonce, q.Certificates, at)
}

// Token is a TimeStampResp over the digest hashed (of algorithm h), with
// nonce (nil: none) and the TSA's chain when certs: a test's TSA may call it
// with another imprint or nonce than it was asked.
func (p *PKI) Token(h crypto.Hash, hashed []byte, nonce *big.Int, certs bool, at time.Time) ([]byte, error) {
	ts := timestamp.Timestamp{
		HashAlgorithm:     h,
		HashedMessage:     hashed,
		Time:              at.UTC(),
		Accuracy:          time.Second,
		Nonce:             nonce,
		Policy:            asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 99999, 1, 1},
		AddTSACertificate: certs,
	}
	if certs {
		ts.Certificates = []*x509.Certificate{p.CA}
	}
	return ts.CreateResponseWithOpts(p.TSA, p.TSAKey, crypto.SHA256)
}

// OCSPHandler answers OCSP requests (POST, or GET with the request in the
// path) for certificates the CA issued: good, or revoked after Revoke.
func (p *PKI) OCSPHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, maxRequestLength))
		if err != nil || r.Method != http.MethodPost {
			http.Error(w, "POST an OCSP request", http.StatusBadRequest)
			return
		}
		req, err := ocsp.ParseRequest(body)
		if err != nil {
			w.Header().Set("Content-Type", "application/ocsp-response")
			w.Write(ocsp.MalformedRequestErrorResponse)
			return
		}
		resp, err := p.OCSPResponse(req.SerialNumber, time.Now())
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/ocsp-response")
		w.Write(resp)
	})
}

// OCSPResponse is the CA's DER OCSP response for serial, produced at.
func (p *PKI) OCSPResponse(serial *big.Int, at time.Time) ([]byte, error) {
	at = at.UTC().Truncate(time.Second)
	tmpl := ocsp.Response{
		Status:       ocsp.Good,
		SerialNumber: serial,
		ThisUpdate:   at.Add(-time.Minute),
		NextUpdate:   at.Add(24 * time.Hour),
		ProducedAt:   at,
	}
	p.mu.Lock()
	if rt, ok := p.revoked[serial.String()]; ok {
		tmpl.Status, tmpl.RevokedAt, tmpl.RevocationReason = ocsp.Revoked, rt.UTC(), ocsp.KeyCompromise
	}
	p.mu.Unlock()
	return ocsp.CreateResponse(p.CA, p.CA, tmpl, p.CAKey)
}

// CRLHandler serves the CA's CRL (DER).
func (p *PKI) CRLHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		crl, err := p.CRL(time.Now())
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/pkix-crl")
		w.Write(crl)
	})
}

// CRL is the CA's DER CRL issued at, listing what Revoke revoked.
func (p *PKI) CRL(at time.Time) ([]byte, error) {
	at = at.UTC().Truncate(time.Second)
	tmpl := &x509.RevocationList{
		Number:     big.NewInt(at.Unix()),
		ThisUpdate: at.Add(-time.Minute),
		NextUpdate: at.Add(24 * time.Hour),
	}
	p.mu.Lock()
	for s, rt := range p.revoked {
		n, _ := new(big.Int).SetString(s, 10)
		tmpl.RevokedCertificateEntries = append(tmpl.RevokedCertificateEntries,
			x509.RevocationListEntry{SerialNumber: n, RevocationTime: rt.UTC()})
	}
	p.mu.Unlock()
	return x509.CreateRevocationList(rand.Reader, tmpl, p.CA, p.CAKey)
}

// Files are the paths WriteFiles wrote.
type Files struct {
	CA       string // CA.pem: the CA certificate (what --trust and -CAfile take)
	Signer   string // signer.pem: the signer's certificate
	Key      string // key.pem: the signer's private key (PKCS#8)
	Chain    string // chain.pem: the signer's certificate, then the CA's
	P12      string // signer.p12: key, certificate and CA, encrypted with Password
	Password string // password.txt: Password and a newline
	TSA      string // tsa.pem: the TSA's certificate (openssl ts -untrusted)
	Other    string // other.key.pem: a key that matches no certificate
}

// WriteFiles writes the PKI's files into dir (which must exist).
func (p *PKI) WriteFiles(dir string) (Files, error) {
	f := Files{
		CA:       filepath.Join(dir, "CA.pem"),
		Signer:   filepath.Join(dir, "signer.pem"),
		Key:      filepath.Join(dir, "key.pem"),
		Chain:    filepath.Join(dir, "chain.pem"),
		P12:      filepath.Join(dir, "signer.p12"),
		Password: filepath.Join(dir, "password.txt"),
		TSA:      filepath.Join(dir, "tsa.pem"),
		Other:    filepath.Join(dir, "other.key.pem"),
	}
	signerKey, err := KeyPEM(p.SignerKey)
	if err != nil {
		return f, err
	}
	otherKey, err := KeyPEM(p.OtherKey)
	if err != nil {
		return f, err
	}
	p12, err := p.PKCS12(Password)
	if err != nil {
		return f, err
	}
	for _, w := range []struct {
		path string
		data []byte
	}{
		{f.CA, CertPEM(p.CA)},
		{f.Signer, CertPEM(p.Signer)},
		{f.Key, signerKey},
		{f.Chain, append(CertPEM(p.Signer), CertPEM(p.CA)...)},
		{f.P12, p12},
		{f.Password, []byte(Password + "\n")},
		{f.TSA, CertPEM(p.TSA)},
		{f.Other, otherKey},
	} {
		if err := os.WriteFile(w.path, w.data, 0o600); err != nil {
			return f, fmt.Errorf("testpki: %w", err)
		}
	}
	return f, nil
}

// PKCS12 is the signer's key, certificate and the CA as a PKCS#12 file
// encrypted with password (AES-256-CBC, PBKDF2: go-pkcs12's Modern2023).
func (p *PKI) PKCS12(password string) ([]byte, error) {
	b, err := pkcs12.Modern2023.Encode(p.SignerKey, p.Signer, []*x509.Certificate{p.CA}, password)
	if err != nil {
		return nil, fmt.Errorf("testpki: PKCS#12: %w", err)
	}
	return b, nil
}

// CertPEM is c in PEM.
func CertPEM(c *x509.Certificate) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Raw})
}

// KeyPEM is k in PEM (PKCS#8).
func KeyPEM(k crypto.Signer) ([]byte, error) {
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		return nil, fmt.Errorf("testpki: %w", err)
	}
	var b bytes.Buffer
	pem.Encode(&b, &pem.Block{Type: "PRIVATE KEY", Bytes: der})
	return b.Bytes(), nil
}
