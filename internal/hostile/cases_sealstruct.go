package hostile

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
)

// What an update after a seal does to the form and the file's structure
// (issue 28, the seal oracle's disagreements): a signature field taken
// out of /AcroForm /Fields (DSS's spoofing attack), an object nothing
// refers to (pdfcpu's B-LT sample), the Info dictionary rewritten
// (pyHanko's tail-uncovered). The test CA's signed capture, then an update
// written by hand.

// appendUpdate appends to b an update that writes objs (number → body),
// with a cross-reference table whose trailer's /Prev is prev, or the last
// startxref when prev < 0.
func appendUpdate(b []byte, objs map[int]string, prev int) []byte {
	root := regexp.MustCompile(`/Root (\d+) 0 R`).FindAllSubmatch(b, -1)
	sizes := regexp.MustCompile(`/Size (\d+)`).FindAllSubmatch(b, -1)
	xrefs := regexp.MustCompile(`startxref\s+(\d+)`).FindAllSubmatch(b, -1)
	size, _ := strconv.Atoi(string(sizes[len(sizes)-1][1]))
	if prev < 0 {
		prev, _ = strconv.Atoi(string(xrefs[len(xrefs)-1][1]))
	}
	var nums []int
	for n := range objs {
		nums = append(nums, n)
		size = max(size, n+1)
	}
	slices.Sort(nums)
	out := bytes.NewBuffer(bytes.Clone(b))
	offs := map[int]int{}
	for _, n := range nums {
		offs[n] = out.Len()
		fmt.Fprintf(out, "%d 0 obj\n%s\nendobj\n", n, objs[n])
	}
	xref := out.Len()
	out.WriteString("xref\n")
	for _, n := range nums {
		fmt.Fprintf(out, "%d 1\n%010d 00000 n \n", n, offs[n])
	}
	fmt.Fprintf(out, "trailer\n<</Size %d/Root %s 0 R/Prev %d>>\nstartxref\n%d\n%%%%EOF\n", size, root[len(root)-1][1], prev, xref)
	return out.Bytes()
}

// updated is a change for signedSetup: an update writing objs.
func updated(objs map[int]string, prev int) func([]byte) ([]byte, error) {
	return func(b []byte) ([]byte, error) { return appendUpdate(b, objs, prev), nil }
}

// numberOf is the number of the object the last "key N 0 R" in b names
// (the signed capture's /AcroForm, its /Info).
func numberOf(b []byte, key string) int {
	m := regexp.MustCompile(key+` (\d+) 0 R`).FindAllSubmatch(b, -1)
	n, _ := strconv.Atoi(string(m[len(m)-1][1]))
	return n
}

func init() {
	trust := []string{"audit", "--trust", "CA.pem", "seal.pdf"}
	withForm := func(f func(acroForm, info int) map[int]string, prev int) func([]byte) ([]byte, error) {
		return func(b []byte) ([]byte, error) {
			return appendUpdate(b, f(numberOf(b, "/AcroForm"), numberOf(b, "/Info")), prev), nil
		}
	}
	Register(
		Case{Name: "seal-field-taken-out", Part: Inputs, Setup: signedSetup(withForm(func(af, _ int) map[int]string {
			return map[int]string{af: "<</Fields []/SigFlags 3>>"}
		}, -1), trust...),
			Exit: 1, Stdout: []string{`WC-SEAL-AFTER.*the signature "Signature1" is no longer in the form: update \d+`, `WC-SEAL-AFTER.*\(AcroForm; update \d+ takes the signature field "Signature1"`},
			MaxCPU: cpuQuick, MaxRSS: rssQuick, Before: `/work/webcap-old: exit 0, "seal.pdf: Well-Formed and valid", 0.04 s, 21 MB (no seal read); main at d822257 (--trust): exit 0, valid, the signature not even listed (its field is out of /Fields)`},
		Case{Name: "seal-unreferenced-after", Part: Inputs, Setup: signedSetup(updated(map[int]string{500: "<</Producer ()/CreationDate (D:20261128120000Z)>>"}, -1), trust...),
			Exit: 0, Stdout: []string{`WC-SEAL-VERIFIED`}, NotStdout: []string{`WC-SEAL-AFTER`},
			MaxCPU: cpuQuick, MaxRSS: rssQuick, Before: `/work/webcap-old: exit 0, valid, 0.03 s, 21 MB (no seal read); main at d822257: exit 1, "WC-SEAL-AFTER ... changed what no seal covers: 500 0 R (object)"`},
		Case{Name: "seal-info-after", Part: Inputs, Setup: signedSetup(withForm(func(_, info int) map[int]string {
			return map[int]string{info: "<</Author (Mallory)/Producer (webcap)>>"}
		}, -1), append([]string{"audit", "-v"}, trust[1:]...)...),
			Exit: 0, Stdout: []string{`warning WC-SEAL-AFTER.*changed only the document's metadata, which no seal covers: the document information \d+ 0 R`},
			MaxCPU: cpuQuick, MaxRSS: rssQuick, Before: `/work/webcap-old: exit 0, valid, 0.03 s, 21 MB (no seal read); main at d822257: exit 0, the Info change not named`},
	)
}
