package seal

import (
	"bytes"
	"crypto"
	"crypto/sha1"
	"crypto/sha256"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/digitorus/pkcs7"
	"github.com/digitorus/timestamp"
	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/internal/sharedtest"
	"github.com/webcap/webcap/internal/testpki"
	"github.com/webcap/webcap/pdfio"
)

// The oracle is openssl (cms -verify, ts -verify) and pdfsig: on a file
// signed with the test CA, on one with a byte of a stream changed, and on
// one with a page appended after the seal, Verify's verdict is theirs,
// and where the seal still verifies it does not cover what was added.

func newPKI(t *testing.T) (*testpki.PKI, testpki.Files) {
	t.Helper()
	p, err := testpki.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	files, err := p.WriteFiles(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return p, files
}

func cmsSigner(p *testpki.PKI) pdfio.SealSign {
	return func(covered io.Reader) ([]byte, error) {
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
}

func tsaSigner(p *testpki.PKI) pdfio.SealSign {
	return func(covered io.Reader) ([]byte, error) {
		h := sha256.New()
		if _, err := io.Copy(h, covered); err != nil {
			return nil, err
		}
		resp, err := p.Token(crypto.SHA256, h.Sum(nil), nil, true, time.Now())
		if err != nil {
			return nil, err
		}
		ts, err := timestamp.ParseResponse(resp)
		if err != nil {
			return nil, err
		}
		return ts.RawToken, nil
	}
}

func addSeal(t *testing.T, b []byte, typ string, sign pdfio.SealSign) []byte {
	t.Helper()
	u, err := pdfio.NewUpdate(b, "in.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := u.AddSeal(pdfio.SealField{Type: typ, Name: "Test", Size: 8192}); err != nil {
		t.Fatal(err)
	}
	out, err := u.SealedBytes(sign)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func appendPage(t *testing.T, b []byte) []byte {
	t.Helper()
	u, err := pdfio.NewUpdate(b, "in.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := u.AppendPages(pdfbuild.Web(false), "other.pdf"); err != nil {
		t.Fatal(err)
	}
	out, err := u.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// flipStream changes the first byte of the first stream's data (covered
// by every seal).
func flipStream(b []byte) []byte {
	out := bytes.Clone(b)
	i := bytes.Index(out, []byte("stream\n"))
	out[i+len("stream\n")] ^= 0x01
	return out
}

// verify reads file and verifies its seals with the test CA as anchor.
func verify(t *testing.T, file []byte, p *testpki.PKI) (*pdfio.Document, []*Verdict) {
	t.Helper()
	d, err := pdfio.ReadBytes(file, "test.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return d, Verify(bytes.NewReader(file), int64(len(file)), d, VerifyOptions{Trust: p.Pool()})
}

// opensslVerifies runs openssl on the seal s of file: cms -verify for a
// signature, ts -verify for a document timestamp, over the bytes ranges
// says (the seal's /ByteRange, or another to ask whether it covers more).
func opensslVerifies(t *testing.T, file []byte, s *pdfio.Seal, ranges []int64, f testpki.Files) (bool, string) {
	t.Helper()
	dir := t.TempDir()
	var data []byte
	data = append(data, file[ranges[0]:ranges[0]+ranges[1]]...)
	data = append(data, file[ranges[2]:ranges[2]+ranges[3]]...)
	content, sig := filepath.Join(dir, "content.bin"), filepath.Join(dir, "sig.der")
	if err := os.WriteFile(content, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sig, s.Contents, 0o600); err != nil {
		t.Fatal(err)
	}
	var cmd *exec.Cmd
	if s.SubFilter == "ETSI.RFC3161" {
		cmd = exec.Command("openssl", "ts", "-verify", "-data", content, "-in", sig, "-token_in", "-CAfile", f.CA, "-untrusted", f.TSA)
	} else {
		cmd = exec.Command("openssl", "cms", "-verify", "-binary", "-inform", "DER", "-in", sig, "-content", content,
			"-CAfile", f.CA, "-purpose", "any", "-out", os.DevNull)
	}
	out, err := cmd.CombinedOutput()
	return err == nil, string(out)
}

func TestVerifyAgreesWithOpenSSL(t *testing.T) {
	if _, err := exec.LookPath("openssl"); err != nil {
		t.Skip("no openssl")
	}
	p, files := newPKI(t)
	base := pdfbuild.Web(false)
	signed := addSeal(t, base, pdfio.SealSig, cmsSigner(p))
	stamped := addSeal(t, signed, pdfio.SealDocTimeStamp, tsaSigner(p))
	for _, tc := range []struct {
		name     string
		file     []byte
		verified bool // every seal verifies
		added    bool // bytes after the last seal's range
	}{
		{"signed", signed, true, false},
		{"signed and timestamped", stamped, true, false},
		{"a stream byte changed", flipStream(signed), false, false},
		{"a stream byte changed under two seals", flipStream(stamped), false, false},
		{"a page appended after the seal", appendPage(t, signed), true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, vs := verify(t, tc.file, p)
			if len(vs) == 0 {
				t.Fatal("no seal read")
			}
			for _, v := range vs {
				ok, out := opensslVerifies(t, tc.file, v.Seal, v.Seal.ByteRange, files)
				if v.Verified() != ok || ok != tc.verified {
					t.Errorf("%s: Verified() = %v %v, openssl verifies: %v, want %v\n%s", v.Kind, v.Verified(), v.Problems, ok, tc.verified, out)
				}
				if ok && !v.Trusted {
					t.Errorf("%s: not trusted with the test CA: %v", v.Kind, v.Problems)
				}
			}
			last := vs[len(vs)-1].Seal
			end := last.ByteRange[2] + last.ByteRange[3]
			if got := end < int64(len(tc.file)); got != tc.added {
				t.Errorf("bytes after the last seal: %v, want %v", got, tc.added)
			}
			if tc.added {
				// Over the whole file but /Contents, openssl says the seal
				// does not cover what was appended.
				whole := []int64{0, last.ContentsAt, last.ContentsAt + last.ContentsLen, int64(len(tc.file)) - last.ContentsAt - last.ContentsLen}
				if ok, _ := opensslVerifies(t, tc.file, last, whole, files); ok {
					t.Error("openssl verifies the seal over the appended bytes")
				}
				if n := len(d.Revisions); vs[len(vs)-1].Revision != n-2 {
					t.Errorf("the seal covers revision %d of %d, want the one before the last", vs[len(vs)-1].Revision, n)
				}
			}
		})
	}
}

func TestVerifyAgreesWithPdfsig(t *testing.T) {
	if _, err := exec.LookPath("pdfsig"); err != nil {
		t.Skip("no pdfsig")
	}
	p, _ := newPKI(t)
	signed := addSeal(t, pdfbuild.Web(false), pdfio.SealSig, cmsSigner(p))
	for _, tc := range []struct {
		name  string
		file  []byte
		valid bool
	}{
		{"signed", signed, true},
		{"a stream byte changed", flipStream(signed), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "f.pdf")
			if err := os.WriteFile(path, tc.file, 0o600); err != nil {
				t.Fatal(err)
			}
			out, _ := exec.Command("pdfsig", path).CombinedOutput()
			valid := strings.Contains(string(out), "Signature is Valid")
			_, vs := verify(t, tc.file, p)
			if valid != tc.valid || vs[0].Verified() != valid {
				t.Errorf("pdfsig valid: %v, Verified(): %v, want %v\n%s", valid, vs[0].Verified(), tc.valid, out)
			}
		})
	}
}

// Malformed seals are problems, never a panic: random DER, nesting
// deeper than a parser goes, a range past the end of the file, negative,
// overlapping.
func TestVerifyMalformed(t *testing.T) {
	p, _ := newPKI(t)
	signed := addSeal(t, pdfbuild.Web(false), pdfio.SealSig, cmsSigner(p))
	deep := bytes.Repeat([]byte{0x30, 0x80}, 100000)
	for _, tc := range []struct {
		name     string
		contents []byte
		br       []int64
		want     Check
	}{
		{"random DER", []byte{0x30, 0x03, 0x02, 0x01, 0x00}, nil, CheckFormat},
		{"deep nesting", deep, nil, CheckFormat},
		{"not DER at all", []byte("hello"), nil, CheckFormat},
		{"range past EOF", nil, []int64{0, 10, 20, 1 << 40}, CheckRange},
		{"negative range", nil, []int64{0, -5, 20, 30}, CheckRange},
		{"overlapping ranges", nil, []int64{0, 100, 50, 30}, CheckRange},
		{"three numbers", nil, []int64{0, 100, 50}, CheckRange},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := pdfio.ReadBytes(signed, "test.pdf", pdfio.Options{})
			if err != nil {
				t.Fatal(err)
			}
			s := *d.Seals[0]
			if tc.contents != nil {
				s.Contents = tc.contents
			}
			if tc.br != nil {
				s.ByteRange = tc.br
			}
			d.Seals = []*pdfio.Seal{&s}
			vs := Verify(bytes.NewReader(signed), int64(len(signed)), d, VerifyOptions{Trust: p.Pool()})
			if len(vs) != 1 || vs[0].Verified() {
				t.Fatalf("verdicts %+v, want one that does not verify", vs)
			}
			found := false
			for _, pr := range vs[0].Problems {
				found = found || pr.Check == tc.want
			}
			if !found {
				t.Errorf("problems %v, want a %s problem", vs[0].Problems, tc.want)
			}
		})
	}
}

