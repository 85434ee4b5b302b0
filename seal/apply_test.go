package seal

import (
	"bytes"
	"context"
	"crypto"
	"crypto/sha256"
	"encoding/asn1"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/digitorus/pkcs7"
	"github.com/digitorus/timestamp"
	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/internal/testpki"
	"github.com/webcap/webcap/pdfio"
)

// env is a test's PKI, its files, and an input PDF.
type env struct {
	pki   *testpki.PKI
	files testpki.Files
	dir   string
	in    string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	p, err := testpki.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	dir := t.TempDir()
	f, err := p.WriteFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "in.pdf")
	capture, err := pdfbuild.Sample("capture")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, capture, 0o644); err != nil {
		t.Fatal(err)
	}
	return &env{pki: p, files: f, dir: dir, in: in}
}

func (e *env) signer(t *testing.T) *Signer {
	t.Helper()
	s, err := LoadPEM(e.files.Chain, e.files.Key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A sealFound is a seal read back from a file by its text: enough for the
// oracles, which are openssl and pdfsig.
type sealFound struct {
	typ      string
	a, b, c  int64
	contents []byte // the DER, its zero padding cut
}

var sealText = regexp.MustCompile(`(?s)/ByteRange \[0 (\d+) (\d+) (\d+) *\]/Contents <([0-9A-F]+)>.*?/SubFilter /(\S+?)/Type /(Sig|DocTimeStamp)`)

func sealsOf(t *testing.T, file []byte) []sealFound {
	t.Helper()
	var out []sealFound
	for _, m := range sealText.FindAllSubmatch(file, -1) {
		var s sealFound
		s.typ = string(m[6])
		s.a, _ = strconv.ParseInt(string(m[1]), 10, 64)
		s.b, _ = strconv.ParseInt(string(m[2]), 10, 64)
		s.c, _ = strconv.ParseInt(string(m[3]), 10, 64)
		raw, err := hex.DecodeString(string(m[4]))
		if err != nil {
			t.Fatal(err)
		}
		var rv asn1.RawValue
		if _, err := asn1.Unmarshal(raw, &rv); err != nil {
			t.Fatalf("/Contents: %v", err)
		}
		s.contents = rv.FullBytes
		out = append(out, s)
	}
	return out
}

// covered is what a seal's /ByteRange covers.
func (s sealFound) covered(file []byte) []byte {
	return append(append([]byte{}, file[:s.a]...), file[s.b:s.b+s.c]...)
}

// openssl runs openssl in dir with files written there first, and says
// whether its output has want.
func openssl(t *testing.T, dir string, files map[string][]byte, want string, args ...string) {
	t.Helper()
	if _, err := exec.LookPath("openssl"); err != nil {
		t.Skip("no openssl")
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("openssl", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), want) {
		t.Errorf("openssl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// checkSeals has openssl verify every seal of file, and pdfsig every
// signature, against the test CA.
func (e *env) checkSeals(t *testing.T, file []byte, wantTypes ...string) []sealFound {
	t.Helper()
	seals := sealsOf(t, file)
	var got []string
	for _, s := range seals {
		got = append(got, s.typ)
	}
	if strings.Join(got, " ") != strings.Join(wantTypes, " ") {
		t.Fatalf("seals %q, want %q", got, wantTypes)
	}
	dir := t.TempDir()
	for i, s := range seals {
		if !bytes.HasPrefix(file[s.b+s.c:], []byte("")) || !bytes.Contains(file[s.b:s.b+s.c], []byte("%%EOF")) {
			t.Errorf("seal %d: its range does not reach its revision's end", i)
		}
		data := s.covered(file)
		switch s.typ {
		case "DocTimeStamp":
			openssl(t, dir, map[string][]byte{"data": data, "token.der": s.contents}, "Verification: OK",
				"ts", "-verify", "-data", "data", "-in", "token.der", "-token_in", "-CAfile", e.files.CA, "-untrusted", e.files.TSA)
		case "Sig":
			openssl(t, dir, map[string][]byte{"data": data, "sig.der": s.contents}, "Verification successful",
				"cms", "-verify", "-binary", "-inform", "DER", "-in", "sig.der", "-content", "data", "-CAfile", e.files.CA, "-purpose", "any", "-out", os.DevNull)
			if tok, sigValue := signatureToken(t, s.contents); tok != nil {
				openssl(t, dir, map[string][]byte{"sigvalue": sigValue, "sigtoken.der": tok}, "Verification: OK",
					"ts", "-verify", "-data", "sigvalue", "-in", "sigtoken.der", "-token_in", "-CAfile", e.files.CA, "-untrusted", e.files.TSA)
			}
		}
	}
	pdfsig(t, file, wantTypes)
	qpdfCheck(t, file)
	return seals
}

// signatureToken is the signature timestamp token of a CMS signature and
// the signature value it covers (nil: none).
func signatureToken(t *testing.T, der []byte) (tok, sigValue []byte) {
	t.Helper()
	p7, err := pkcs7.Parse(der)
	if err != nil {
		t.Fatal(err)
	}
	if len(p7.Signers) != 1 {
		t.Fatalf("%d signers", len(p7.Signers))
	}
	si := p7.Signers[0]
	for _, a := range si.AuthenticatedAttributes {
		if a.Type.Equal(oidSigningTime) {
			t.Error("the signature has a signing-time attribute (PAdES: none)")
		}
	}
	var ess bool
	for _, a := range si.AuthenticatedAttributes {
		ess = ess || a.Type.Equal(oidSigningCertificateV2)
	}
	if !ess {
		t.Error("the signature has no ESS signing-certificate-v2")
	}
	for _, a := range si.UnauthenticatedAttributes {
		if a.Type.Equal(oidSignatureTimeStampTok) {
			return a.Value.Bytes, si.EncryptedDigest
		}
	}
	return nil, nil
}

var pdfsigValid = regexp.MustCompile(`Signature Validation: Signature is Valid`)

// pdfsig checks that pdfsig lists every seal and says each signature is
// valid (it cannot check a document timestamp: openssl does).
func pdfsig(t *testing.T, file []byte, types []string) {
	t.Helper()
	if _, err := exec.LookPath("pdfsig"); err != nil {
		return
	}
	p := filepath.Join(t.TempDir(), "f.pdf")
	if err := os.WriteFile(p, file, 0o600); err != nil {
		t.Fatal(err)
	}
	out, _ := exec.Command("pdfsig", p).CombinedOutput()
	blocks := regexp.MustCompile(`(?m)^Signature #\d+:`).Split(string(out), -1)[1:]
	if len(blocks) != len(types) {
		t.Fatalf("pdfsig lists %d signatures, want %d:\n%s", len(blocks), len(types), out)
	}
	for i, typ := range types {
		if typ == "Sig" && !pdfsigValid.MatchString(blocks[i]) {
			t.Errorf("pdfsig: signature %d is not valid:\n%s", i+1, blocks[i])
		}
	}
}

func qpdfCheck(t *testing.T, file []byte) {
	t.Helper()
	if _, err := exec.LookPath("qpdf"); err != nil {
		return
	}
	p := filepath.Join(t.TempDir(), "f.pdf")
	if err := os.WriteFile(p, file, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("qpdf", "--check", p).CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte("No syntax or stream encoding errors")) {
		t.Errorf("qpdf --check: %v\n%s", err, out)
	}
}

func TestApply(t *testing.T) {
	e := newEnv(t)
	p12, err := LoadPKCS12(e.files.P12, testpki.Password)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		opts  Options
		types []string
		dss   bool
	}{
		{"timestamp", Options{TimestampURL: e.pki.TSAURL()}, []string{"DocTimeStamp"}, false},
		{"b-b", Options{Signer: e.signer(t), Reason: "evidence (a) \\ b", Location: "Zürich"}, []string{"Sig"}, false},
		{"b-t", Options{Signer: e.signer(t), TimestampURL: e.pki.TSAURL()}, []string{"Sig"}, false},
		{"b-lta", Options{Signer: e.signer(t), TimestampURL: e.pki.TSAURL(), LTV: true}, []string{"Sig", "DocTimeStamp"}, true},
		{"p12-b-t", Options{Signer: p12, TimestampURL: e.pki.TSAURL()}, []string{"Sig"}, false},
		{"reserve-too-small", Options{Signer: e.signer(t), TimestampURL: e.pki.TSAURL(), Reserve: 500}, []string{"Sig"}, false},
		{"timestamp-ltv", Options{TimestampURL: e.pki.TSAURL(), LTV: true}, []string{"DocTimeStamp", "DocTimeStamp"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.pdf")
			res, err := Apply(context.Background(), e.in, out, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			file, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			orig, _ := os.ReadFile(e.in)
			if !bytes.HasPrefix(file, orig) {
				t.Fatal("the input's bytes are not kept")
			}
			e.checkSeals(t, file, tc.types...)
			if len(res.Seals) != len(tc.types) {
				t.Errorf("Result has %d seals, want %d", len(res.Seals), len(tc.types))
			}
			if (res.DSS != nil) != tc.dss {
				t.Errorf("Result.DSS = %v, want one: %v", res.DSS, tc.dss)
			}
			if tc.dss {
				if len(res.DSS.Certs) < 2 || len(res.DSS.OCSPs) < 1 {
					t.Errorf("DSS: %d certificates, %d OCSP responses, %d CRLs", len(res.DSS.Certs), len(res.DSS.OCSPs), len(res.DSS.CRLs))
				}
				if !bytes.Contains(file, []byte("/Type /DSS")) {
					t.Error("no /DSS in the file")
				}
			}
		})
	}
}

// TestRenew seals a B-LTA file twice more with a document timestamp: each
// earlier seal stays valid (pdfsig and openssl over its own range).
func TestRenew(t *testing.T) {
	e := newEnv(t)
	dir := t.TempDir()
	cur := filepath.Join(dir, "0.pdf")
	if _, err := Apply(context.Background(), e.in, cur, Options{Signer: e.signer(t), TimestampURL: e.pki.TSAURL(), LTV: true}); err != nil {
		t.Fatal(err)
	}
	types := []string{"Sig", "DocTimeStamp"}
	for i := 1; i <= 2; i++ {
		next := filepath.Join(dir, strconv.Itoa(i)+".pdf")
		if _, err := Apply(context.Background(), cur, next, Options{TimestampURL: e.pki.TSAURL(), LTV: true}); err != nil {
			t.Fatal(err)
		}
		types = append(types, "DocTimeStamp", "DocTimeStamp")
		file, _ := os.ReadFile(next)
		e.checkSeals(t, file, types...)
		cur = next
	}
}

// TestFailingTSA: a TSA that fails, in any way, fails the seal with
// ErrService, and nothing is written.
func TestFailingTSA(t *testing.T) {
	e := newEnv(t)
	never := make(chan struct{})
	t.Cleanup(func() { close(never) })
	for _, tc := range []struct {
		name string
		tsa  http.HandlerFunc
		want string
	}{
		{"500", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", 500) }, "HTTP status 500"},
		{"garbage", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("not a timestamp")) }, "not a granted timestamp"},
		{"rejection", func(w http.ResponseWriter, r *http.Request) {
			b, _ := timestampRejection()
			w.Write(b)
		}, "not a granted timestamp"},
		{"huge", func(w http.ResponseWriter, r *http.Request) {
			w.Write(bytes.Repeat([]byte{0x30}, maxTSAResponse+10))
		}, "larger than"},
		{"other-imprint", func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			q, err := timestamp.ParseRequest(b)
			if err != nil {
				http.Error(w, err.Error(), 400)
				return
			}
			other := sha256.Sum256([]byte("another document"))
			resp, _ := e.pki.Token(crypto.SHA256, other[:], q.Nonce, true, time.Now())
			w.Write(resp)
		}, "another digest"},
		{"never-ends", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte{0x30, 0x82})
			w.(http.Flusher).Flush()
			select {
			case <-never:
			case <-r.Context().Done():
			}
		}, "no complete answer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.pki.SetTSA(tc.tsa)
			defer e.pki.SetTSA(nil)
			out := filepath.Join(t.TempDir(), "out.pdf")
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			_, err := Apply(ctx, e.in, out, Options{Signer: e.signer(t), TimestampURL: e.pki.TSAURL(), Timeout: 300 * time.Millisecond})
			if !errors.Is(err, ErrService) || !regexp.MustCompile(tc.want).MatchString(err.Error()) {
				t.Fatalf("Apply = %v, want ErrService matching %q", err, tc.want)
			}
			if ents, _ := os.ReadDir(filepath.Dir(out)); len(ents) != 0 {
				t.Errorf("left %v", ents)
			}
		})
	}
}

