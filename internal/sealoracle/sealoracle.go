// Package sealoracle asks tools that are not webcap's code whether a PDF's
// seals verify: openssl (cms -verify for a CMS signature, ts -verify for an
// RFC 3161 token, a document timestamp's or a signature timestamp's over
// the signature value) and pdfsig; and qpdf whether the sealed file is
// sound. The tests of package seal and of the
// CLI use it on what webcap writes and on files it tampered with. It takes
// the seal's parts (the covered bytes, the DER) as the test found them.
package sealoracle

import (
	"encoding/asn1"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/digitorus/pkcs7"
)

// ErrNoTool: openssl, pdfsig or qpdf is not installed.
var ErrNoTool = errors.New("not installed")

// Covered is what a /ByteRange [a b c d] covers of file: nil when it
// reaches outside the file.
func Covered(file []byte, br []int64) []byte {
	if len(br) != 4 {
		return nil
	}
	var out []byte
	for i := 0; i < 4; i += 2 {
		off, n := br[i], br[i+1]
		if off < 0 || n < 0 || off > int64(len(file)) || n > int64(len(file))-off {
			return nil
		}
		out = append(out, file[off:off+n]...)
	}
	return out
}

// A Verdict is openssl's: OK, and what it said.
type Verdict struct {
	OK  bool
	Out string
}

// CMS is `openssl cms -verify -binary -inform DER -content DATA -CAfile CA
// -purpose any` on the detached signature der over data.
func CMS(data, der []byte, ca string) (Verdict, error) {
	return run("openssl", map[string][]byte{"data": data, "sig.der": der}, "Verification successful",
		"cms", "-verify", "-binary", "-inform", "DER", "-in", "sig.der", "-content", "data", "-CAfile", ca, "-purpose", "any", "-out", os.DevNull)
}

// Token is `openssl ts -verify -data DATA -in TOKEN -token_in -CAfile CA
// -untrusted TSA` on the RFC 3161 token over data (tsa: the TSA's
// certificate, when the token may not carry it; "" for none).
func Token(data, token []byte, ca, tsa string) (Verdict, error) {
	args := []string{"ts", "-verify", "-data", "data", "-in", "token.der", "-token_in", "-CAfile", ca}
	if tsa != "" {
		args = append(args, "-untrusted", tsa)
	}
	return run("openssl", map[string][]byte{"data": data, "token.der": token}, "Verification: OK", args...)
}

// Seal asks openssl about a PDF seal over data: Token when its /SubFilter
// is ETSI.RFC3161 (a document timestamp), CMS otherwise (a signature).
func Seal(data, der []byte, subFilter, ca, tsa string) (Verdict, error) {
	if subFilter == "ETSI.RFC3161" {
		return Token(data, der, ca, tsa)
	}
	return CMS(data, der, ca)
}

// oidSignatureTimeStampToken is id-aa-signatureTimeStampToken (RFC 3161
// appendix A), the unsigned attribute of a PAdES B-T signature.
var oidSignatureTimeStampToken = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 2, 14}

// SignatureTimestamp is the signature timestamp token of the CMS
// signature der (its single signer's) and the signature value it covers;
// nil, nil when it has none.
func SignatureTimestamp(der []byte) (token, value []byte, err error) {
	p7, err := pkcs7.Parse(der)
	if err != nil {
		return nil, nil, err
	}
	if len(p7.Signers) != 1 {
		return nil, nil, fmt.Errorf("%d signers, want 1", len(p7.Signers))
	}
	si := p7.Signers[0]
	for _, a := range si.UnauthenticatedAttributes {
		if a.Type.Equal(oidSignatureTimeStampToken) {
			return a.Value.Bytes, si.EncryptedDigest, nil
		}
	}
	return nil, nil, nil
}

// Pdfsig runs pdfsig on the file at path: how many signatures it says are
// valid, and what it said.
func Pdfsig(path string) (valid int, out string, err error) {
	bin, err := exec.LookPath("pdfsig")
	if err != nil {
		return 0, "", fmt.Errorf("pdfsig: %w", ErrNoTool)
	}
	b, _ := exec.Command(bin, path).CombinedOutput() // (it exits non-zero for an invalid signature)
	out = string(b)
	return strings.Count(out, "Signature Validation: Signature is Valid."), out, nil
}

// QPDFCheck is `qpdf --check` on file: OK when it finds no syntax or
// stream encoding errors.
func QPDFCheck(file []byte) (Verdict, error) {
	return run("qpdf", map[string][]byte{"f.pdf": file}, "No syntax or stream encoding errors", "--check", "f.pdf")
}

// run runs tool in a directory of its own, files written there first; OK
// when it exits 0 and says want.
func run(tool string, files map[string][]byte, want string, args ...string) (Verdict, error) {
	bin, err := exec.LookPath(tool)
	if err != nil {
		return Verdict{}, fmt.Errorf("%s: %w", tool, ErrNoTool)
	}
	dir, err := os.MkdirTemp("", "sealoracle")
	if err != nil {
		return Verdict{}, err
	}
	defer os.RemoveAll(dir)
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			return Verdict{}, err
		}
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return Verdict{OK: err == nil && strings.Contains(string(out), want), Out: tool + " " + strings.Join(args, " ") + ": " + string(out)}, nil
}
