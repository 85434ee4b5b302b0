package audit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/internal/pdfcheck"
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

func signed(b []byte) []byte { return sealed(b, pdfio.SealSig, testPKI().CMSSign) }

// appendPage adds, as an update, a page copied from another file.
func appendPage(b []byte) []byte {
	out, err := pdfcheck.AppendPage(b)
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
		{"timestamped", sealed(base, pdfio.SealDocTimeStamp, testPKI().TokenSign(time.Now())), nil},
		{"signed then timestamped", sealed(signed(base), pdfio.SealDocTimeStamp, testPKI().TokenSign(time.Now())), nil},
		{"a byte of a stream changed", pdfcheck.FlipStream(signed(base)), []string{"WC-SEAL-DIGEST"}},
		{"a page appended after the seal", appendPage(signed(base)), []string{"WC-SEAL-AFTER"}},
		{"the range ten bytes short", shortRange(signed(base)), []string{"WC-SEAL-RANGE", "WC-SEAL-DIGEST"}},
		{"a later timestamp dated before the signature", sealed(signed(base), pdfio.SealDocTimeStamp, testPKI().TokenSign(time.Now().Add(-time.Hour))), []string{"WC-SEAL-TIME"}},
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

// Files of other tools (testdata/seals) and what WC-SEAL-AFTER says of
// them: an unreferenced object is no change; a field taken out of
// /AcroForm /Fields after the last seal is, and so is its seal.
func TestSealAfterVendored(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string // a WC-SEAL-AFTER message matching each; none when empty
	}{
		{"pdfcpu__testPAdES_BLT.pdf", nil},
		{"dss__pdf-spoofing-attack.pdf", []string{
			`error: .*37 0 R \(AcroForm; update 2 takes the signature field "Sig1" \(52 0 R\) out of /Fields\)`,
			`error: the signature "Sig1" is no longer in the form: update 2 \(bytes 133434 to 200519\)`,
		}},
		// The update after the seal changes the Info dictionary only
		// (/Author): named, a warning.
		{"pyhanko__tail-uncovered.pdf", []string{`warning: 1 update\(s\) after the signature "Sig1" .* changed only the document's metadata, which no seal covers: the document information 2 0 R`}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", "seals", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			d, err := pdfio.ReadBytes(b, tc.file, pdfio.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range Check(d, Options{File: bytes.NewReader(b), FileSize: int64(len(b))}) {
				if f.Rule == "WC-SEAL-AFTER" {
					got = append(got, fmt.Sprintf("%s: %s", f.Severity, f.Message))
				}
			}
			if len(tc.want) == 0 && len(got) > 0 {
				t.Errorf("WC-SEAL-AFTER %q, want none", got)
			}
			for _, w := range tc.want {
				if !regexp.MustCompile(w).MatchString(strings.Join(got, "\n")) {
					t.Errorf("no WC-SEAL-AFTER says %s: %q", w, got)
				}
			}
		})
	}
}
