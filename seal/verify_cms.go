package seal

import (
	"crypto/subtle"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/digitorus/pkcs7"
	"github.com/digitorus/timestamp"
)

// Where github.com/digitorus/pkcs7 and timestamp read CMS differently
// from RFC 5652 and from openssl, verification does it here:
//
//   - the certificate set may hold, besides certificates, the other
//     CertificateChoices (RFC 5652 §10.2.2: [0] extended, [1] and [2]
//     attribute certificates, [3] other formats); pkcs7.Parse gives them
//     to x509.ParseCertificates and fails ("x509: malformed certificate").
//     parseCMS leaves them out before parsing: nothing here uses them.
//   - the signature value is over the signed attributes as the SignerInfo
//     holds them, their [0] IMPLICIT tag read as the SET OF tag (RFC 5652
//     §5.4; openssl hashes them so). pkcs7's Verify marshals them again as
//     a DER SET OF, sorting them: a signer that wrote them in another
//     order (real signers do) made a signature it calls bad.
//     verifySigner signs them over in the order written.

// parseCMS is pkcs7.Parse of b, the certificate set's elements that are
// no certificate left out first.
func parseCMS(b []byte) (*pkcs7.PKCS7, error) {
	if clean, ok := withoutOtherCertChoices(b); ok {
		return pkcs7.Parse(clean)
	}
	return pkcs7.Parse(b)
}

// withoutOtherCertChoices is the ContentInfo b (a SignedData) without the
// elements of its certificate set that are not certificates (not a
// universal SEQUENCE); ok is false when there is none, or when b's outer
// layers are not DER (then b is parsed as it is).
func withoutOtherCertChoices(b []byte) (out []byte, ok bool) {
	var ci asn1.RawValue
	rest, err := asn1.Unmarshal(b, &ci)
	if err != nil || ci.Class != asn1.ClassUniversal || ci.Tag != asn1.TagSequence {
		return nil, false
	}
	top, err := derElements(ci.Bytes)
	if err != nil || len(top) != 2 || top[1].Class != asn1.ClassContextSpecific || top[1].Tag != 0 {
		return nil, false
	}
	inner, err := derElements(top[1].Bytes)
	if err != nil || len(inner) != 1 || inner[0].Tag != asn1.TagSequence {
		return nil, false
	}
	sd, err := derElements(inner[0].Bytes)
	if err != nil {
		return nil, false
	}
	changed := false
	for i := 3; i < len(sd); i++ { // version, digestAlgorithms, encapContentInfo, then [0] certificates
		if sd[i].Class != asn1.ClassContextSpecific || sd[i].Tag != 0 {
			continue
		}
		certs, err := derElements(sd[i].Bytes)
		if err != nil {
			return nil, false
		}
		var kept []byte
		for _, c := range certs {
			if c.Class == asn1.ClassUniversal && c.Tag == asn1.TagSequence {
				kept = append(kept, c.FullBytes...)
			} else {
				changed = true
			}
		}
		if sd[i], err = derWrap(asn1.ClassContextSpecific, 0, kept); err != nil {
			return nil, false
		}
		break
	}
	if !changed {
		return nil, false
	}
	var body []byte
	for _, e := range sd {
		body = append(body, e.FullBytes...)
	}
	sdSeq, err := derWrap(asn1.ClassUniversal, asn1.TagSequence, body)
	if err != nil {
		return nil, false
	}
	if top[1], err = derWrap(asn1.ClassContextSpecific, 0, sdSeq.FullBytes); err != nil {
		return nil, false
	}
	whole, err := derWrap(asn1.ClassUniversal, asn1.TagSequence, append(append([]byte{}, top[0].FullBytes...), top[1].FullBytes...))
	if err != nil {
		return nil, false
	}
	return append(whole.FullBytes, rest...), true
}

// derElements splits b into the DER elements it is made of.
func derElements(b []byte) ([]asn1.RawValue, error) {
	var out []asn1.RawValue
	for len(b) > 0 {
		var e asn1.RawValue
		rest, err := asn1.Unmarshal(b, &e)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
		b = rest
	}
	return out, nil
}

