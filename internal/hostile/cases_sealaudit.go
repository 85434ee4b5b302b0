package hostile

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/digitorus/pkcs7"
	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/internal/testpki"
	"github.com/webcap/webcap/pdfio"
)

// The auditor checks seals (issue 28, item 7): a signature dictionary is
// read from a file anyone may have made, so its /Contents, its /ByteRange
// and the fields that reach it are hostile input. Each case is a capture
// with one signature field added by an incremental update; audit must
// give a clear finding, never crash, in bounded time and memory. Before,
// webcap read no seal: each file audited clean (exit 0), the seal unread.

// sealedCapture is pdfbuild.Web with an update that adds a signature
// field (object 20) whose /V is the signature dictionary sig (object 21),
// written as given, and extra objects (number → body), the catalog given
// /AcroForm << /Fields fields >>.
func sealedCapture(sig string, fields string, extra map[int]string) []byte {
	base := pdfbuild.Web(false)
	root := regexp.MustCompile(`/Root (\d+) 0 R`).FindSubmatch(base)
	num, _ := strconv.Atoi(string(root[1]))
	m := regexp.MustCompile(fmt.Sprintf(`(?s)\n%d 0 obj\s*<<(.*?)>>\s*endobj`, num)).FindSubmatch(base)
	prevXRef := string(regexp.MustCompile(`startxref\s+(\d+)`).FindAllSubmatch(base, -1)[0][1])
	objs := map[int]string{
		num: "<<" + string(m[1]) + "/AcroForm <</Fields " + fields + ">>>>",
		20:  "<</FT /Sig/T (Signature1)/V 21 0 R/Type /Annot/Subtype /Widget/Rect [0 0 0 0]>>",
		21:  sig,
	}
	for n, body := range extra {
		objs[n] = body
	}
	var b bytes.Buffer
	b.Write(base)
	if base[len(base)-1] != '\n' {
		b.WriteByte('\n')
	}
	offs := map[int]int{}
	nums := []int{}
	for n := range objs {
		nums = append(nums, n)
	}
	for i := range nums { // in number order
		for j := i + 1; j < len(nums); j++ {
			if nums[j] < nums[i] {
				nums[i], nums[j] = nums[j], nums[i]
			}
		}
	}
	size := 0
	for _, n := range nums {
		offs[n] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", n, objs[n])
		size = max(size, n+1)
	}
	xref := b.Len()
	b.WriteString("xref\n")
	for _, n := range nums {
		fmt.Fprintf(&b, "%d 1\n%010d 00000 n \n", n, offs[n])
	}
	fmt.Fprintf(&b, "trailer\n<</Size %d/Root %d 0 R/Prev %s>>\nstartxref\n%d\n%%%%EOF\n", size, num, prevXRef, xref)
	return b.Bytes()
}

// sigDict is a signature dictionary with the /ByteRange br and the
// /Contents hex string contents (its digits).
func sigDict(br, contents string) string {
	return "<</Type /Sig/Filter /Adobe.PPKLite/SubFilter /ETSI.CAdES.detached/ByteRange " + br + "/Contents <" + contents + ">/M (D:20261128120000Z)>>"
}

// placeholderRange is a /ByteRange that withRange fills in.
const placeholderRange = "[0 0000000000 0000000000 0000000000]"

// withRange writes the right /ByteRange over placeholderRange: the whole
// file but the signature's /Contents (leading zeros keep the width).
func withRange(b []byte) []byte {
	i := bytes.Index(b, []byte(placeholderRange))
	c := bytes.Index(b[i:], []byte("/Contents <")) + i + len("/Contents ")
	e := bytes.IndexByte(b[c:], '>') + c + 1
	r := fmt.Sprintf("[0 %010d %010d %010d]", c, e, len(b)-e)
	return bytes.Replace(b, []byte(placeholderRange), []byte(r), 1)
}

// sealSetup writes the capture make returns to seal.pdf and audits it.
func sealSetup(make func() []byte) func(dir string) ([]string, func(), error) {
	return func(dir string) ([]string, func(), error) {
		return []string{"audit", "seal.pdf"}, nil, os.WriteFile(filepath.Join(dir, "seal.pdf"), make(), 0o644)
	}
}

