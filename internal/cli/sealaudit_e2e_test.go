package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/digitorus/pkcs7"
	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/internal/testpki"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/seal"
)

// TestAuditSeals: audit --trust verifies a signed capture (exit 0), says a
// seal untrusted without --trust (a warning), and exits 1 naming the
// finding when a byte under the seal changed or a page was appended after
// it (the workers, which get --trust, are run by the hostile cases:
// internal/hostile/cases_sealaudit.go).
func TestAuditSeals(t *testing.T) {
	p, err := testpki.New()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	dir := t.TempDir()
	files, err := p.WriteFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	sign := func(covered io.Reader) ([]byte, error) {
		data, err := io.ReadAll(covered)
		if err != nil {
			return nil, err
		}
		sd, err := pkcs7.NewSignedData(data)
		if err != nil {
			return nil, err
		}
		sd.SetDigestAlgorithm(pkcs7.OIDDigestAlgorithmSHA256)
		if err := sd.AddSignerChain(p.Signer, p.SignerKey, nil, pkcs7.SignerInfoConfig{}); err != nil {
			return nil, err
		}
		sd.Detach()
		return sd.Finish()
	}
	u, err := pdfio.NewUpdate(pb.Web(false), "in.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := u.AddSeal(pdfio.SealField{Type: pdfio.SealSig, Size: 8192}); err != nil {
		t.Fatal(err)
	}
	signed, err := u.SealedBytes(sign)
	if err != nil {
		t.Fatal(err)
	}
	flipped := bytes.Clone(signed)
	i := bytes.Index(flipped, []byte("stream\n"))
	flipped[i+len("stream\n")] ^= 1
	u, err = pdfio.NewUpdate(signed, "signed.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := u.AppendPages(pb.Web(false), "other.pdf"); err != nil {
		t.Fatal(err)
	}
	appended, err := u.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	empty := write("empty.pem", []byte("no certificate\n"))
	// What seal writes: PAdES B-LTA (a signature with its timestamp, the
	// DSS, a document timestamp).
	signer, err := seal.LoadPEM(files.Signer, files.Key)
	if err != nil {
		t.Fatal(err)
	}
	lta, _, err := seal.Bytes(context.Background(), pb.Web(false), "in.pdf", seal.Options{Signer: signer, TimestampURL: p.TSAURL(), LTV: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string // in stdout or stderr
	}{
		{"trusted", []string{"--trust", files.CA, write("signed.pdf", signed)}, 0, "WC-SEAL-VERIFIED"},
		{"no --trust", []string{write("signed2.pdf", signed)}, 0, "WC-SEAL-UNTRUSTED"},
		{"B-LTA", []string{"--trust", files.CA, write("lta.pdf", lta)}, 0, `"rule":"WC-SEAL-VERIFIED","severity":"info","message":"the document timestamp`},
		{"a stream byte changed", []string{"--trust", files.CA, write("flipped.pdf", flipped)}, 1, "WC-SEAL-DIGEST"},
		{"a page appended", []string{"--trust", files.CA, write("appended.pdf", appended)}, 1, "WC-SEAL-AFTER"},
		{"--trust without a certificate", []string{"--trust", empty, filepath.Join(dir, "signed.pdf")}, exitUsage, "no PEM certificate"},
		{"--trust missing", []string{"--trust", filepath.Join(dir, "none.pem"), filepath.Join(dir, "signed.pdf")}, exitIOError, "none.pem"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ios, _, stdout, stderr := Test()
			code := Main(context.Background(), append([]string{"audit", "--json", "--in-process"}, tc.args...), ios)
			out := stdout.String() + stderr.String()
			if code != tc.code || !strings.Contains(out, tc.want) || tc.code == 0 && tc.args[0] == "--trust" && strings.Contains(out, "UNTRUSTED") {
				t.Errorf("audit %v: exit %d, want %d with %q:\n%s", tc.args, code, tc.code, tc.want, out)
			}
		})
	}
}
