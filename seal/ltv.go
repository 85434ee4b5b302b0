package seal

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/webcap/webcap/pdfio"
	"golang.org/x/crypto/ocsp"
)

// A RevokedError is a certificate of a chain that its CA revoked: no seal
// is made with it.
type RevokedError struct {
	Subject string
	At      time.Time
	Source  string // "OCSP" or "CRL", and its URL
}

func (e *RevokedError) Error() string {
	return fmt.Sprintf("the certificate %q was revoked on %s (%s)", e.Subject, e.At.UTC().Format(time.RFC3339), e.Source)
}

// validation gathers what a DSS holds: the certificates of the chains met
// (the signer's, each TSA's) and their revocation data.
type validation struct {
	certs []*x509.Certificate
	dss   pdfio.DSS
	done  map[string]bool                 // certificates whose revocation data is in
	crls  map[string]*x509.RevocationList // CRLs fetched, by URL: each once
}

// add adds certificates (once each) to those the DSS lists.
func (v *validation) add(certs ...*x509.Certificate) {
	for _, c := range certs {
		if c == nil || v.has(c) {
			continue
		}
		v.certs = append(v.certs, c)
	}
}

func (v *validation) has(c *x509.Certificate) bool {
	for _, k := range v.certs {
		if k.Equal(c) {
			return true
		}
	}
	return false
}

// issuer is c's issuer among the certificates known, or fetched from c's
// AIA caIssuers URL; nil for a self-signed certificate.
func (v *validation) issuer(ctx context.Context, cl *client, c *x509.Certificate) (*x509.Certificate, error) {
	if bytes.Equal(c.RawIssuer, c.RawSubject) && c.CheckSignatureFrom(c) == nil {
		return nil, nil
	}
	for _, k := range v.certs {
		if bytes.Equal(k.RawSubject, c.RawIssuer) && c.CheckSignatureFrom(k) == nil {
			return k, nil
		}
	}
	var last error = fmt.Errorf("the issuer of %q is not known (give the chain with the certificate)", c.Subject.CommonName)
	for _, u := range httpURLs(c.IssuingCertificateURL) {
		b, err := cl.do(ctx, "CA issuers server", u, "", nil, maxCredentialFile)
		if err != nil {
			last = err
			continue
		}
		if blk, _ := pem.Decode(b); blk != nil {
			b = blk.Bytes
		}
		k, err := x509.ParseCertificate(b)
		if err != nil || c.CheckSignatureFrom(k) != nil {
			last = &ServiceError{"CA issuers server", u, errors.New("the answer is not the certificate's issuer")}
			continue
		}
		v.add(k)
		return k, nil
	}
	return nil, last
}

// revocation fetches, for every certificate known that is not self-signed
// and has none yet, an OCSP response (preferred) or its CRL.
func (v *validation) revocation(ctx context.Context, cl *client) error {
	if v.done == nil {
		v.done = map[string]bool{}
	}
	for i := 0; i < len(v.certs); i++ { // v.certs grows as issuers are fetched
		c := v.certs[i]
		if v.done[string(c.Raw)] {
			continue
		}
		iss, err := v.issuer(ctx, cl, c)
		if err != nil {
			return err
		}
		if iss == nil {
			continue // a root: nothing revokes it
		}
		if err := v.status(ctx, cl, c, iss); err != nil {
			return err
		}
		v.done[string(c.Raw)] = true
	}
	return nil
}

// status fetches c's revocation data: an OCSP response from each
// responder its AIA names, until one answers, else its CRL. A certificate
// that names neither needs none.
func (v *validation) status(ctx context.Context, cl *client, c, iss *x509.Certificate) error {
	var last error
	for _, u := range httpURLs(c.OCSPServer) {
		resp, raw, err := fetchOCSP(ctx, cl, u, c, iss)
		if err != nil {
			last = err
			continue
		}
		if resp.Status == ocsp.Revoked {
			return &RevokedError{c.Subject.CommonName, resp.RevokedAt, "OCSP " + u}
		}
		v.dss.OCSPs = append(v.dss.OCSPs, raw)
		if resp.Certificate != nil {
			v.add(resp.Certificate)
			v.done[string(resp.Certificate.Raw)] = true // an OCSP signer is checked by id-pkix-ocsp-nocheck, not OCSP
		}
		return nil
	}
	for _, u := range httpURLs(c.CRLDistributionPoints) {
		crl, err := v.crl(ctx, cl, u, iss)
		if err != nil {
			last = err
			continue
		}
		for _, e := range crl.RevokedCertificateEntries {
			if e.SerialNumber != nil && e.SerialNumber.Cmp(c.SerialNumber) == 0 {
				return &RevokedError{c.Subject.CommonName, e.RevocationTime, "CRL " + u}
			}
		}
		return nil
	}
	return last // nil when the certificate names no responder and no CRL
}

// crl is the CRL at u, issued by iss, fetched once and added to the DSS.
func (v *validation) crl(ctx context.Context, cl *client, u string, iss *x509.Certificate) (*x509.RevocationList, error) {
	if crl, ok := v.crls[u]; ok && crl.CheckSignatureFrom(iss) == nil {
		return crl, nil
	}
	raw, err := cl.do(ctx, "CRL server", u, "", nil, maxCRLResponse)
	if err != nil {
		return nil, err
	}
	crl, err := x509.ParseRevocationList(raw)
	if err == nil {
		err = crl.CheckSignatureFrom(iss)
	}
	if err != nil {
		return nil, &ServiceError{"CRL server", u, fmt.Errorf("the CRL cannot be used: %w", err)}
	}
	if v.crls == nil {
		v.crls = map[string]*x509.RevocationList{}
	}
	v.crls[u] = crl
	v.dss.CRLs = append(v.dss.CRLs, raw)
	return crl, nil
}

func fetchOCSP(ctx context.Context, cl *client, u string, c, iss *x509.Certificate) (*ocsp.Response, []byte, error) {
	const service = "OCSP responder"
	req, err := ocsp.CreateRequest(c, iss, nil)
	if err != nil {
		return nil, nil, &ServiceError{service, u, err}
	}
	raw, err := cl.do(ctx, service, u, "application/ocsp-request", req, maxOCSPResponse)
	if err != nil {
		return nil, nil, err
	}
	resp, err := ocsp.ParseResponseForCert(raw, c, iss)
	if err != nil {
		return nil, nil, &ServiceError{service, u, fmt.Errorf("the answer cannot be used: %w", err)}
	}
	if resp.Status != ocsp.Good && resp.Status != ocsp.Revoked {
		return nil, nil, &ServiceError{service, u, errors.New("the responder does not know the certificate")}
	}
	return resp, raw, nil
}

// httpURLs are the http and https URLs of us.
func httpURLs(us []string) []string {
	var out []string
	for _, s := range us {
		if u, err := url.Parse(s); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
			out = append(out, s)
		}
	}
	return out
}

// finish is the DSS: the certificates known, and the revocation data.
func (v *validation) finish() pdfio.DSS {
	d := v.dss
	d.Certs = nil
	for _, c := range v.certs {
		d.Certs = append(d.Certs, c.Raw)
	}
	return d
}
