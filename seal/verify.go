package seal

import (
	"bytes"
	"crypto"
	"crypto/rsa"
	"crypto/sha1"
	_ "crypto/sha256" // crypto.SHA256 for the tokens' imprints
	_ "crypto/sha512" // crypto.SHA384, SHA512
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/digitorus/pkcs7"
	"github.com/digitorus/timestamp"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// Verification reads what pdfio found of each seal (pdfio.Seal) and judges
// it: the /ByteRange against the file's revisions and the seal's own
// /Contents (found in the dictionary's bytes, not from the range), the
// digest of the covered bytes against the signed one or the token's
// imprint, the signature value, and the signer's chain against the trust
// anchors. github.com/digitorus/pkcs7 parses the CMS and the tokens
// (verify_cms.go: the certificate set's other choices left out first);
// the signature values, the digests and the tokens' TSTInfo are checked
// and read here, where pkcs7 and timestamp are lax or strict otherwise
// than RFC 5652 (timestamp.Parse checks no signature when the token holds
// no certificate, and compares its imprint with nothing; pkcs7's Verify
// sorts the signed attributes before checking the signature over them).

// A Check names what a Problem is about; audit gives each its rule.
type Check string

// The checks a verdict's problems belong to.
const (
	CheckFormat    Check = "format"    // the dictionary, the CMS or the token cannot be read; an unknown /SubFilter
	CheckRange     Check = "range"     // the /ByteRange does not cover its revision whole but its /Contents
	CheckDigest    Check = "digest"    // the covered bytes' digest is not the signed one, or the signature value does not verify
	CheckUntrusted Check = "untrusted" // it verifies, but no chain reaches the trust anchors
)

// A Problem is one thing wrong with a seal.
type Problem struct {
	Check   Check
	Message string
}

// Kinds of seal.
const (
	KindSignature     = "signature"
	KindTimestamp     = "document timestamp"
	KindCertification = "certification signature"
)

// A Verdict is what verification says of one seal.
type Verdict struct {
	Seal     *pdfio.Seal
	Kind     string    // KindSignature, KindTimestamp or KindCertification
	Signer   string    // the signer's (or the TSA's) certificate subject; "" when unknown
	Time     time.Time // the token's time, else the signing-time attribute, else /M; zero when none
	TimeFrom string    // "document timestamp", "signature timestamp", "signing-time attribute", "/M (claimed)"
	// Timestamped: Time is a time-stamp token's (RFC 3161), not a claim.
	Timestamped bool
	// Revision is the index in Document.Revisions of the revision the
	// /ByteRange ends with (-1 when it ends with none): the seal covers it
	// and every one before it.
	Revision int
	Trusted  bool // a chain reaches the trust anchors (the token's too, when there is one)
	Problems []Problem
}

// Verified reports whether the seal verifies: no format, range or digest
// problem (it may be untrusted).
func (v *Verdict) Verified() bool {
	for _, p := range v.Problems {
		if p.Check != CheckUntrusted {
			return false
		}
	}
	return true
}

func (v *Verdict) problem(c Check, format string, args ...any) {
	v.Problems = append(v.Problems, Problem{c, fmt.Sprintf(format, args...)})
}

// VerifyOptions control verification.
type VerifyOptions struct {
	// Trust holds the trust anchors (audit --trust); nil: none were
	// given, and every seal is untrusted, saying so.
	Trust *x509.CertPool
	// Now is the time a chain is checked at when the seal gives none; zero
	// means time.Now.
	Now time.Time
}

// Verify judges every seal of d; f holds the file's bytes (size of them).
// It never panics on what the file holds: a panic in a parser is a
// format problem of the seal being read.
func Verify(f io.ReaderAt, size int64, d *pdfio.Document, opts VerifyOptions) []*Verdict {
	var extra []*x509.Certificate
	if d.DSS != nil {
		for _, der := range d.DSS.Certs {
			if c, err := x509.ParseCertificate(der); err == nil {
				extra = append(extra, c)
			}
		}
	}
	out := make([]*Verdict, 0, len(d.Seals))
	for _, s := range d.Seals {
		v := &Verdict{Seal: s, Revision: -1}
		verifyOne(v, f, size, d, extra, opts)
		out = append(out, v)
	}
	return out
}

// verifyOne judges one seal, a panic in a parser turned into a problem.
func verifyOne(v *Verdict, f io.ReaderAt, size int64, d *pdfio.Document, extra []*x509.Certificate, opts VerifyOptions) {
	defer func() {
		if p := recover(); p != nil {
			v.problem(CheckFormat, "reading it failed: %v", p)
		}
	}()
	s := v.Seal
	switch {
	case s.Type == "DocTimeStamp" || s.SubFilter == "ETSI.RFC3161":
		v.Kind = KindTimestamp
	case s.Certification:
		v.Kind = KindCertification
	default:
		v.Kind = KindSignature
	}
	for _, p := range s.Problems {
		v.problem(CheckFormat, "%s", p)
	}
	if !checkRange(v, f, size, d.Revisions) || len(s.Contents) == 0 {
		if len(s.Contents) == 0 && len(s.Problems) == 0 {
			v.problem(CheckFormat, "its /Contents is empty: nothing is signed")
		}
		return
	}
	content, err := covered(f, s.ByteRange)
	if err != nil {
		v.problem(CheckRange, "the bytes its /ByteRange covers cannot be read: %v", err)
		return
	}
	switch s.SubFilter {
	case "ETSI.RFC3161":
		verifyDocTimestamp(v, content, extra, opts)
	case "ETSI.CAdES.detached", "adbe.pkcs7.detached", "adbe.pkcs7.sha1":
		verifyCMS(v, content, extra, opts)
	case "adbe.x509.rsa_sha1":
		verifyX509RSA(v, content, opts)
	default:
		v.problem(CheckFormat, "its /SubFilter %q is none this verifier knows (ETSI.CAdES.detached, adbe.pkcs7.detached, adbe.pkcs7.sha1, adbe.x509.rsa_sha1, ETSI.RFC3161)", s.SubFilter)
	}
	if v.Time.IsZero() && s.M != "" {
		if dt, err := webcapture.ParseDate(s.M); err == nil && dt.Valid {
			v.Time, v.TimeFrom = dt.Time, "/M (claimed)"
		}
	}
}

// checkRange checks that the /ByteRange is [0 a b c]: a..b exactly the
// seal's /Contents hex string, angle brackets included, and b+c the end
// of a revision (the end of line after %%EOF included or not). It
// reports whether the covered bytes can be read at all.
func checkRange(v *Verdict, f io.ReaderAt, size int64, revs []pdfio.Revision) bool {
	s, br := v.Seal, v.Seal.ByteRange
	if len(br) != 4 {
		v.problem(CheckRange, "its /ByteRange has %d numbers, want 4 ([0 a b c])", len(br))
		return false
	}
	for _, n := range br {
		if n < 0 || n > size {
			v.problem(CheckRange, "its /ByteRange %v holds %d, outside the file (0 to %d bytes)", br, n, size)
			return false
		}
	}
	if br[2]+br[3] > size {
		v.problem(CheckRange, "its /ByteRange %v ends at %d, past the end of the file (%d bytes)", br, br[2]+br[3], size)
		return false
	}
	if br[0] != 0 {
		v.problem(CheckRange, "its /ByteRange %v does not start at 0: the first %d bytes are not covered", br, br[0])
	}
	if br[0]+br[1] > br[2] {
		v.problem(CheckRange, "its /ByteRange %v has ranges that overlap", br)
		return false
	}
	if s.ContentsAt >= 0 && (br[1] != s.ContentsAt || br[2] != s.ContentsAt+s.ContentsLen) {
		v.problem(CheckRange, "its /ByteRange %v leaves out bytes %d to %d, but its /Contents is at %d to %d: the gap is not exactly the signature", br, br[0]+br[1], br[2], s.ContentsAt, s.ContentsAt+s.ContentsLen)
	}
	end := br[2] + br[3]
	for i, r := range revs {
		if end == r.End || end < r.End && end >= r.End-2 && eolOnly(f, end, r.End) {
			v.Revision = i
		}
	}
	if v.Revision < 0 {
		v.problem(CheckRange, "its /ByteRange %v ends at %d, which is the end of no revision of the file (a revision ends after its %%%%EOF): part of a revision is not covered", br, end)
	}
	return true
}

// eolOnly reports whether the bytes from to end are the end-of-line
// marker after %%EOF, which pdfio's Revision.End counts and a range may
// leave out.
func eolOnly(f io.ReaderAt, from, end int64) bool {
	b := make([]byte, end-from)
	if _, err := f.ReadAt(b, from); err != nil {
		return false
	}
	return len(bytes.Trim(b, "\r\n")) == 0
}

// covered reads the bytes the /ByteRange covers.
func covered(f io.ReaderAt, br []int64) ([]byte, error) {
	b := make([]byte, br[1]+br[3])
	if _, err := f.ReadAt(b[:br[1]], br[0]); err != nil {
		return nil, err
	}
	if _, err := f.ReadAt(b[br[1]:], br[2]); err != nil && !(errors.Is(err, io.EOF) && br[3] == 0) {
		return nil, err
	}
	return b, nil
}

// oidSignatureTimestamp is id-aa-timeStampToken (RFC 3161 Appendix A),
// the unsigned attribute of a signature timestamp.
var oidSignatureTimestamp = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 2, 14}