func TestBytes(t *testing.T) {
	e := newEnv(t)
	orig, _ := os.ReadFile(e.in)
	file, res, err := Bytes(context.Background(), orig, "in.pdf", Options{Signer: e.signer(t), TimestampURL: e.pki.TSAURL()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Size != int64(len(file)) || res.Seals[0].Level != "B-T" || res.Seals[0].Time.IsZero() {
		t.Errorf("Result %+v", res)
	}
	e.checkSeals(t, file, "Sig")
}

func TestSignerErrors(t *testing.T) {
	e := newEnv(t)
	for _, tc := range []struct {
		name string
		load func() error
		want string
	}{
		{"wrong-password", func() error { _, err := LoadPKCS12(e.files.P12, "wrong"); return err }, "wrong password"},
		{"other-key", func() error { _, err := LoadPEM(e.files.Signer, e.files.Other); return err }, "not the key of the certificate"},
		{"key-as-cert", func() error { _, err := LoadPEM(e.files.Key, e.files.Key); return err }, "no PEM CERTIFICATE"},
		{"missing", func() error { _, err := LoadPEM(filepath.Join(e.dir, "nope.pem"), e.files.Key); return err }, "no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.load()
			if !errors.Is(err, ErrSigner) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want ErrSigner with %q", err, tc.want)
			}
		})
	}
}

