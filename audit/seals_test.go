package audit

import (
	"bytes"
	"crypto"
	"crypto/sha256"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/digitorus/pkcs7"
	"github.com/digitorus/timestamp"
	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/internal/testpki"
	"github.com/webcap/webcap/pdfio"
)

// The seal rules' files: the spec's file signed with the test CA's signer
// (or timestamped by its TSA), then changed.

var (
	pkiOnce sync.Once
	pki     *testpki.PKI
	pkiErr  error
)

// testPKI is the test CA, made once for the package's tests (its server
// is not used: the tokens are made in the process).
func testPKI() *testpki.PKI {
	pkiOnce.Do(func() { pki, pkiErr = testpki.New() })
	if pkiErr != nil {
		panic(pkiErr)
	}
	return pki
}

// cmsSign signs the covered bytes: a detached CMS signature by the test
// signer.
func cmsSign(covered io.Reader) ([]byte, error) {
	data, err := io.ReadAll(covered)
	if err != nil {
		return nil, err
	}
	p := testPKI()
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

// tokenAt returns a document timestamp's signer: a token dated at over
// the SHA-256 of the covered bytes.
func tokenAt(at time.Time) pdfio.SealSign {
	return func(covered io.Reader) ([]byte, error) {
		h := sha256.New()
		if _, err := io.Copy(h, covered); err != nil {
			return nil, err
		}
		resp, err := testPKI().Token(crypto.SHA256, h.Sum(nil), nil, true, at)
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

// sealed adds a seal of type typ to b, its /Contents made by sign.
func sealed(b []byte, typ string, sign pdfio.SealSign) []byte {
	u, err := pdfio.NewUpdate(b, "test.pdf", pdfio.Options{})
	if err != nil {
		panic(err)
	}
	if err := u.AddSeal(pdfio.SealField{Type: typ, Name: "Test Signer", M: time.Date(2026, 11, 28, 16, 0, 0, 0, time.UTC), Size: 8192}); err != nil {
		panic(err)
	}
	out, err := u.SealedBytes(sign)
	if err != nil {
		panic(err)
	}
	return out
}

func signed(b []byte) []byte { return sealed(b, pdfio.SealSig, cmsSign) }

// appendPage adds, as an update, a page copied from another file.
func appendPage(b []byte) []byte {
	u, err := pdfio.NewUpdate(b, "test.pdf", pdfio.Options{AllowCertified: true})
	if err != nil {
		panic(err)
	}
	if _, _, err := u.AppendPages(pdfbuild.Web(false), "other.pdf"); err != nil {
		panic(err)
	}
	out, err := u.Bytes()
	if err != nil {
		panic(err)
	}
	return out
}

var byteRangeRE = regexp.MustCompile(`/ByteRange \[0 (\d+) (\d+) (\d+) *\]`)

// shortRange makes the last seal's /ByteRange end ten bytes early (inside
// its revision, before %%EOF), its width kept.
func shortRange(b []byte) []byte {
	ms := byteRangeRE.FindAllSubmatchIndex(b, -1)
	m := ms[len(ms)-1]
	n, _ := strconv.Atoi(string(b[m[6]:m[7]]))
	out := bytes.Clone(b)
	s := strconv.Itoa(n - 10)
	copy(out[m[6]:m[7]], fmt.Sprintf("%*s", m[7]-m[6], s))
	return out
}

// flipCovered changes one byte inside the first signed range: the first
// byte of the first stream's data.
func flipCovered(b []byte) []byte {
	out := bytes.Clone(b)
	i := bytes.Index(out, []byte("stream\n"))
	out[i+len("stream\n")] ^= 0x01
	return out
}

// withLength writes the file's length where certify's placeholder
// 1073741824 is (ten digits: the offsets stay).
func withLength(b []byte) []byte {
	return bytes.Replace(b, []byte("1073741823"), fmt.Appendf(nil, "%010d", len(b)-1), 1)
}

func TestSealTamper(t *testing.T) {
	base := pdfbuild.Web(false)
	for _, tc := range []struct {
		name string
		file []byte
		want []string // the errors, exactly
	}{
		{"signed", signed(base), nil},
		{"timestamped", sealed(base, pdfio.SealDocTimeStamp, tokenAt(time.Now())), nil},
		{"signed then timestamped", sealed(signed(base), pdfio.SealDocTimeStamp, tokenAt(time.Now())), nil},
		{"a byte of a stream changed", flipCovered(signed(base)), []string{"WC-SEAL-DIGEST"}},
		{"a page appended after the seal", appendPage(signed(base)), []string{"WC-SEAL-AFTER"}},
		{"the range ten bytes short", shortRange(signed(base)), []string{"WC-SEAL-RANGE", "WC-SEAL-DIGEST"}},
		{"a later timestamp dated before the signature", sealed(signed(base), pdfio.SealDocTimeStamp, tokenAt(time.Now().Add(-time.Hour))), []string{"WC-SEAL-TIME"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := pdfio.ReadBytes(tc.file, "test.pdf", pdfio.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			verified := 0
			for _, f := range Check(d, Options{File: bytes.NewReader(tc.file), FileSize: int64(len(tc.file)), Trust: testPKI().Pool()}) {
				switch {
				case f.Severity == Serious:
					got = append(got, f.Rule)
					t.Logf("%s: %s", f.Rule, f.Message)
				case f.Rule == "WC-SEAL-VERIFIED":
					verified++
				case f.Rule == "WC-SEAL-UNTRUSTED":
					t.Errorf("untrusted with the test CA as anchor: %s", f.Message)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("errors %v, want %v", got, tc.want)
			}
			if tc.want == nil && verified == 0 {
				t.Errorf("no seal verified")
			}
		})
	}
}