// verifyCMS verifies a CMS signature: detached over the covered bytes,
// or (adbe.pkcs7.sha1) over their SHA-1 held as the content.
func verifyCMS(v *Verdict, content []byte, extra []*x509.Certificate, opts VerifyOptions) {
	if derTooDeep(v.Seal.Contents, maxDERDepth) {
		v.problem(CheckFormat, "its /Contents is no CMS signature that can be read: nested deeper than %d, or a length past its end", maxDERDepth)
		return
	}
	p7, err := parseCMS(v.Seal.Contents)
	if err != nil {
		v.problem(CheckFormat, "its /Contents is no CMS signature that can be read: %v", err)
		return
	}
	if len(p7.Signers) != 1 {
		v.problem(CheckFormat, "its CMS signature has %d signers, want 1", len(p7.Signers))
		return
	}
	si := p7.Signers[0]
	ee := p7.GetOnlySigner()
	if ee == nil {
		v.problem(CheckFormat, "its CMS signature does not hold the signer's certificate")
		return
	}
	v.Signer = ee.Subject.String()
	if v.Seal.SubFilter == "adbe.pkcs7.sha1" {
		sum := sha1.Sum(content)
		if !bytes.Equal(p7.Content, sum[:]) {
			v.problem(CheckDigest, "the SHA-1 its signature holds (%x) is not the SHA-1 of the bytes its /ByteRange covers (%x)", p7.Content, sum)
			return
		}
	} else {
		if len(p7.Content) > 0 {
			v.problem(CheckFormat, "its CMS signature holds content (%d bytes), want none: /SubFilter %s is detached", len(p7.Content), v.Seal.SubFilter)
			return
		}
		p7.Content = content
	}
	var md []byte
	if len(si.AuthenticatedAttributes) > 0 {
		if err := p7.UnmarshalSignedAttribute(pkcs7.OIDAttributeMessageDigest, &md); err != nil {
			v.problem(CheckFormat, "its CMS signature has signed attributes but no message digest: %v", err)
			return
		}
		h, ok := hashOf(si.DigestAlgorithm.Algorithm)
		if !ok {
			v.problem(CheckFormat, "its CMS signature uses digest algorithm %v, which this verifier does not know", si.DigestAlgorithm.Algorithm)
			return
		}
		d := h.New()
		d.Write(p7.Content)
		if sum := d.Sum(nil); !bytes.Equal(sum, md) {
			v.problem(CheckDigest, "the digest its signature signs (%x) is not the digest of the bytes its /ByteRange covers (%x): the signed bytes were changed", md, sum)
			return
		}
		var st time.Time
		if p7.UnmarshalSignedAttribute(pkcs7.OIDAttributeSigningTime, &st) == nil && !st.IsZero() {
			v.Time, v.TimeFrom = st, "signing-time attribute"
		}
	}
	if err := verifySigner(p7, ee); err != nil {
		var mm *pkcs7.MessageDigestMismatchError
		switch {
		case errors.As(err, &mm):
			v.problem(CheckDigest, "the digest its signature signs is not the digest of the bytes its /ByteRange covers: %v", err)
			return
		case strings.Contains(err.Error(), "signing time"):
			v.problem(CheckUntrusted, "its signer's certificate: %v", err)
		default:
			v.problem(CheckDigest, "its signature value does not verify with the signer's certificate (%s): %v", v.Signer, err)
			return
		}
	}
	pool := append(append([]*x509.Certificate{}, p7.Certificates...), extra...)
	tokenTrusted := true
	for _, a := range si.UnauthenticatedAttributes {
		if !a.Type.Equal(oidSignatureTimestamp) {
			continue
		}
		ts, ok := verifyToken(v, a.Value.Bytes, "signature timestamp", pool, opts)
		if !ok {
			return
		}
		h := ts.HashAlgorithm.New()
		h.Write(si.EncryptedDigest)
		if sum := h.Sum(nil); !bytes.Equal(sum, ts.HashedMessage) {
			v.problem(CheckDigest, "its signature timestamp's imprint (%x) is not the %v of the signature value (%x)", ts.HashedMessage, ts.HashAlgorithm, sum)
			return
		}
		v.Time, v.TimeFrom, v.Timestamped = ts.Time, "signature timestamp", true
		tokenTrusted = v.Trusted
	}
	v.Trusted = chain(v, "the signer's", ee, pool, opts) && tokenTrusted
}

