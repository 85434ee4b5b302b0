package seal

import (
	"crypto"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/asn1"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/digitorus/pkcs7"
)

// Attribute types (RFC 5652 §11, RFC 5035 §3, RFC 3161 Appendix A).
var (
	oidContentType           = pkcs7.OIDAttributeContentType
	oidMessageDigest         = pkcs7.OIDAttributeMessageDigest
	oidSigningTime           = pkcs7.OIDAttributeSigningTime
	oidSigningCertificateV2  = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 2, 47}
	oidSignatureTimeStampTok = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 2, 14}
)

// ESS signing-certificate-v2 (RFC 5035 §3): the SHA-256 of the signer's
// certificate and its issuer and serial number. The hash algorithm is
// left out: SHA-256 is its default.
type signingCertificateV2 struct {
	Certs []essCertIDv2
}

type essCertIDv2 struct {
	CertHash     []byte
	IssuerSerial issuerSerial
}

type issuerSerial struct {
	Issuer generalNames
	Serial *big.Int
}

type generalNames struct {
	Name asn1.RawValue `asn1:"tag:4"` // directoryName [4] EXPLICIT Name
}

func signingCertV2(c *x509.Certificate) ([]byte, error) {
	sum := sha256.Sum256(c.Raw)
	return asn1.Marshal(signingCertificateV2{Certs: []essCertIDv2{{
		CertHash: sum[:],
		IssuerSerial: issuerSerial{
			Issuer: generalNames{Name: asn1.RawValue{Tag: 4, Class: asn1.ClassContextSpecific, IsCompound: true, Bytes: c.RawIssuer}},
			Serial: c.SerialNumber,
		},
	}}})
}

// signCMS makes the detached CMS SignedData of a PAdES signature (ETSI EN
// 319 142-1 §6.3: CAdES, SHA-256) over the bytes whose SHA-256 is digest:
// signed attributes content-type (id-data), message-digest and ESS
// signing-certificate-v2, and no signing-time (PAdES: the claimed time is
// the signature dictionary's /M; ETSI EN 319 142-1 §5.4.3); the signer's
// certificate and chain. When stamp is not nil, it is asked for a token
// over the signature value, added as the unsigned attribute
// signature-time-stamp (RFC 3161 Appendix A): PAdES B-T.
//
// github.com/digitorus/pkcs7 builds the structure; it always adds a
// signing-time and digests content it holds in memory, so the signer info
// it made is corrected here: signing-time removed, the message digest
// replaced by the one given (the file is hashed as it is read), and the
// attributes signed again.
func signCMS(digest []byte, s *Signer, stamp func(sigValue []byte) ([]byte, error)) ([]byte, error) {
	essV2, err := signingCertV2(s.Cert)
	if err != nil {
		return nil, err
	}
	sd, err := pkcs7.NewSignedData(nil)
	if err != nil {
		return nil, err
	}
	sd.SetDigestAlgorithm(pkcs7.OIDDigestAlgorithmSHA256)
	cfg := pkcs7.SignerInfoConfig{ExtraSignedAttributes: []pkcs7.Attribute{
		{Type: oidSigningCertificateV2, Value: asn1.RawValue{FullBytes: essV2}},
	}}
	if len(s.Chain) > 0 {
		err = sd.AddSignerChain(s.Cert, s.Key, s.Chain, cfg)
	} else {
		err = sd.AddSigner(s.Cert, s.Key, cfg)
	}
	if err != nil {
		return nil, fmt.Errorf("CMS: %w", err)
	}
	si := &sd.GetSignedData().SignerInfos[0]
	for i := len(si.AuthenticatedAttributes) - 1; i >= 0; i-- {
		if si.AuthenticatedAttributes[i].Type.Equal(oidSigningTime) {
			si.AuthenticatedAttributes = slices.Delete(si.AuthenticatedAttributes, i, i+1)
		}
	}
	md, err := asn1.Marshal(digest)
	if err != nil {
		return nil, err
	}
	found := false
	for i := range si.AuthenticatedAttributes {
		if si.AuthenticatedAttributes[i].Type.Equal(oidMessageDigest) {
			// Same length as the digest it replaces: the attributes' DER
			// order (by encoding) is unchanged.
			si.AuthenticatedAttributes[i].Value = asn1.RawValue{Class: asn1.ClassUniversal, Tag: asn1.TagSet, IsCompound: true, Bytes: md}
			found = true
		}
	}
	if !found {
		return nil, errors.New("CMS: no message-digest attribute to set")
	}
	signed, err := asn1.Marshal(si.AuthenticatedAttributes) // SEQUENCE OF
	if err != nil {
		return nil, err
	}
	signed[0] = 0x31 // signed as a SET OF (RFC 5652 §5.4), the order kept
	h := sha256.Sum256(signed)
	if si.EncryptedDigest, err = s.Key.Sign(rand.Reader, h[:], crypto.SHA256); err != nil {
		return nil, fmt.Errorf("CMS: signing: %w", err)
	}
	if stamp != nil {
		tok, err := stamp(si.EncryptedDigest)
		if err != nil {
			return nil, err
		}
		if err := si.SetUnauthenticatedAttributes([]pkcs7.Attribute{
			{Type: oidSignatureTimeStampTok, Value: asn1.RawValue{FullBytes: tok}},
		}); err != nil {
			return nil, err
		}
	}
	sd.Detach()
	return sd.Finish()
}

// parsePKCS7 is pkcs7.Parse, a panic of the parser recovered.
func parsePKCS7(b []byte) (p7 *pkcs7.PKCS7, err error) {
	defer func() {
		if p := recover(); p != nil {
			p7, err = nil, fmt.Errorf("CMS does not parse (%v)", p)
		}
	}()
	return pkcs7.Parse(b)
}
