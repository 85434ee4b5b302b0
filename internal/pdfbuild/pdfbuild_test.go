package pdfbuild

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// binaryKeys are IDS-like keys with every byte a parser might get wrong.
var binaryKeys = []string{
	"\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f",
	"()\\\\()\\\\()\\\\()\\\\",
	"\xFE\xFF\x00\x41\xD8\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01", // FE FF + lone surrogate
	"\xEF\xBB\xBF\x80\x81\x82\x83\x84\x85\x86\x87\x88\x89\x8a\x8b\x8c",
	"\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8\xf7\xf6\xf5\xf4\xf3\xf2\xf1\xf0",
	"\\n\\123\\z\r\n\r\x5c\x5c\x28\x29abcd",
}

// Sample builds a small Web Capture-like file in the given variant.
func sample(xrefStream, objStreams bool, key func(string) any, leaf int) []byte {
	b := New()
	b.XRefStream, b.ObjectStreams = xrefStream, objStreams
	pagesRoot, pages := b.PageTree(len(binaryKeys), func(i int) Dict { return D("ID", key(binaryKeys[i])) })
	var ids []KV
	for i, k := range binaryKeys {
		cs := b.Add(D("S", Name("SPS"), "ID", key(k), "O", Array{pages[i]},
			"SI", D("AU", Lit(fmt.Sprintf("http://example.com/%d", i)))))
		ids = append(ids, KV{k, cs})
	}
	ids = append(ids, KV{"\xFF\xFF", Array{ids[0].Value, ids[1].Value}}) // an array value
	tree := b.NameTree(ids, leaf, 2, key)
	names := b.Add(D("IDS", tree))
	b.Root = b.Add(D("Type", Name("Catalog"), "Pages", pagesRoot, "Names", names, "SpiderInfo", D("V", 1.25)))
	return b.Bytes()
}

// qpdf checks every variant, when it is installed (CI installs it).
func TestQPDFAcceptsEveryVariant(t *testing.T) {
	qpdf, err := exec.LookPath("qpdf")
	if err != nil {
		t.Skip("qpdf is not installed (apt-get install qpdf)")
	}
	dir := t.TempDir()
	for _, v := range []struct {
		name   string
		xs, os bool
		key    func(string) any
		leaf   int
	}{
		{"classic-lit-flat", false, false, LitKey, 100},
		{"classic-esc-deep", false, false, EscKey, 1},
		{"classic-hex-2", false, false, HexKey, 2},
		{"xrefstream-hex", true, false, HexKey, 3},
		{"objstm-lit-deep", true, true, LitKey, 1},
		{"objstm-hex", true, true, HexKey, 100},
	} {
		t.Run(v.name, func(t *testing.T) {
			p := filepath.Join(dir, v.name+".pdf")
			if err := os.WriteFile(p, sample(v.xs, v.os, v.key, v.leaf), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(qpdf, "--check", p).CombinedOutput()
			if err != nil || !bytes.Contains(out, []byte("No syntax or stream encoding errors")) {
				t.Fatalf("qpdf --check %s: %v\n%s", v.name, err, out)
			}
		})
	}
}

func TestWriteValues(t *testing.T) {
	rows := []struct {
		v    any
		want string
	}{
		{nil, "null"}, {true, "true"}, {-3, "-3"}, {int64(7), "7"}, {1.25, "1.25"},
		{Name("A B#/"), "/A#20B#23#2F"},
		{Lit("a(b)\\c\rd\x00\xff"), "(a\\(b\\)\\\\c\\rd\x00\xff)"},
		{Esc("a\x00\xff("), "(a\\000\\377\\()"},
		{Hex("\x00\xab"), "<00AB>"},
		{Ref(12), "12 0 R"},
		{Raw("<</Odd"), "<</Odd"},
		{Array{1, Name("x")}, "[1 /x]"},
		{D("K", 1, "L", Array{}), "<</K 1/L []>>"},
		{&Stream{Dict: D("Type", Name("X")), Data: []byte("abc")}, "<</Type /X/Length 3>>\nstream\nabc\nendstream"},
	}
	for _, r := range rows {
		var w bytes.Buffer
		writeValue(&w, r.v)
		if w.String() != r.want {
			t.Errorf("write %#v = %q, want %q", r.v, w.String(), r.want)
		}
	}
}

// qpdf accepts every sample document (the damaged one is damaged only in
// its Web Capture structures, not in PDF syntax).
func TestQPDFAcceptsSamples(t *testing.T) {
	qpdf, err := exec.LookPath("qpdf")
	if err != nil {
		t.Skip("qpdf is not installed (apt-get install qpdf)")
	}
	for _, name := range Samples() {
		b, err := Sample(name)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), name+".pdf")
		os.WriteFile(p, b, 0o644)
		out, err := exec.Command(qpdf, "--check", p).CombinedOutput()
		if err != nil || !bytes.Contains(out, []byte("No syntax or stream encoding errors")) {
			t.Errorf("qpdf --check %s: %v\n%s", name, err, out)
		}
	}
	if _, err := Sample("nope"); err == nil {
		t.Error("Sample(nope) succeeded")
	}
}

var update = flag.Bool("update", false, "rewrite the bundled PDFs (testdata/capture.pdf, testdata/collide.pdf, testdata/build/web.pdf) from their generators")

// The bundled PDFs are their generators' output, byte for byte: the
// README's quick start (Sample("capture")), its fix example
// (Sample("collide")) and the build example's input (Web(false)). go test ./internal/pdfbuild -update rewrites them.
func TestBundledExampleIsCurrent(t *testing.T) {
	capture, _ := Sample("capture")
	collide, _ := Sample("collide")
	for _, tc := range []struct {
		path string
		want []byte
	}{
		{filepath.Join("..", "..", "testdata", "capture.pdf"), capture},
		{filepath.Join("..", "..", "testdata", "collide.pdf"), collide},
		{filepath.Join("..", "..", "testdata", "build", "web.pdf"), Web(false)},
	} {
		if *update {
			if err := os.WriteFile(tc.path, tc.want, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, tc.want) {
			t.Errorf("%s is out of date: go test ./internal/pdfbuild -run BundledExample -update", tc.path)
		}
	}
}