// verifyDocTimestamp verifies a document timestamp (ISO 32000-2 §12.8.5):
// its token's imprint is the digest of the covered bytes.
func verifyDocTimestamp(v *Verdict, content []byte, extra []*x509.Certificate, opts VerifyOptions) {
	ts, ok := verifyToken(v, v.Seal.Contents, "document timestamp", extra, opts)
	if !ok {
		return
	}
	h := ts.HashAlgorithm.New()
	h.Write(content)
	if sum := h.Sum(nil); !bytes.Equal(sum, ts.HashedMessage) {
		v.problem(CheckDigest, "its token's imprint (%x) is not the %v of the bytes its /ByteRange covers (%x): the covered bytes were changed", ts.HashedMessage, ts.HashAlgorithm, sum)
		return
	}
	v.Time, v.TimeFrom, v.Timestamped = ts.Time, "document timestamp", true
}

// verifyToken reads an RFC 3161 token, checks its signature (with the
// certificates it holds, else those of pool) and its TSA's chain; v.Trusted
// says whether the chain reached the anchors, and v.Signer is the TSA for a
// document timestamp.
func verifyToken(v *Verdict, token []byte, what string, pool []*x509.Certificate, opts VerifyOptions) (*timestamp.Timestamp, bool) {
	if derTooDeep(token, maxDERDepth) {
		v.problem(CheckFormat, "its %s is no time-stamp token that can be read: nested deeper than %d, or a length past its end", what, maxDERDepth)
		return nil, false
	}
	p7, err := parseCMS(token)
	if err != nil {
		v.problem(CheckFormat, "its %s is no time-stamp token that can be read: %v", what, err)
		return nil, false
	}
	if len(p7.Signers) != 1 {
		v.problem(CheckFormat, "its %s has %d signers, want 1", what, len(p7.Signers))
		return nil, false
	}
	if len(p7.Certificates) == 0 {
		p7.Certificates = pool // the TSA's certificate from the signature or the /DSS
	}
	tsa := p7.GetOnlySigner()
	if tsa == nil {
		v.problem(CheckUntrusted, "its %s's signature cannot be checked: the TSA's certificate is neither in the token nor in the /DSS", what)
		v.Trusted = false
	} else if err := verifySigner(p7, tsa); err != nil {
		v.problem(CheckDigest, "its %s's signature does not verify: %v", what, err)
		return nil, false
	}
	ts, err := parseTSTInfo(token, p7)
	if err != nil {
		v.problem(CheckFormat, "its %s cannot be read: %v", what, err)
		return nil, false
	}
	if tsa != nil {
		if what == "document timestamp" {
			v.Signer = tsa.Subject.String()
		}
		v.Trusted = chain(v, "the "+what+"'s TSA", tsa, append(append([]*x509.Certificate{}, p7.Certificates...), pool...), optsAt(opts, ts.Time))
	}
	return ts, true
}