// derWrap is the constructed element of class and tag holding content.
func derWrap(class, tag int, content []byte) (asn1.RawValue, error) {
	full, err := asn1.Marshal(asn1.RawValue{Class: class, Tag: tag, IsCompound: true, Bytes: content})
	if err != nil {
		return asn1.RawValue{}, err
	}
	return asn1.RawValue{Class: class, Tag: tag, IsCompound: true, Bytes: content, FullBytes: full}, nil
}

// verifySigner checks the signature of p7's single signer (whose
// certificate is ee): what pkcs7's Verify checks, without a chain (the
// message digest, the signing time within ee's validity, the signature
// value), but the value over the signed attributes in the order the
// SignerInfo holds them (RFC 5652 §5.4), as openssl verifies it.
func verifySigner(p7 *pkcs7.PKCS7, ee *x509.Certificate) error {
	si := p7.Signers[0]
	signed := p7.Content
	if len(si.AuthenticatedAttributes) > 0 {
		var md []byte
		if err := p7.UnmarshalSignedAttribute(pkcs7.OIDAttributeMessageDigest, &md); err != nil {
			return err
		}
		h, ok := hashOf(si.DigestAlgorithm.Algorithm)
		if !ok {
			return fmt.Errorf("pkcs7: unsupported digest algorithm %v", si.DigestAlgorithm.Algorithm)
		}
		d := h.New()
		d.Write(p7.Content)
		if sum := d.Sum(nil); subtle.ConstantTimeCompare(md, sum) != 1 {
			return &pkcs7.MessageDigestMismatchError{ExpectedDigest: md, ActualDigest: sum}
		}
		// Each attribute as parsed (its bytes kept), in the order written:
		// a SEQUENCE OF, then tagged as the SET OF it is signed as.
		b, err := asn1.Marshal(si.AuthenticatedAttributes)
		if err != nil {
			return err
		}
		b[0] = 0x31
		signed = b
		var st time.Time
		if p7.UnmarshalSignedAttribute(pkcs7.OIDAttributeSigningTime, &st) == nil && (st.After(ee.NotAfter) || st.Before(ee.NotBefore)) {
			return fmt.Errorf("pkcs7: signing time %q is outside of certificate validity %q to %q",
				st.Format(time.RFC3339), ee.NotBefore.Format(time.RFC3339), ee.NotAfter.Format(time.RFC3339))
		}
	}
	alg, err := signatureAlgorithm(si.DigestEncryptionAlgorithm, si.DigestAlgorithm)
	if err != nil {
		return err
	}
	return ee.CheckSignature(alg, signed, si.EncryptedDigest)
}