func TestSameFile(t *testing.T) {
	e := newEnv(t)
	orig, _ := os.ReadFile(e.in)
	if _, err := Apply(context.Background(), e.in, e.in, Options{TimestampURL: e.pki.TSAURL()}); err == nil {
		t.Fatal("Apply(in, in) = nil")
	}
	if now, _ := os.ReadFile(e.in); !bytes.Equal(now, orig) || e.pki.Requests(testpki.TSAPath) != 0 {
		t.Error("the input changed, or the TSA was asked")
	}
}

func timestampRejection() ([]byte, error) {
	return timestamp.CreateErrorResponse(timestamp.Rejection, timestamp.BadRequest)
}

// TestCertified: a certified document is sealed when its DocMDP
// permission allows it: a document timestamp always, a signature with /P 2
// or 3; a signature of a /P 1 document is refused, nothing written.
func TestCertified(t *testing.T) {
	e := newEnv(t)
	for _, tc := range []struct {
		name string
		p    int
		sign bool
		ok   bool
	}{
		{"p1-timestamp", 1, false, true},
		{"p1-signature", 1, true, false},
		{"p2-signature", 2, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := Options{TimestampURL: e.pki.TSAURL()}
			if tc.sign {
				o.Signer = e.signer(t)
			}
			in := pdfbuild.Certified(tc.p)
			sealed, _, err := Bytes(context.Background(), in, "certified.pdf", o)
			var ce *pdfio.CertifiedError
			switch {
			case tc.ok && err != nil:
				t.Fatal(err)
			case !tc.ok && !errors.As(err, &ce):
				t.Fatalf("Bytes = %v, want a CertifiedError", err)
			case tc.ok && !bytes.HasPrefix(sealed, in):
				t.Error("the input's bytes are not kept")
			}
		})
	}
}

