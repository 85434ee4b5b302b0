package seal

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/digitorus/pkcs7"
	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/internal/testpki"
)

// What Apply writes verifies: a PAdES B-LTA seal (a signature with its
// signature timestamp, a /DSS, a document timestamp) and that seal
// renewed twice by a document timestamp each time; every seal verifies
// against the test CA, covers the revision it ends, and openssl agrees.
func TestVerifyRoundTrip(t *testing.T) {
	p, files := newPKI(t)
	signer, err := LoadPEM(files.Signer, files.Key)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	lta, _, err := Bytes(ctx, pdfbuild.Web(false), "in.pdf", Options{Signer: signer, TimestampURL: p.TSAURL(), LTV: true})
	if err != nil {
		t.Fatal(err)
	}
	renewed := lta
	for range 2 {
		if renewed, _, err = Bytes(ctx, renewed, "in.pdf", Options{TimestampURL: p.TSAURL(), LTV: true}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name  string
		file  []byte
		seals int
	}{
		{"B-LTA", lta, 2},
		{"renewed twice", renewed, 6}, // each renewal: a timestamp, the DSS, a timestamp over it,
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, vs := verify(t, tc.file, p)
			if len(vs) != tc.seals {
				t.Fatalf("%d seals, want %d", len(vs), tc.seals)
			}
			if d.DSS == nil || len(d.DSS.Certs) == 0 {
				t.Errorf("no /DSS certificates read: %+v", d.DSS)
			}
			for i, v := range vs {
				if !v.Verified() || !v.Trusted {
					t.Errorf("%s %q: verified %v, trusted %v: %v", v.Kind, v.Seal.Field, v.Verified(), v.Trusted, v.Problems)
				}
				if !v.Timestamped {
					t.Errorf("%s %q: its time is %s's, not a token's", v.Kind, v.Seal.Field, v.TimeFrom)
				}
				if ok, out := opensslVerifies(t, tc.file, v.Seal, v.Seal.ByteRange, files); !ok {
					t.Errorf("%s %q: openssl does not verify it:\n%s", v.Kind, v.Seal.Field, out)
				}
				if v.Kind == KindSignature {
					signatureTimestampAgrees(t, v.Seal.Contents, files)
				}
				if i > 0 && v.Revision <= vs[i-1].Revision {
					t.Errorf("seal %d covers revision %d, the one before it %d", i, v.Revision, vs[i-1].Revision)
				}
			}
			if last := vs[len(vs)-1]; last.Kind != KindTimestamp || last.Revision != len(d.Revisions)-1 {
				t.Errorf("the last seal is a %s covering revision %d of %d, want a document timestamp covering the last", last.Kind, last.Revision, len(d.Revisions))
			}
			// A byte of the first revision changed: every seal breaks.
			bad := flipStream(tc.file)
			_, vs = verify(t, bad, p)
			for _, v := range vs {
				if v.Verified() {
					t.Errorf("%s %q verifies with a covered byte changed", v.Kind, v.Seal.Field)
				}
			}
		})
	}
}

// signatureTimestampAgrees checks the signature timestamp of the CMS
// signature sig with openssl: ts -verify over the signature value.
func signatureTimestampAgrees(t *testing.T, sig []byte, f testpki.Files) {
	t.Helper()
	p7, err := pkcs7.Parse(sig)
	if err != nil || len(p7.Signers) != 1 {
		t.Fatalf("the signature does not parse: %v", err)
	}
	si := p7.Signers[0]
	found := false
	for _, a := range si.UnauthenticatedAttributes {
		if !a.Type.Equal(oidSignatureTimestamp) {
			continue
		}
		found = true
		dir := t.TempDir()
		value, token := filepath.Join(dir, "value.bin"), filepath.Join(dir, "token.der")
		if err := os.WriteFile(value, si.EncryptedDigest, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(token, a.Value.Bytes, 0o600); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("openssl", "ts", "-verify", "-data", value, "-in", token, "-token_in", "-CAfile", f.CA, "-untrusted", f.TSA).CombinedOutput()
		if err != nil {
			t.Errorf("openssl ts -verify of the signature timestamp: %v\n%s", err, out)
		}
	}
	if !found {
		t.Error("the signature has no signature timestamp")
	}
}

// A signature timestamp whose imprint was changed (one byte, written back
// in the signature's /Contents): the token's own signature no longer
// verifies, and neither does openssl ts -verify.
func TestVerifySignatureTimestampTampered(t *testing.T) {
	p, files := newPKI(t)
	signer, err := LoadPEM(files.Signer, files.Key)
	if err != nil {
		t.Fatal(err)
	}
	bt, _, err := Bytes(context.Background(), pdfbuild.Web(false), "in.pdf", Options{Signer: signer, TimestampURL: p.TSAURL()})
	if err != nil {
		t.Fatal(err)
	}
	d, vs := verify(t, bt, p)
	if len(vs) != 1 || !vs[0].Verified() || vs[0].TimeFrom != "signature timestamp" {
		t.Fatalf("the B-T signature: %+v", vs)
	}
	s := d.Seals[0]
	p7, err := pkcs7.Parse(s.Contents)
	if err != nil {
		t.Fatal(err)
	}
	imprint := sha256.Sum256(p7.Signers[0].EncryptedDigest)
	i := bytes.Index(s.Contents, imprint[:])
	if i < 0 {
		t.Fatal("no imprint in the signature")
	}
	changed := bytes.Clone(s.Contents)
	changed[i] ^= 1
	bad := bytes.Clone(bt)
	copy(bad[s.ContentsAt+1:], strings.ToUpper(hex.EncodeToString(changed)))
	_, vs = verify(t, bad, p)
	if vs[0].Verified() {
		t.Fatal("a changed signature timestamp verifies")
	}
	if !strings.Contains(fmt.Sprint(vs[0].Problems), "signature timestamp") || vs[0].Problems[0].Check != CheckDigest {
		t.Errorf("problems %v, want the signature timestamp's, a digest problem", vs[0].Problems)
	}
	dir := t.TempDir()
	value, token := filepath.Join(dir, "value.bin"), filepath.Join(dir, "token.der")
	p7, _ = pkcs7.Parse(changed)
	for _, a := range p7.Signers[0].UnauthenticatedAttributes {
		if a.Type.Equal(oidSignatureTimestamp) {
			os.WriteFile(token, a.Value.Bytes, 0o600)
		}
	}
	os.WriteFile(value, p7.Signers[0].EncryptedDigest, 0o600)
	if out, err := exec.Command("openssl", "ts", "-verify", "-data", value, "-in", token, "-token_in", "-CAfile", files.CA, "-untrusted", files.TSA).CombinedOutput(); err == nil {
		t.Errorf("openssl ts -verify accepts the changed token:\n%s", out)
	}
}
