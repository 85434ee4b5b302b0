package seal

import (
	"bytes"
	"context"
	"crypto"
	"crypto/sha256"
	"math/big"
	"testing"
	"time"

	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/internal/testpki"
)

// TestTokenChecks: a token is used only when it answers the request made:
// every cut of a valid answer, and every answer for another digest, nonce
// or without its certificate, is refused, never a panic.
func TestTokenChecks(t *testing.T) {
	p, err := testpki.New()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	digest := sha256.Sum256([]byte("document"))
	other := sha256.Sum256([]byte("another"))
	nonce := big.NewInt(7)
	good, err := p.Token(crypto.SHA256, digest[:], nonce, true, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	ts, err := parseResponse(good)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkToken(ts, digest[:], nonce); err != nil {
		t.Fatalf("checkToken(good) = %v", err)
	}
	for n := 0; n < len(good); n += 7 {
		if _, err := parseResponse(good[:n]); err == nil {
			t.Fatalf("parseResponse(the first %d bytes) = nil error", n)
		}
	}
	flipped := bytes.Clone(good)
	flipped[len(flipped)-10] ^= 1 // inside the signature value
	if _, err := parseResponse(flipped); err == nil {
		t.Error("a token whose signature was changed parsed")
	}
	for _, tc := range []struct {
		name   string
		digest []byte
		nonce  *big.Int
		certs  bool
		want   string
	}{
		{"other-digest", other[:], nonce, true, "another digest"},
		{"other-nonce", digest[:], big.NewInt(8), true, "nonce"},
		{"no-nonce", digest[:], nil, true, "nonce"},
		{"no-certificate", digest[:], nonce, false, "no certificate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := p.Token(crypto.SHA256, tc.digest, tc.nonce, tc.certs, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			ts, err := parseResponse(b)
			if err == nil {
				err = checkToken(ts, digest[:], nonce)
			}
			if err == nil || !bytes.Contains([]byte(err.Error()), []byte(tc.want)) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// BenchmarkSeal seals a capture with a signature, its timestamp and LTV
// (B-LTA) against the loopback PKI: the cost of a seal besides the TSA's.
func BenchmarkSeal(b *testing.B) {
	p, err := testpki.New()
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	f, err := p.WriteFiles(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	s, err := LoadPEM(f.Chain, f.Key)
	if err != nil {
		b.Fatal(err)
	}
	in := pdfbuild.Big(2000, false)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Bytes(context.Background(), in, "big.pdf", Options{Signer: s, TimestampURL: p.TSAURL(), LTV: true}); err != nil {
			b.Fatal(err)
		}
	}
}
