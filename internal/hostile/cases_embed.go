package hostile

import (
	"crypto/md5"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// Issue 28, items 2 and 3: a PDF that carries its web archive (capture
// --embed-warc) is audited against it, so the archive is an input like
// any other: its declared size, its filter and its records are bounded.
// Before, webcap read no embedded file at all: audit said nothing of
// them (and had no --embed-warc).

// embeddedPDF is a one-page PDF whose catalog's /AF and /Names
// /EmbeddedFiles list one file, site.warc (/AFRelationship /Source,
// application/warc), its stream data as given, its dictionary with extra
// entries (a /Filter, /Params).
func embeddedPDF(data []byte, extra ...any) []byte {
	b := pdfbuild.New()
	pages, _ := b.PageTree(1, nil)
	d := pdfbuild.D(append([]any{"Type", pdfbuild.Name("EmbeddedFile"), "Subtype", pdfbuild.Name("application/warc")}, extra...)...)
	ef := b.Add(&pdfbuild.Stream{Dict: d, Data: data})
	fs := b.Add(pdfbuild.D("Type", pdfbuild.Name("Filespec"), "F", pdfbuild.Lit("site.warc"), "UF", pdfbuild.Lit("site.warc"),
		"AFRelationship", pdfbuild.Name("Source"), "EF", pdfbuild.D("F", ef, "UF", ef)))
	names := b.Add(pdfbuild.D("EmbeddedFiles", pdfbuild.D("Names", pdfbuild.Array{pdfbuild.Lit("site.warc"), fs})))
	b.Root = b.Add(pdfbuild.D("Type", pdfbuild.Name("Catalog"), "Pages", pages, "Names", names, "AF", pdfbuild.Array{fs}))
	return b.Bytes()
}

// sharedStreamPDF is a one-page PDF whose /AF lists n file
// specifications, all of one embedded WARC stream (data).
func sharedStreamPDF(data []byte, n int) []byte {
	b := pdfbuild.New()
	pages, _ := b.PageTree(1, nil)
	sum := md5.Sum(data)
	ef := b.Add(&pdfbuild.Stream{Dict: pdfbuild.D("Type", pdfbuild.Name("EmbeddedFile"), "Subtype", pdfbuild.Name("application/warc"),
		"Params", pdfbuild.D("Size", len(data), "CheckSum", pdfbuild.Hex(string(sum[:])))), Data: data})
	af := make(pdfbuild.Array, n)
	for i := range af {
		af[i] = b.Add(pdfbuild.D("Type", pdfbuild.Name("Filespec"), "F", pdfbuild.Lit(fmt.Sprintf("site%d.warc", i)),
			"AFRelationship", pdfbuild.Name("Source"), "EF", pdfbuild.D("F", ef)))
	}
	b.Root = b.Add(pdfbuild.D("Type", pdfbuild.Name("Catalog"), "Pages", pages, "AF", af))
	return b.Bytes()
}

// zlibZeros is a /FlateDecode stream that inflates to n MiB of zeros
// (about 1 KB a MiB), its checksum left 0: a reader that reads it whole
// fails only at its end.
func zlibZeros(mib int) []byte {
	block := deflateBlock(make([]byte, 1<<20), false)
	out := []byte{0x78, 0xda}
	for range mib {
		out = append(out, block...)
	}
	out = append(out, deflateBlock(nil, true)...)
	return append(out, 0, 0, 0, 0)
}

// embeddedSetup writes the PDF make makes to in.pdf and audits it.
func embeddedSetup(make func(dir string) ([]byte, error)) func(dir string) ([]string, func(), error) {
	return func(dir string) ([]string, func(), error) {
		b, err := make(dir)
		if err == nil {
			err = Write(dir, "in.pdf", b)
		}
		return []string{"audit", "--in-process", "in.pdf"}, nil, err
	}
}

func init() {
	small := []byte(warcRecord("http://a.example/", "hello"))
	sum := md5.Sum(small)
	Register(
		Case{
			Name: "embed-params-size-huge",
			Part: Bounds,
			Setup: embeddedSetup(func(string) ([]byte, error) {
				return embeddedPDF(small, "Params", pdfbuild.D("Size", int64(1)<<62, "CheckSum", pdfbuild.Hex(string(sum[:])))), nil
			}),
			Exit:   1,
			Stdout: []string{`^in\.pdf: error WC-EMBED-CHECKSUM object 4 0 R /Params: the embedded file site\.warc: /Params /Size is 4611686018427387904, but its stream holds \d+ bytes`},
			MaxCPU: 2 * time.Second, MaxRSS: 256 << 20,
			Before: "exit 0, 0.01 s CPU, 20 MB: Well-Formed and valid, the embedded file not looked at",
		},
		Case{
			Name: "embed-flate-bomb",
			Part: Bounds,
			Setup: embeddedSetup(func(string) ([]byte, error) {
				return embeddedPDF(zlibZeros(4096), "Filter", pdfbuild.Name("FlateDecode"), "Params", pdfbuild.D("Size", 1000)), nil
			}),
			Exit: 1,
			Stdout: []string{`^in\.pdf: error WC-LIMIT object 4 0 R /Params: the embedded file site\.warc decodes to more than 1073741824 bytes: its /Params are not checked`,
				`^in\.pdf: error WC-EMBED-UNREADABLE object 4 0 R: the embedded WARC site\.warc cannot be read: .*too large`},
			MaxCPU: 10 * time.Second, MaxRSS: 256 << 20,
			Before: "exit 0, 0.03 s CPU, 28 MB: Well-Formed and valid, the embedded file (4 MB, inflating to 4 GiB) not looked at",
		},
		Case{
			Name: "embed-warc-large-records",
			Part: Bounds,
			Setup: embeddedSetup(func(dir string) ([]byte, error) {
				p := filepath.Join(dir, "records.warc.gz")
				if err := sharedMember(p, 4, true); err != nil {
					return nil, err
				}
				data, err := os.ReadFile(p)
				if err != nil {
					return nil, err
				}
				os.Remove(p)
				sum := md5.Sum(data)
				return embeddedPDF(data, "Params", pdfbuild.D("Size", len(data), "CheckSum", pdfbuild.Hex(string(sum[:])))), nil
			}),
			Exit:   0,
			Stdout: []string{`^in\.pdf: info WC-EMBED-VERIFIED object 4 0 R: 0 of 0 content sets verified against the embedded WARC site\.warc \(4 records\)`},
			MaxCPU: 15 * time.Second, MaxRSS: 256 << 20,
			Before: "exit 0, 0.01 s CPU, 22 MB: the embedded WARC (4 records of 240 MiB in one gzip member, 1 MB) not read, no set checked against it",
		},
		Case{
			Name: "embed-shared-stream",
			Part: Bounds,
			Setup: embeddedSetup(func(string) ([]byte, error) {
				return sharedStreamPDF([]byte(warcRecord("http://a.example/", strings.Repeat("a", 1<<20))), 10000), nil
			}),
			Exit:   0,
			Stdout: []string{`^in\.pdf: info WC-EMBED-VERIFIED object \d+ 0 R: 0 of 0 content sets verified against the embedded WARC site0\.warc \(1 records\)`},
			MaxCPU: 5 * time.Second, MaxRSS: 256 << 20,
			Before: "exit 0, 0.13 s CPU, 57 MB: the embedded file, listed 10,000 times, not looked at (read once per listing, it would be 10 GiB hashed and scanned)",
		},
		Case{
			Name: "embed-warc-is-input",
			Part: Outputs,
			Setup: func(dir string) ([]string, func(), error) {
				b, err := pdfbuild.Sample("capture")
				if err == nil {
					err = Write(dir, "in.pdf", b)
				}
				return []string{"append", "--warc", "in.pdf", "--embed-warc", "in.pdf", "http://127.0.0.1:9/", "-o", "out.pdf"}, nil, err
			},
			Exit:   2,
			Stderr: []string{`^webcap: append: --warc in\.pdf is an input of this run \(in\.pdf\): give another file`},
			Check: func(dir string) error {
				b, err := pdfbuild.Sample("capture")
				if err != nil {
					return err
				}
				return All(Unchanged("in.pdf", b), Absent("out.pdf"))(dir)
			},
			MaxCPU: 2 * time.Second, MaxRSS: 256 << 20,
			Before: "exit 2, 0.02 s CPU, 20 MB: unknown flag --embed-warc",
		},
	)
}