// hugeContents writes a capture whose signature's /Contents is 100 MB of
// hex, streamed to the file (not held twice in the test's memory).
func hugeContents(dir string) ([]string, func(), error) {
	const marker = "HUGECONTENTSHERE"
	b := sealedCapture(sigDict("[0 10 20 30]", marker), "[20 0 R]", nil)
	i := bytes.Index(b, []byte(marker))
	f, err := os.Create(filepath.Join(dir, "seal.pdf"))
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	// The offsets after the marker move by the hex's length: the update's
	// xref is written after it, so only its own offsets do; rewrite them.
	const n = 100 << 20
	before, after := b[:i], b[i+len(marker):]
	shift := n - len(marker)
	after = shiftOffsets(after, len(before), shift)
	if _, err := f.Write(before); err != nil {
		return nil, nil, err
	}
	chunk := bytes.Repeat([]byte("0123456789ABCDEF"), 1<<16)
	for w := 0; w < n; w += len(chunk) {
		if _, err := f.Write(chunk[:min(len(chunk), n-w)]); err != nil {
			return nil, nil, err
		}
	}
	if _, err := f.Write(after); err != nil {
		return nil, nil, err
	}
	return []string{"audit", "seal.pdf"}, nil, f.Close()
}

var xrefOffset = regexp.MustCompile(`(?m)^(\d{10}) 00000 n `)

// shiftOffsets adds shift to the xref entries and startxref in tail (what
// follows the point at from) that lie past from.
func shiftOffsets(tail []byte, from, shift int) []byte {
	out := xrefOffset.ReplaceAllFunc(tail, func(m []byte) []byte {
		off, _ := strconv.Atoi(string(m[:10]))
		if off > from {
			off += shift
		}
		return fmt.Appendf(nil, "%010d 00000 n ", off)
	})
	i := bytes.LastIndex(out, []byte("startxref\n"))
	rest := out[i+len("startxref\n"):]
	j := bytes.IndexByte(rest, '\n')
	off, _ := strconv.Atoi(string(rest[:j]))
	return append(append(bytes.Clone(out[:i+len("startxref\n")]), strconv.Itoa(off+shift)...), rest[j:]...)
}

func init() {
	const before = `exit 0, "seal.pdf: Well-Formed and valid", 0.03 s, 21 MB: the signature is not read`
	quick := func(c Case) Case {
		c.Part, c.MaxCPU, c.MaxRSS = Bounds, cpuQuick, rssQuick
		if c.Before == "" {
			c.Before = before
		}
		return c
	}
	randomDER := "3003020100"
	deep := strings.Repeat("3080", 200000)
	Register(
		Case{Name: "seal-contents-100mb", Part: Bounds, Setup: hugeContents, Exit: 1,
			Stdout: []string{`WC-SEAL-FORMAT.*more than a signature holds`}, MaxCPU: 20e9, MaxRSS: 1 << 30,
			Before: `exit 0, "seal.pdf: Well-Formed and valid", 1.1 s CPU, 889 MB: the signature is not read`},
		quick(Case{Name: "seal-byterange-past-eof", Setup: sealSetup(func() []byte {
			return sealedCapture(sigDict("[0 10 20 99999999999]", randomDER), "[20 0 R]", nil)
		}), Exit: 1, Stdout: []string{`WC-SEAL-RANGE.*past the end of the file|WC-SEAL-RANGE.*outside the file`}}),
		quick(Case{Name: "seal-byterange-negative", Setup: sealSetup(func() []byte {
			return sealedCapture(sigDict("[0 -5 20 30]", randomDER), "[20 0 R]", nil)
		}), Exit: 1, Stdout: []string{`WC-SEAL-RANGE.*outside the file`}}),
		quick(Case{Name: "seal-byterange-overlap", Setup: sealSetup(func() []byte {
			return sealedCapture(sigDict("[0 900 100 30]", randomDER), "[20 0 R]", nil)
		}), Exit: 1, Stdout: []string{`WC-SEAL-RANGE.*overlap`}}),
		quick(Case{Name: "seal-fields-kids-cycle", Setup: sealSetup(func() []byte {
			return sealedCapture(sigDict("[0 10 20 30]", randomDER), "[22 0 R]", map[int]string{
				22: "<</T (a)/Kids [23 0 R 20 0 R]>>", 23: "<</T (b)/Kids [22 0 R]>>"})
		}), Exit: 1, Stdout: []string{`WC-CYCLE.*reached again`, `WC-SEAL-`}}),
		quick(Case{Name: "seal-cms-random-der", Setup: sealSetup(func() []byte {
			return withRange(sealedCapture(sigDict(placeholderRange, randomDER), "[20 0 R]", nil))
		}), Exit: 1, Stdout: []string{`WC-SEAL-FORMAT.*no CMS signature`}, NotStdout: []string{`WC-SEAL-RANGE`}}),
		quick(Case{Name: "seal-cms-deep-nesting", Before: `exit 0, "seal.pdf: Well-Formed and valid", 0.05 s, 29 MB: the signature is not read (verifying it, before the depth bound: 151 MB)`, Setup: sealSetup(func() []byte {
			return withRange(sealedCapture(sigDict(placeholderRange, deep), "[20 0 R]", nil))
		}), Exit: 1, Stdout: []string{`WC-SEAL-FORMAT.*no CMS signature`}, NotStdout: []string{`WC-SEAL-RANGE`}}),
	)
}

