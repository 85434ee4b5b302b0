package record

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/internal/pdfbuild"
)

// BenchmarkBuild20k builds a 20,000-page-set manifest (one text source
// file per page) into the generated 20,000-page PDF: manifest checks,
// identifiers, URLS keys, the update with both trees. Compare with
// pdfio's BenchmarkParsePlain20k (pdfcpu's parse of the same file; the
// target is at most 1.5x).
func BenchmarkBuild20k(b *testing.B) {
	const n = 20000
	dir := b.TempDir()
	in := filepath.Join(dir, "big.pdf")
	if err := os.WriteFile(in, pdfbuild.BigPlain(n), 0o644); err != nil {
		b.Fatal(err)
	}
	m := &Manifest{name: "big.json", dir: dir, Input: in}
	for i := 0; i < n; i++ {
		src := filepath.Join(dir, fmt.Sprintf("p%06d.txt", i))
		if err := os.WriteFile(src, []byte(fmt.Sprintf("page %d of the capture\n", i)), 0o644); err != nil {
			b.Fatal(err)
		}
		m.PageSets = append(m.PageSets, PageSet{Pages: fmt.Sprint(i + 1), URL: fmt.Sprintf("http://www.example.com/p%06d.txt", i),
			Source: src, ContentType: "text/plain", Captured: "2026-11-21T10:30:00Z"})
	}
	if err := m.validate(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var added int
	for b.Loop() {
		res, err := Apply(m, Options{})
		if err != nil {
			b.Fatal(err)
		}
		added = res.Appended
	}
	b.ReportMetric(float64(added)/(1<<20), "added-MB")
}

// BenchmarkBuildCase10k is "webcap build" on internal/pdfbuild's generated
// case (bench/cmd/genbuild -sets 10000): 10,000 page sets from HTML and
// text pages in a wget mirror, with redirects, commands and eight image
// sets, into a 10,000-page PDF, then the read back and the audit of the
// result that build does. The whole-process comparison with pdfcpu's
// ReadContext of the input is bench/build.sh.
func BenchmarkBuildCase10k(b *testing.B) {
	path, data := buildCase(b, 10000)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		m, err := ParseManifest(bytes.NewReader(data), path)
		if err != nil {
			b.Fatal(err)
		}
		res, err := Apply(m, Options{ReadBack: true})
		if err != nil {
			b.Fatal(err)
		}
		d, err := res.Read("out.pdf")
		if err != nil {
			b.Fatal(err)
		}
		if fs := audit.Check(d, audit.Options{Profile: res.Profile}); audit.Summarize(fs).Count(audit.Serious) > 0 {
			b.Fatalf("the result has audit errors: %v", fs)
		}
	}
}

// BenchmarkParseManifest10k parses BenchmarkBuildCase10k's manifest
// (10,000 page sets, 3.2 MB): fast, as ParseManifest does (decodeKnown
// and structSure), and the whole way (encoding/json, the generic decode,
// exactNames and the schema).
func BenchmarkParseManifest10k(b *testing.B) {
	path, data := buildCase(b, 10000)
	for _, fast := range []bool{true, false} {
		b.Run(map[bool]string{true: "fast", false: "whole"}[fast], func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := parseManifest(bytes.NewReader(data), path, fast); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