func optsAt(o VerifyOptions, t time.Time) VerifyOptions {
	o.Now = t
	return o
}

// chain reports whether cert's chain reaches the anchors, saying why not.
func chain(v *Verdict, whose string, cert *x509.Certificate, pool []*x509.Certificate, opts VerifyOptions) bool {
	if opts.Trust == nil {
		v.problem(CheckUntrusted, "%s certificate (%s) is not checked against any trust anchor: no --trust was given", whose, cert.Subject)
		return false
	}
	inter := x509.NewCertPool()
	for _, c := range pool {
		inter.AddCert(c)
	}
	at := opts.Now
	if !v.Time.IsZero() && at.IsZero() {
		at = v.Time
	}
	if _, err := cert.Verify(x509.VerifyOptions{Roots: opts.Trust, Intermediates: inter, CurrentTime: at,
		KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageAny}}); err != nil {
		v.problem(CheckUntrusted, "%s certificate (%s) does not chain to the trust anchors: %v", whose, cert.Subject, err)
		return false
	}
	return true
}

// verifyX509RSA verifies an adbe.x509.rsa_sha1 signature (ISO 32000-1
// §12.8.3.2): /Contents a DER OCTET STRING holding the PKCS #1 v1.5
// signature of the SHA-1 of the covered bytes, /Cert the signer's
// certificate first.
func verifyX509RSA(v *Verdict, content []byte, opts VerifyOptions) {
	if len(v.Seal.Cert) == 0 {
		v.problem(CheckFormat, "its /SubFilter is adbe.x509.rsa_sha1 but it has no /Cert")
		return
	}
	cert, err := x509.ParseCertificate(v.Seal.Cert[0])
	var key any
	if err == nil {
		v.Signer, key = cert.Subject.String(), cert.PublicKey
	} else if subject, pub, lerr := lenientKey(v.Seal.Cert[0]); lerr == nil {
		v.Signer, key = subject, pub
		v.problem(CheckUntrusted, "its /Cert is a certificate Go's x509 refuses (%v): the signature is checked with its key, its chain cannot be", err)
	} else {
		v.problem(CheckFormat, "its /Cert cannot be read: %v", err)
		return
	}
	var sig []byte
	if rest, err := asn1.Unmarshal(v.Seal.Contents, &sig); err != nil {
		v.problem(CheckFormat, "its /Contents is no DER octet string: %v", err)
		return
	} else if len(bytes.TrimRight(rest, "\x00")) > 0 {
		v.problem(CheckFormat, "its /Contents has %d bytes after the signature", len(rest))
		return
	}
	pub, ok := key.(*rsa.PublicKey)
	if !ok {
		v.problem(CheckFormat, "its /Cert holds no RSA key")
		return
	}
	sum := sha1.Sum(content)
	if err := rsa.VerifyPKCS1v15(pub, crypto.SHA1, sum[:], sig); err != nil {
		v.problem(CheckDigest, "its RSA signature does not verify over the SHA-1 of the bytes its /ByteRange covers: %v", err)
		return
	}
	if cert == nil {
		return
	}
	var pool []*x509.Certificate
	for _, der := range v.Seal.Cert[1:] {
		if c, err := x509.ParseCertificate(der); err == nil {
			pool = append(pool, c)
		}
	}
	v.Trusted = chain(v, "the signer's", cert, pool, opts)
}

