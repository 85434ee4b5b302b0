package seal

import (
	"time"

	"github.com/digitorus/pkcs7"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// A Summary says what a seal claims, read without verifying it (info
// lists it; audit verifies): its kind, signer, time and field.
type Summary struct {
	Kind     string    // KindSignature, KindTimestamp or KindCertification
	Field    string    // the signature field's name
	Signer   string    // the signer's (a document timestamp's TSA's) certificate subject, as the seal holds it; "" if none can be read
	Time     time.Time // the token's time, else the signing-time attribute, else /M; zero when none
	TimeFrom string    // as Verdict.TimeFrom
}

// Describe reads what s claims. It never panics on what the file holds.
func Describe(s *pdfio.Seal) (sum Summary) {
	sum.Field = s.Field
	switch {
	case s.Type == "DocTimeStamp" || s.SubFilter == "ETSI.RFC3161":
		sum.Kind = KindTimestamp
	case s.Certification:
		sum.Kind = KindCertification
	default:
		sum.Kind = KindSignature
	}
	defer func() {
		if recover() != nil {
			sum.Signer = ""
		}
		if sum.Time.IsZero() && s.M != "" {
			if dt, err := webcapture.ParseDate(s.M); err == nil && dt.Valid {
				sum.Time, sum.TimeFrom = dt.Time, "/M (claimed)"
			}
		}
	}()
	if len(s.Contents) == 0 || derTooDeep(s.Contents, maxDERDepth) {
		return sum
	}
	switch s.SubFilter {
	case "adbe.x509.rsa_sha1":
		if len(s.Cert) > 0 {
			sum.Signer, _, _ = lenientKey(s.Cert[0])
		}
		return sum
	case "ETSI.RFC3161":
		if p7, err := parseCMS(s.Contents); err == nil {
			if c := p7.GetOnlySigner(); c != nil {
				sum.Signer = c.Subject.String()
			}
			if ts, err := parseTSTInfo(s.Contents, p7); err == nil {
				sum.Time, sum.TimeFrom = ts.Time, "document timestamp"
			}
		}
		return sum
	}
	p7, err := parseCMS(s.Contents)
	if err != nil {
		return sum
	}
	if c := p7.GetOnlySigner(); c != nil {
		sum.Signer = c.Subject.String()
	}
	var st time.Time
	if p7.UnmarshalSignedAttribute(pkcs7.OIDAttributeSigningTime, &st) == nil && !st.IsZero() {
		sum.Time, sum.TimeFrom = st, "signing-time attribute"
	}
	if len(p7.Signers) == 1 {
		for _, a := range p7.Signers[0].UnauthenticatedAttributes {
			if a.Type.Equal(oidSignatureTimestamp) {
				if tp7, err := parseCMS(a.Value.Bytes); err == nil {
					if ts, err := parseTSTInfo(a.Value.Bytes, tp7); err == nil {
						sum.Time, sum.TimeFrom = ts.Time, "signature timestamp"
					}
				}
			}
		}
	}
	return sum
}
