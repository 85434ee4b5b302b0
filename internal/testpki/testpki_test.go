package testpki

import (
	"bytes"
	"crypto"
	"crypto/sha256"
	"crypto/x509"
	"io"
	"math/big"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/digitorus/timestamp"
	"golang.org/x/crypto/ocsp"
	pkcs12 "software.sslmate.com/src/go-pkcs12"
)

func newPKI(t *testing.T) *PKI {
	t.Helper()
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

func post(t *testing.T, url, ctype string, body []byte) []byte {
	t.Helper()
	resp, err := http.Post(url, ctype, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("POST %s: %d %v %s", url, resp.StatusCode, err, b)
	}
	return b
}

func TestChains(t *testing.T) {
	p := newPKI(t)
	for _, tc := range []struct {
		name string
		cert *x509.Certificate
		eku  x509.ExtKeyUsage
	}{
		{"signer", p.Signer, x509.ExtKeyUsageAny},
		{"tsa", p.TSA, x509.ExtKeyUsageTimeStamping},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := tc.cert.Verify(x509.VerifyOptions{Roots: p.Pool(), KeyUsages: []x509.ExtKeyUsage{tc.eku}}); err != nil {
				t.Errorf("Verify = %v", err)
			}
			if len(tc.cert.OCSPServer) != 1 || tc.cert.OCSPServer[0] != p.OCSPURL() {
				t.Errorf("OCSPServer = %q, want %q", tc.cert.OCSPServer, p.OCSPURL())
			}
			if len(tc.cert.CRLDistributionPoints) != 1 || tc.cert.CRLDistributionPoints[0] != p.CRLURL() {
				t.Errorf("CRLDistributionPoints = %q", tc.cert.CRLDistributionPoints)
			}
		})
	}
	critical := false
	for _, e := range p.TSA.Extensions {
		if e.Id.Equal(oidExtKeyUsage) {
			critical = e.Critical
		}
	}
	if !critical {
		t.Error("the TSA's extended key usage is not critical")
	}
}

// TestTSA asks the handler for a token over loopback and has openssl check
// it: the oracle that is not our code.
func TestTSA(t *testing.T) {
	p := newPKI(t)
	data := []byte("the bytes a document timestamp covers")
	sum := sha256.Sum256(data)
	req, err := (&timestamp.Request{HashAlgorithm: crypto.SHA256, HashedMessage: sum[:], Certificates: true, Nonce: big.NewInt(42)}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	resp := post(t, p.TSAURL(), "application/timestamp-query", req)
	ts, err := timestamp.ParseResponse(resp)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ts.HashedMessage, sum[:]) || ts.Nonce.Int64() != 42 {
		t.Errorf("token imprint %x nonce %v, want %x 42", ts.HashedMessage, ts.Nonce, sum)
	}
	if p.Requests(TSAPath) != 1 {
		t.Errorf("Requests(TSAPath) = %d, want 1", p.Requests(TSAPath))
	}
	if _, err := exec.LookPath("openssl"); err != nil {
		t.Skip("no openssl")
	}
	dir := t.TempDir()
	f, err := p.WriteFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"data": data, "resp.tsr": resp, "token.der": ts.RawToken} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"ts", "-verify", "-data", "data", "-in", "resp.tsr", "-CAfile", f.CA, "-untrusted", f.TSA},
		{"ts", "-verify", "-data", "data", "-in", "token.der", "-token_in", "-CAfile", f.CA, "-untrusted", f.TSA},
	} {
		cmd := exec.Command("openssl", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil || !bytes.Contains(out, []byte("Verification: OK")) {
			t.Errorf("openssl %q: %v\n%s", args, err, out)
		}
	}
}

func TestOCSPAndCRL(t *testing.T) {
	p := newPKI(t)
	check := func(want int) {
		t.Helper()
		req, err := ocsp.CreateRequest(p.Signer, p.CA, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := ocsp.ParseResponseForCert(post(t, p.OCSPURL(), "application/ocsp-request", req), p.Signer, p.CA)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Status != want {
			t.Errorf("OCSP status = %d, want %d", resp.Status, want)
		}
		crlResp, err := http.Get(p.CRLURL())
		if err != nil {
			t.Fatal(err)
		}
		der, _ := io.ReadAll(crlResp.Body)
		crlResp.Body.Close()
		crl, err := x509.ParseRevocationList(der)
		if err != nil {
			t.Fatal(err)
		}
		if err := crl.CheckSignatureFrom(p.CA); err != nil {
			t.Errorf("CRL signature: %v", err)
		}
		if got := len(crl.RevokedCertificateEntries); (got == 1) != (want == ocsp.Revoked) {
			t.Errorf("CRL lists %d revoked, OCSP says %d", got, want)
		}
	}
	check(ocsp.Good)
	p.Revoke(p.Signer.SerialNumber, time.Now().Add(-time.Hour))
	check(ocsp.Revoked)
}

func TestPKCS12(t *testing.T) {
	p := newPKI(t)
	f, err := p.WriteFiles(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(f.P12)
	if err != nil {
		t.Fatal(err)
	}
	key, cert, cas, err := pkcs12.DecodeChain(b, Password)
	if err != nil {
		t.Fatal(err)
	}
	if !cert.Equal(p.Signer) || len(cas) != 1 || !cas[0].Equal(p.CA) {
		t.Errorf("DecodeChain: cert %v, CAs %d", cert.Subject, len(cas))
	}
	if _, ok := key.(crypto.Signer); !ok {
		t.Errorf("key %T", key)
	}
	if _, _, _, err := pkcs12.DecodeChain(b, "wrong"); err == nil {
		t.Error("a wrong password decoded")
	}
}