// hashOf is the digest algorithm of a CMS digestAlgorithm identifier.
func hashOf(oid asn1.ObjectIdentifier) (crypto.Hash, bool) {
	switch {
	case oid.Equal(pkcs7.OIDDigestAlgorithmSHA1):
		return crypto.SHA1, true
	case oid.Equal(pkcs7.OIDDigestAlgorithmSHA256):
		return crypto.SHA256, true
	case oid.Equal(pkcs7.OIDDigestAlgorithmSHA384):
		return crypto.SHA384, true
	case oid.Equal(pkcs7.OIDDigestAlgorithmSHA512):
		return crypto.SHA512, true
	}
	return 0, false
}

// lenientKey reads the subject and public key of a certificate Go's x509
// refuses (a negative serial number, which Go 1.23 rejects and older
// signing tools wrote): only to check a signature made with it; its chain
// is not checked.
func lenientKey(der []byte) (subject string, pub any, err error) {
	var c struct {
		TBS struct {
			Raw       asn1.RawContent
			Version   int `asn1:"optional,explicit,default:0,tag:0"`
			Serial    asn1.RawValue
			Algorithm asn1.RawValue
			Issuer    asn1.RawValue
			Validity  asn1.RawValue
			Subject   asn1.RawValue
			PublicKey asn1.RawValue
		}
	}
	if _, err := asn1.Unmarshal(der, &c); err != nil {
		return "", nil, err
	}
	var name pkix.RDNSequence
	if _, err := asn1.Unmarshal(c.TBS.Subject.FullBytes, &name); err == nil {
		var n pkix.Name
		n.FillFromRDNSequence(&name)
		subject = n.String()
	}
	pub, err = x509.ParsePKIXPublicKey(c.TBS.PublicKey.FullBytes)
	return subject, pub, err
}

