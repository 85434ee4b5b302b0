package sealoracle

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/internal/testpki"
)

// Seal asks openssl the question the /SubFilter says: a CMS signature
// verifies as a signature and not as a token, a token as a token and not
// as a signature, and neither over other bytes.
func TestSeal(t *testing.T) {
	p, f := testpki.Start(t, "")
	data := []byte("the covered bytes")
	sig, err := p.CMSSign(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	tok, err := p.TokenSign(time.Now())(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		data, der []byte
		subFilter string
		ok        bool
	}{
		{"signature", data, sig, "ETSI.CAdES.detached", true},
		{"token", data, tok, "ETSI.RFC3161", true},
		{"signature as a token", data, sig, "ETSI.RFC3161", false},
		{"token as a signature", data, tok, "ETSI.CAdES.detached", false},
		{"signature over other bytes", []byte("other"), sig, "ETSI.CAdES.detached", false},
		{"token over other bytes", []byte("other"), tok, "ETSI.RFC3161", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Seal(tc.data, tc.der, tc.subFilter, f.CA, f.TSA)
			if errors.Is(err, ErrNoTool) {
				t.Skip(err)
			}
			if err != nil || v.OK != tc.ok {
				t.Errorf("Seal = %v, %v, want OK %v\n%s", v.OK, err, tc.ok, v.Out)
			}
		})
	}
}

func TestQPDFCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		file []byte
		ok   bool
	}{
		{"a sound file", pdfbuild.Web(false), true},
		{"not a PDF", []byte("not a PDF"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := QPDFCheck(tc.file)
			if errors.Is(err, ErrNoTool) {
				t.Skip(err)
			}
			if err != nil || v.OK != tc.ok {
				t.Errorf("QPDFCheck = %v, %v, want OK %v\n%s", v.OK, err, tc.ok, v.Out)
			}
		})
	}
}