// signatureAlgorithm is the x509 signature algorithm of a SignerInfo's
// signatureAlgorithm and digestAlgorithm: those pkcs7 verifies, no more.
func signatureAlgorithm(sig, digest pkix.AlgorithmIdentifier) (x509.SignatureAlgorithm, error) {
	d := digest.Algorithm
	// pick is the algorithm for d among sha1, sha256, sha384, sha512.
	pick := func(algs ...x509.SignatureAlgorithm) (x509.SignatureAlgorithm, error) {
		for i, oid := range []asn1.ObjectIdentifier{pkcs7.OIDDigestAlgorithmSHA1, pkcs7.OIDDigestAlgorithmSHA256, pkcs7.OIDDigestAlgorithmSHA384, pkcs7.OIDDigestAlgorithmSHA512} {
			if i < len(algs) && d.Equal(oid) {
				return algs[i], nil
			}
		}
		return x509.UnknownSignatureAlgorithm, fmt.Errorf("pkcs7: unsupported digest %q for encryption algorithm %q", d, sig.Algorithm)
	}
	in := func(oids ...asn1.ObjectIdentifier) bool {
		for _, o := range oids {
			if sig.Algorithm.Equal(o) {
				return true
			}
		}
		return false
	}
	switch {
	case in(pkcs7.OIDDigestAlgorithmECDSASHA1):
		return x509.ECDSAWithSHA1, nil
	case in(pkcs7.OIDDigestAlgorithmECDSASHA256):
		return x509.ECDSAWithSHA256, nil
	case in(pkcs7.OIDDigestAlgorithmECDSASHA384):
		return x509.ECDSAWithSHA384, nil
	case in(pkcs7.OIDDigestAlgorithmECDSASHA512):
		return x509.ECDSAWithSHA512, nil
	case in(pkcs7.OIDEncryptionAlgorithmRSA, pkcs7.OIDEncryptionAlgorithmRSASHA1, pkcs7.OIDEncryptionAlgorithmRSASHA256,
		pkcs7.OIDEncryptionAlgorithmRSASHA384, pkcs7.OIDEncryptionAlgorithmRSASHA512):
		return pick(x509.SHA1WithRSA, x509.SHA256WithRSA, x509.SHA384WithRSA, x509.SHA512WithRSA)
	case in(pkcs7.OIDDigestAlgorithmDSA, pkcs7.OIDDigestAlgorithmDSASHA1):
		return pick(x509.DSAWithSHA1, x509.DSAWithSHA256)
	case in(pkcs7.OIDEncryptionAlgorithmECDSAP256, pkcs7.OIDEncryptionAlgorithmECDSAP384, pkcs7.OIDEncryptionAlgorithmECDSAP521):
		return pick(x509.ECDSAWithSHA1, x509.ECDSAWithSHA256, x509.ECDSAWithSHA384, x509.ECDSAWithSHA512)
	case in(pkcs7.OIDEncryptionAlgorithmEDDSA25519):
		return x509.PureEd25519, nil
	}
	return x509.UnknownSignatureAlgorithm, fmt.Errorf("pkcs7: unsupported algorithm %q", sig.Algorithm)
}

// tstInfo is RFC 3161's TSTInfo (§2.4.2), as timestamp reads it.
type tstInfo struct {
	Version        int
	Policy         asn1.ObjectIdentifier
	MessageImprint struct {
		HashAlgorithm pkix.AlgorithmIdentifier
		HashedMessage []byte
	}
	SerialNumber *big.Int
	Time         time.Time `asn1:"generalized"`
	Accuracy     struct {
		Seconds      int64 `asn1:"optional"`
		Milliseconds int64 `asn1:"tag:0,optional"`
		Microseconds int64 `asn1:"tag:1,optional"`
	} `asn1:"optional"`
	Ordering   bool             `asn1:"optional,default:false"`
	Nonce      *big.Int         `asn1:"optional"`
	TSA        asn1.RawValue    `asn1:"tag:0,optional"`
	Extensions []pkix.Extension `asn1:"tag:1,optional"`
}

// parseTSTInfo reads the time-stamp token p7 (token its bytes): what
// timestamp.Parse reads of it, but no signature checked (verifySigner did)
// and so none with the attributes sorted.
func parseTSTInfo(token []byte, p7 *pkcs7.PKCS7) (*timestamp.Timestamp, error) {
	var inf tstInfo
	if _, err := asn1.Unmarshal(p7.Content, &inf); err != nil {
		return nil, err
	}
	if len(inf.MessageImprint.HashedMessage) == 0 {
		return nil, errors.New("the token holds no hashed message")
	}
	h, ok := hashOf(inf.MessageImprint.HashAlgorithm.Algorithm)
	if !ok {
		return nil, fmt.Errorf("the token's imprint uses hash algorithm %v, which this verifier does not know", inf.MessageImprint.HashAlgorithm.Algorithm)
	}
	return &timestamp.Timestamp{
		RawToken:      token,
		HashAlgorithm: h,
		HashedMessage: inf.MessageImprint.HashedMessage,
		Time:          inf.Time,
		Accuracy: time.Duration(inf.Accuracy.Seconds)*time.Second + time.Duration(inf.Accuracy.Milliseconds)*time.Millisecond +
			time.Duration(inf.Accuracy.Microseconds)*time.Microsecond,
		SerialNumber: inf.SerialNumber,
		Policy:       inf.Policy,
		Ordering:     inf.Ordering,
		Nonce:        inf.Nonce,
		Certificates: p7.Certificates,
		Extensions:   inf.Extensions,
	}, nil
}