// maxDERDepth bounds the nesting of a CMS signature or token read: a real
// one nests about twenty deep (a certificate's extensions inside the
// SignedData); the parsers recurse once a level, and 200,000 levels of
// indefinite length took 150 MB.
const maxDERDepth = 100

// derTooDeep reports whether b's BER/DER encoding nests more than max
// deep, or cannot be walked at all (a length past its container); in one
// pass, without recursion.
func derTooDeep(b []byte, max int) bool {
	var ends []int // each open constructed value's end; -1: indefinite length
	for pos := 0; pos < len(b); {
		for len(ends) > 0 && ends[len(ends)-1] >= 0 && pos >= ends[len(ends)-1] {
			ends = ends[:len(ends)-1]
		}
		if len(ends) > 0 && ends[len(ends)-1] < 0 && pos+1 < len(b) && b[pos] == 0 && b[pos+1] == 0 {
			ends = ends[:len(ends)-1]
			pos += 2
			continue
		}
		tag := b[pos]
		pos++
		if tag&0x1f == 0x1f {
			for pos < len(b) && b[pos]&0x80 != 0 {
				pos++
			}
			pos++
		}
		if pos >= len(b) {
			return false
		}
		l := int(b[pos])
		pos++
		indefinite := false
		switch {
		case l == 0x80:
			indefinite = true
		case l > 0x80:
			n := l & 0x7f
			if n > 4 || pos+n > len(b) {
				return true
			}
			l = 0
			for _, c := range b[pos : pos+n] {
				l = l<<8 | int(c)
			}
			pos += n
		}
		if tag&0x20 == 0 { // primitive
			if indefinite || l > len(b)-pos {
				return true
			}
			pos += l
			continue
		}
		if len(ends) >= max {
			return true
		}
		if indefinite {
			ends = append(ends, -1)
		} else {
			if l > len(b)-pos {
				return true
			}
			ends = append(ends, pos+l)
		}
	}
	return false
}