// TestLTV: the revocation data comes from OCSP, or from the CRL when the
// responder fails; a revoked signer, or no revocation data to be had,
// fails the seal, and nothing is written.
func TestLTV(t *testing.T) {
	e := newEnv(t)
	down := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) })
	for _, tc := range []struct {
		name        string
		ocsp, crl   http.Handler
		revoke      bool
		ocsps, crls int
		want        string // the error; "" for none
	}{
		{"ocsp", nil, nil, false, 2, 0, ""},
		{"crl-when-ocsp-down", down, nil, false, 0, 1, ""},
		{"both-down", down, down, false, 0, 0, "CRL server at .*: HTTP status 503"},
		{"revoked", nil, nil, true, 0, 0, `certificate "webcap test signer" was revoked .* \(OCSP`},
		{"revoked-crl", down, nil, true, 0, 0, `certificate "webcap test signer" was revoked .* \(CRL`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := testpki.New()
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			f, err := p.WriteFiles(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			s, err := LoadPEM(f.Chain, f.Key)
			if err != nil {
				t.Fatal(err)
			}
			p.SetHandler(testpki.OCSPPath, tc.ocsp)
			p.SetHandler(testpki.CRLPath, tc.crl)
			if tc.revoke {
				p.Revoke(p.Signer.SerialNumber, time.Now().Add(-time.Hour))
			}
			out := filepath.Join(t.TempDir(), "out.pdf")
			res, err := Apply(context.Background(), e.in, out, Options{Signer: s, TimestampURL: p.TSAURL(), LTV: true})
			if tc.want != "" {
				if err == nil || !regexp.MustCompile(tc.want).MatchString(err.Error()) {
					t.Fatalf("Apply = %v, want %q", err, tc.want)
				}
				if _, serr := os.Stat(out); serr == nil {
					t.Error("out.pdf written")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(res.DSS.OCSPs) != tc.ocsps || len(res.DSS.CRLs) != tc.crls {
				t.Errorf("DSS: %d OCSP responses, %d CRLs; want %d, %d", len(res.DSS.OCSPs), len(res.DSS.CRLs), tc.ocsps, tc.crls)
			}
		})
	}
}
