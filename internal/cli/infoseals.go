package cli

import (
	"time"

	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/seal"
)

// sealJSON is one seal in info --json: what it claims, not verified
// (audit verifies: WC-SEAL-*).
type sealJSON struct {
	Kind      string `json:"kind"` // "signature", "document timestamp", "certification signature"
	Field     string `json:"field"`
	Object    string `json:"object,omitempty"` // the signature dictionary
	SubFilter string `json:"subFilter"`
	Signer    string `json:"signer"`             // the certificate subject the seal holds; "" when none can be read
	Time      string `json:"time,omitempty"`     // RFC 3339, UTC
	TimeFrom  string `json:"timeFrom,omitempty"` // "document timestamp", "signature timestamp", "signing-time attribute", "/M (claimed)"
	Covers    int64  `json:"covers"`             // the bytes its /ByteRange reaches (b+c)
}

// newSealsJSON describes the document's seals; nil when it has none (the
// key is then left out).
func newSealsJSON(d *pdfio.Document) []sealJSON {
	var out []sealJSON
	for _, s := range d.Seals {
		sum := seal.Describe(s)
		j := sealJSON{Kind: sum.Kind, Field: sum.Field, SubFilter: s.SubFilter, Signer: sum.Signer, TimeFrom: sum.TimeFrom}
		if !s.Ref.IsZero() {
			j.Object = s.Ref.String()
		}
		if !sum.Time.IsZero() {
			j.Time = sum.Time.UTC().Format(time.RFC3339)
		}
		if br := s.ByteRange; len(br) == 4 {
			j.Covers = br[2] + br[3]
		}
		out = append(out, j)
	}
	return out
}

// appendSealsJSON appends the "seals" member when there are seals (the
// rare part: through encoding/json).
func appendSealsJSON(b []byte, d *pdfio.Document) ([]byte, error) {
	seals := newSealsJSON(d)
	if len(seals) == 0 {
		return b, nil
	}
	sb, err := marshal(seals)
	if err != nil {
		return b, err
	}
	b = append(b, `,"seals":`...)
	return append(b, sb...), nil
}

// writeSeals lists the seals in info's text: kind, signer, time, field.
func writeSeals(p *printer, d *pdfio.Document) {
	seals := newSealsJSON(d)
	if len(seals) == 0 {
		return
	}
	p.f("\nseals: %d (not verified here: webcap audit --trust CA.pem verifies them)\n", len(seals))
	for _, s := range seals {
		signer, when := s.Signer, "no time"
		if signer == "" {
			signer = "unknown signer"
		}
		if s.Time != "" {
			when = s.Time + " (" + s.TimeFrom + ")"
		}
		p.f("  %s %q (%s): %s, %s, covers %d bytes\n", s.Kind, s.Field, s.SubFilter, signer, when, s.Covers)
	}
}
