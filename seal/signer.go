package seal

import (
	"crypto"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"

	"github.com/webcap/webcap/internal/limits"
	pkcs12 "software.sslmate.com/src/go-pkcs12"
)

// A Signer is a signing key and its certificate, with the certificates
// that lead from it towards a root (what the CMS carries and LTV checks).
type Signer struct {
	Cert  *x509.Certificate
	Chain []*x509.Certificate // the issuers, the nearest first (may be empty)
	Key   crypto.Signer
}

// maxCredentialFile bounds a certificate, key or PKCS#12 file.
const maxCredentialFile = 1 << 20

// ErrSigner: the signing credentials cannot be used (a file that cannot
// be read, is not what it should be, a wrong PKCS#12 password, a key that
// is not the certificate's).
var ErrSigner = errors.New("cannot use the signing credentials")

// SignerError is a credential file that cannot be used, and why.
type SignerError struct {
	File string
	Err  error
}

func (e *SignerError) Error() string { return fmt.Sprintf("%s: %v", e.File, e.Err) }

// Unwrap gives both ErrSigner and the cause.
func (e *SignerError) Unwrap() []error { return []error{ErrSigner, e.Err} }

// LoadPEM reads a signer from certFile (PEM: the signer's certificate
// first, then any issuers) and keyFile (PEM: PKCS#8, PKCS#1 or SEC 1, not
// encrypted; use a PKCS#12 file for an encrypted key).
func LoadPEM(certFile, keyFile string) (*Signer, error) {
	b, err := limits.ReadFile(certFile, maxCredentialFile, "")
	if err != nil {
		return nil, &SignerError{certFile, err}
	}
	var certs []*x509.Certificate
	for blk, rest := pem.Decode(b); blk != nil; blk, rest = pem.Decode(rest) {
		if blk.Type != "CERTIFICATE" {
			continue
		}
		c, err := x509.ParseCertificate(blk.Bytes)
		if err != nil {
			return nil, &SignerError{certFile, fmt.Errorf("certificate %d: %w", len(certs)+1, err)}
		}
		certs = append(certs, c)
	}
	if len(certs) == 0 {
		return nil, &SignerError{certFile, errors.New("no PEM CERTIFICATE block")}
	}
	kb, err := limits.ReadFile(keyFile, maxCredentialFile, "")
	if err != nil {
		return nil, &SignerError{keyFile, err}
	}
	key, err := parseKey(kb)
	if err != nil {
		return nil, &SignerError{keyFile, err}
	}
	s := &Signer{Cert: certs[0], Chain: certs[1:], Key: key}
	if err := s.check(); err != nil {
		return nil, &SignerError{keyFile, err}
	}
	return s, nil
}

func parseKey(b []byte) (crypto.Signer, error) {
	for blk, rest := pem.Decode(b); blk != nil; blk, rest = pem.Decode(rest) {
		var k any
		var err error
		switch blk.Type {
		case "PRIVATE KEY":
			k, err = x509.ParsePKCS8PrivateKey(blk.Bytes)
		case "RSA PRIVATE KEY":
			k, err = x509.ParsePKCS1PrivateKey(blk.Bytes)
		case "EC PRIVATE KEY":
			k, err = x509.ParseECPrivateKey(blk.Bytes)
		case "ENCRYPTED PRIVATE KEY":
			return nil, errors.New("the key is encrypted: give it as a PKCS#12 file (--sign-p12) with its password")
		default:
			continue
		}
		if err != nil {
			return nil, err
		}
		s, ok := k.(crypto.Signer)
		if !ok {
			return nil, fmt.Errorf("a %T key cannot sign", k)
		}
		return s, nil
	}
	return nil, errors.New("no PEM private key block")
}

// LoadPKCS12 reads a signer from a PKCS#12 file encrypted with password.
func LoadPKCS12(file, password string) (*Signer, error) {
	b, err := limits.ReadFile(file, maxCredentialFile, "")
	if err != nil {
		return nil, &SignerError{file, err}
	}
	key, cert, cas, err := pkcs12.DecodeChain(b, password)
	if errors.Is(err, pkcs12.ErrIncorrectPassword) {
		return nil, &SignerError{file, errors.New("wrong password (--sign-password-file)")}
	}
	if err != nil {
		return nil, &SignerError{file, err}
	}
	k, ok := key.(crypto.Signer)
	if !ok {
		return nil, &SignerError{file, fmt.Errorf("a %T key cannot sign", key)}
	}
	s := &Signer{Cert: cert, Chain: orderChain(cert, cas), Key: k}
	if err := s.check(); err != nil {
		return nil, &SignerError{file, err}
	}
	return s, nil
}

// check says whether the key is the certificate's and the certificate
// may sign documents.
func (s *Signer) check() error {
	pub, ok := s.Key.Public().(interface{ Equal(crypto.PublicKey) bool })
	if !ok || !pub.Equal(s.Cert.PublicKey) {
		return fmt.Errorf("the key is not the key of the certificate %q", s.Cert.Subject.CommonName)
	}
	if s.Cert.KeyUsage != 0 && s.Cert.KeyUsage&(x509.KeyUsageDigitalSignature|x509.KeyUsageContentCommitment) == 0 {
		return fmt.Errorf("the certificate %q may not sign (its key usage has neither digitalSignature nor nonRepudiation)", s.Cert.Subject.CommonName)
	}
	return nil
}

// orderChain orders certs from leaf's issuer up, dropping the unrelated.
func orderChain(leaf *x509.Certificate, certs []*x509.Certificate) []*x509.Certificate {
	var out []*x509.Certificate
	cur := leaf
	used := make([]bool, len(certs))
	for len(out) < len(certs) {
		next := -1
		for i, c := range certs {
			if !used[i] && cur.CheckSignatureFrom(c) == nil {
				next = i
				break
			}
		}
		if next < 0 || certs[next].Equal(cur) {
			break
		}
		used[next] = true
		cur = certs[next]
		out = append(out, cur)
	}
	return out
}