// A capture signed with the test CA (internal/testpki), then tampered
// with: a byte under the seal changed, a page appended after it. audit
// (its workers, which get --trust) verifies the seal against the CA, and
// names what the tampering broke; info lists the seal.

// signedCapture is pdfbuild.Web signed by the test PKI's signer, and the
// PKI's CA written to CA.pem in dir.
func signedCapture(dir string) ([]byte, error) {
	p, err := testpki.New()
	if err != nil {
		return nil, err
	}
	defer p.Close()
	if err := os.WriteFile(filepath.Join(dir, "CA.pem"), testpki.CertPEM(p.CA), 0o644); err != nil {
		return nil, err
	}
	u, err := pdfio.NewUpdate(pdfbuild.Web(false), "in.pdf", pdfio.Options{})
	if err != nil {
		return nil, err
	}
	if err := u.AddSeal(pdfio.SealField{Type: pdfio.SealSig, Name: "Hostile Test", Size: 8192}); err != nil {
		return nil, err
	}
	return u.SealedBytes(func(covered io.Reader) ([]byte, error) {
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
	})
}

// signedSetup writes the signed capture, changed by change, to seal.pdf
// and runs webcap with args.
func signedSetup(change func([]byte) ([]byte, error), args ...string) func(dir string) ([]string, func(), error) {
	return func(dir string) ([]string, func(), error) {
		b, err := signedCapture(dir)
		if err == nil {
			b, err = change(b)
		}
		if err != nil {
			return nil, nil, err
		}
		return args, nil, os.WriteFile(filepath.Join(dir, "seal.pdf"), b, 0o644)
	}
}

func init() {
	same := func(b []byte) ([]byte, error) { return b, nil }
	flip := func(b []byte) ([]byte, error) {
		i := bytes.Index(b, []byte("stream\n"))
		b[i+len("stream\n")] ^= 1
		return b, nil
	}
	appendPage := func(b []byte) ([]byte, error) {
		u, err := pdfio.NewUpdate(b, "seal.pdf", pdfio.Options{})
		if err != nil {
			return nil, err
		}
		if _, _, err := u.AppendPages(pdfbuild.Web(false), "other.pdf"); err != nil {
			return nil, err
		}
		return u.Bytes()
	}
	// (with --trust, exit 2: "unknown flag --trust"; without it:)
	const clean = `exit 2: "unknown flag --trust"; without it exit 0, "seal.pdf: Well-Formed and valid": the seal is not verified`
	Register(
		Case{Name: "seal-verified-with-trust", Part: Inputs, Setup: signedSetup(same, "audit", "-v", "--trust", "CA.pem", "seal.pdf"),
			Exit: 0, Stdout: []string{`WC-SEAL-VERIFIED.*Hostile|WC-SEAL-VERIFIED.*trusted`}, NotStdout: []string{`WC-SEAL-UNTRUSTED`},
			MaxCPU: cpuQuick, MaxRSS: rssQuick, Before: `exit 2: "unknown flag --trust"`},
		Case{Name: "seal-tampered-stream-byte", Part: Inputs, Setup: signedSetup(flip, "audit", "--trust", "CA.pem", "seal.pdf"),
			Exit: 1, Stdout: []string{`WC-SEAL-DIGEST.*the signed bytes were changed`},
			MaxCPU: cpuQuick, MaxRSS: rssQuick, Before: clean},
		Case{Name: "seal-page-appended-after", Part: Inputs, Setup: signedSetup(appendPage, "audit", "--trust", "CA.pem", "seal.pdf"),
			Exit: 1, Stdout: []string{`WC-SEAL-AFTER.*pages 4, 5, 6`}, NotStdout: []string{`WC-SEAL-DIGEST`},
			MaxCPU: cpuQuick, MaxRSS: rssQuick, Before: clean},
		Case{Name: "seal-info-lists", Part: Inputs, Setup: signedSetup(same, "info", "seal.pdf"),
			Exit: 0, Stdout: []string{`^seals: 1`, `signature "Signature1" \(ETSI\.CAdES\.detached\): CN=`},
			MaxCPU: cpuQuick, MaxRSS: rssQuick, Before: `exit 0: "0 content sets ... 3 pages", no seal listed`},
	)
}