// The signed files of ../shared/realworld verify (no --trust: untrusted),
// but for the one whose last update fills a form field after signing,
// which is not a seal's problem (audit's WC-SEAL-AFTER).
func TestVerifyRealWorld(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(sharedtest.Dir(t, "realworld"), "*.pdf"))
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		d, err := pdfio.ReadBytes(b, f, pdfio.Options{})
		if err != nil {
			continue
		}
		for _, v := range Verify(bytes.NewReader(b), int64(len(b)), d, VerifyOptions{}) {
			n++
			if !v.Verified() {
				t.Errorf("%s: %s does not verify: %v", filepath.Base(f), v.Kind, v.Problems)
			}
		}
	}
	if len(files) > 0 && n == 0 {
		t.Error("no seal in the real files")
	}
}

// adbe.pkcs7.sha1 (ISO 32000-1 §12.8.3.3.1): the signature's content is
// the SHA-1 of the covered bytes; it verifies, and not once a covered
// byte changed.
func TestVerifyPKCS7SHA1(t *testing.T) {
	p, _ := newPKI(t)
	u, err := pdfio.NewUpdate(pdfbuild.Web(false), "in.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := u.AddSeal(pdfio.SealField{Type: pdfio.SealSig, SubFilter: "adbe.pkcs7.sha1", Size: 8192}); err != nil {
		t.Fatal(err)
	}
	signed, err := u.SealedBytes(func(covered io.Reader) ([]byte, error) {
		h := sha1.New()
		if _, err := io.Copy(h, covered); err != nil {
			return nil, err
		}
		sd, err := pkcs7.NewSignedData(h.Sum(nil))
		if err != nil {
			return nil, err
		}
		if err := sd.AddSigner(p.Signer, p.SignerKey, pkcs7.SignerInfoConfig{}); err != nil {
			return nil, err
		}
		return sd.Finish()
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		file []byte
		want bool
	}{{"signed", signed, true}, {"a stream byte changed", flipStream(signed), false}} {
		_, vs := verify(t, tc.file, p)
		if len(vs) != 1 || vs[0].Verified() != tc.want || vs[0].Seal.SubFilter != "adbe.pkcs7.sha1" {
			t.Errorf("%s: verdicts %+v, want one that verifies: %v", tc.name, vs[0], tc.want)
		}
	}
}
