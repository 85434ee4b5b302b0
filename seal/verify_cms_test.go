package seal

import (
	"bytes"
	"crypto"
	"crypto/rand"
	"crypto/sha256"
	"encoding/asn1"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/digitorus/pkcs7"
	"github.com/digitorus/timestamp"
	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/internal/testpki"
	"github.com/webcap/webcap/pdfio"
)

// Signers write CMS that pkcs7 reads otherwise than RFC 5652 and openssl:
// signed attributes out of DER SET OF order, the signature computed over
// them as written (the DSS test file pades-5-signatures-and-1-document-
// timestamp.pdf); a certificate set holding an attribute certificate, a
// [1] CertificateChoices (dss__pkcs7_sha1.pdf's signature timestamp).
// openssl cms -verify accepts them, and so does Verify; a signature over
// the sorted attributes written unsorted verifies for neither.

// attrCert is a [1] IMPLICIT AttributeCertificateV1 CertificateChoices
// element (RFC 5652 §10.2.2) with content openssl reads (SEQUENCE ANY).
var attrCert = []byte{0xa1, 0x03, 0x02, 0x01, 0x00}

// withAttrCert is the ContentInfo der (a SignedData) with attrCert added
// to its certificate set after the first certificate.
func withAttrCert(t *testing.T, der []byte) []byte {
	t.Helper()
	split := func(b []byte) []asn1.RawValue {
		var out []asn1.RawValue
		for len(b) > 0 {
			var e asn1.RawValue
			rest, err := asn1.Unmarshal(b, &e)
			if err != nil {
				t.Fatal(err)
			}
			out, b = append(out, e), rest
		}
		return out
	}
	wrap := func(class, tag int, parts ...[]byte) []byte {
		b, err := asn1.Marshal(asn1.RawValue{Class: class, Tag: tag, IsCompound: true, Bytes: bytes.Join(parts, nil)})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	ci := split(der)
	top := split(ci[0].Bytes)
	sd := split(split(top[1].Bytes)[0].Bytes)
	var parts [][]byte
	for _, e := range sd {
		if e.Class == asn1.ClassContextSpecific && e.Tag == 0 {
			certs := split(e.Bytes)
			all := [][]byte{certs[0].FullBytes, attrCert}
			for _, c := range certs[1:] {
				all = append(all, c.FullBytes)
			}
			parts = append(parts, wrap(asn1.ClassContextSpecific, 0, all...))
			continue
		}
		parts = append(parts, e.FullBytes)
	}
	return wrap(asn1.ClassUniversal, asn1.TagSequence, top[0].FullBytes,
		wrap(asn1.ClassContextSpecific, 0, wrap(asn1.ClassUniversal, asn1.TagSequence, parts...)))
}

// unsortedSign is a pdfio.SealSign: p's signer's detached CMS whose signed
// attributes are written in reverse DER order, signed as written (resign)
// or as pkcs7 signed them, sorted.
func unsortedSign(t *testing.T, p *testpki.PKI, resign bool) pdfio.SealSign {
	return func(covered io.Reader) ([]byte, error) {
		data, err := io.ReadAll(covered)
		if err != nil {
			return nil, err
		}
		sd, err := pkcs7.NewSignedData(data)
		if err != nil {
			return nil, err
		}
		sd.SetDigestAlgorithm(pkcs7.OIDDigestAlgorithmSHA256)
		if err := sd.AddSignerChain(p.Signer, p.SignerKey, nil, pkcs7.SignerInfoConfig{}); err != nil {
			return nil, err
		}
		si := &sd.GetSignedData().SignerInfos[0]
		sorted, err := asn1.Marshal(si.AuthenticatedAttributes)
		if err != nil {
			return nil, err
		}
		slices.Reverse(si.AuthenticatedAttributes)
		written, err := asn1.Marshal(si.AuthenticatedAttributes)
		if err != nil {
			return nil, err
		}
		if bytes.Equal(sorted, written) {
			t.Fatal("the attributes reversed are in the same order")
		}
		if resign {
			written[0] = 0x31
			h := sha256.Sum256(written)
			if si.EncryptedDigest, err = p.SignerKey.Sign(rand.Reader, h[:], crypto.SHA256); err != nil {
				return nil, err
			}
		}
		sd.Detach()
		return sd.Finish()
	}
}

// stampedWithAttrCert is a pdfio.SealSign: a PAdES B-T signature whose
// signature timestamp's token lists an attribute certificate; the tokens
// made are sent to tokens.
func stampedWithAttrCert(t *testing.T, p *testpki.PKI, s *Signer, tokens chan<- []byte) pdfio.SealSign {
	return func(covered io.Reader) ([]byte, error) {
		h := sha256.New()
		if _, err := io.Copy(h, covered); err != nil {
			return nil, err
		}
		return signCMS(h.Sum(nil), s, func(value []byte) ([]byte, error) {
			sum := sha256.Sum256(value)
			resp, err := p.Token(crypto.SHA256, sum[:], nil, true, time.Now())
			if err != nil {
				return nil, err
			}
			ts, err := timestamp.ParseResponse(resp)
			if err != nil {
				return nil, err
			}
			tok := withAttrCert(t, ts.RawToken)
			tokens <- tok
			return tok, nil
		})
	}
}

func TestVerifyCMSAsOpenSSLReadsIt(t *testing.T) {
	if _, err := exec.LookPath("openssl"); err != nil {
		t.Skip("no openssl")
	}
	p, files := testpki.Start(t, "")
	signer, err := LoadPEM(files.Signer, files.Key)
	if err != nil {
		t.Fatal(err)
	}
	tokens := make(chan []byte, 1)
	withAttr := func(covered io.Reader) ([]byte, error) {
		der, err := p.CMSSign(covered)
		if err != nil {
			return nil, err
		}
		return withAttrCert(t, der), nil
	}
	for _, tc := range []struct {
		name     string
		sign     pdfio.SealSign
		verified bool
		stamped  bool
	}{
		{"signed attributes out of DER order, signed as written", unsortedSign(t, p, true), true, false},
		{"signed attributes out of DER order, signed sorted", unsortedSign(t, p, false), false, false},
		{"an attribute certificate among the signature's certificates", withAttr, true, false},
		{"an attribute certificate among the signature timestamp's certificates", stampedWithAttrCert(t, p, signer, tokens), true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := addSeal(t, pdfbuild.Web(false), pdfio.SealSig, tc.sign)
			_, vs := verify(t, file, p)
			if len(vs) != 1 {
				t.Fatalf("%d seals, want 1", len(vs))
			}
			v := vs[0]
			ok, out := opensslVerifies(t, file, v.Seal, v.Seal.ByteRange, files)
			if ok != tc.verified {
				t.Fatalf("openssl verifies: %v, want %v\n%s", ok, tc.verified, out)
			}
			if v.Verified() != tc.verified || v.Trusted != tc.verified {
				t.Errorf("Verified() = %v, Trusted %v, want %v (as openssl): %v", v.Verified(), v.Trusted, tc.verified, v.Problems)
			}
			if v.Timestamped != tc.stamped {
				t.Errorf("Timestamped = %v, want %v: %v", v.Timestamped, tc.stamped, v.Problems)
			}
			if !tc.stamped {
				return
			}
			tok := <-tokens
			if ok, out := opensslCMSAttached(t, tok, files.CA); !ok {
				t.Errorf("openssl cms -verify refuses the token:\n%s", out)
			}
			if sum := Describe(v.Seal); sum.TimeFrom != "signature timestamp" {
				t.Errorf("Describe: time from %q, want the signature timestamp", sum.TimeFrom)
			}
		})
	}
}

// opensslCMSAttached is `openssl cms -verify` on der, a SignedData that
// holds its content (a time-stamp token).
func opensslCMSAttached(t *testing.T, der []byte, ca string) (bool, string) {
	t.Helper()
	in := filepath.Join(t.TempDir(), "token.der")
	if err := os.WriteFile(in, der, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("openssl", "cms", "-verify", "-inform", "DER", "-in", in, "-CAfile", ca, "-purpose", "any", "-out", os.DevNull).CombinedOutput()
	return err == nil && bytes.Contains(out, []byte("Verification successful")), string(out)
}
