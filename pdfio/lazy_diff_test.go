package pdfio_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/webcap/webcap/internal/cli"
	"github.com/webcap/webcap/internal/hostile"
	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/pdfio"
)

// A lazyFile is one file of the differential corpus.
type lazyFile struct {
	name string
	b    []byte
}

// lazyCorpus is every file the differential test reads: pdfbuild's
// samples, hostile samples and loss samples, Big and BigBroken in both
// flavours, the files the hostile suite's cases write, pdfio's testdata
// and FuzzRead corpus, and the real files of /work/shared/realworld (or
// $WEBCAP_REALWORLD) when present.
func lazyCorpus(t *testing.T) []lazyFile {
	var fs []lazyFile
	add := func(name string, b []byte, err error) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		fs = append(fs, lazyFile{name, b})
	}
	for _, n := range pb.Samples() {
		b, err := pb.Sample(n)
		add("sample/"+n, b, err)
	}
	for _, n := range pb.HostileSamples() {
		b, err := pb.Hostile(n)
		add("hostile-sample/"+n, b, err)
	}
	for _, n := range []string{"misplaced", "unreadable"} {
		b, err := pb.LossSample(n)
		add("loss/"+n, b, err)
	}
	for _, objstm := range []bool{false, true} {
		add("big/objstm="+strconv.FormatBool(objstm), pb.Big(300, objstm), nil)
		add("bigbroken/objstm="+strconv.FormatBool(objstm), pb.BigBroken(300, objstm), nil)
	}
	add("web/xref", pb.Web(false), nil)
	add("web/xrefstream", pb.Web(true), nil)
	fs = append(fs, hostileFiles(t)...)
	fs = append(fs, dirFiles(t, "testdata", ".pdf")...)
	for _, f := range dirFiles(t, "testdata/fuzz/FuzzRead", "") {
		if b, ok := fuzzBytes(f.b); ok {
			fs = append(fs, lazyFile{f.name, b})
		}
	}
	real := os.Getenv("WEBCAP_REALWORLD")
	if real == "" {
		real = "/work/shared/realworld"
	}
	if rf := dirFiles(t, real, ".pdf"); len(rf) > 0 {
		fs = append(fs, rf...)
	} else {
		t.Logf("no real files in %s (set WEBCAP_REALWORLD): they are not compared", real)
	}
	return fs
}

// hostileFiles are the PDF files the hostile suite's cases write (the
// cases that need nothing else), at most 32 MiB each.
func hostileFiles(t *testing.T) []lazyFile {
	var fs []lazyFile
	for _, c := range hostile.Cases() {
		if len(c.Needs) > 0 {
			continue
		}
		dir := t.TempDir()
		_, cleanup, err := c.Setup(dir)
		if err != nil {
			continue
		}
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".pdf") {
				return nil
			}
			if info, err := d.Info(); err != nil || !info.Mode().IsRegular() || info.Size() > 32<<20 {
				return nil
			}
			if b, err := os.ReadFile(p); err == nil {
				rel, _ := filepath.Rel(dir, p)
				fs = append(fs, lazyFile{"hostile/" + c.Name + "/" + rel, b})
			}
			return nil
		})
		if cleanup != nil {
			cleanup()
		}
	}
	return fs
}

func dirFiles(t *testing.T, dir, ext string) []lazyFile {
	es, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var fs []lazyFile
	for _, e := range es {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ext) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		fs = append(fs, lazyFile{filepath.Join(dir, e.Name()), b})
	}
	return fs
}

// fuzzBytes decodes a corpus file of go test fuzz v1 holding one []byte.
func fuzzBytes(b []byte) ([]byte, bool) {
	lines := strings.Split(string(b), "\n")
	if len(lines) < 2 || lines[0] != "go test fuzz v1" {
		return nil, false
	}
	l := strings.TrimSpace(lines[1])
	if !strings.HasPrefix(l, "[]byte(") || !strings.HasSuffix(l, ")") {
		return nil, false
	}
	s, err := strconv.Unquote(l[len("[]byte(") : len(l)-1])
	return []byte(s), err == nil
}

// readBoth reads b the lazy way and pdfcpu's way; it fails when the
// Documents (or the errors) differ, and says whether lazyParse read it.
func readBoth(t testing.TB, name string, b []byte, opts pdfio.Options) (lazy bool) {
	t.Helper()
	defer pdfio.SetEagerOnly(pdfio.SetEagerOnly(false))
	got, gerr := pdfio.ReadBytes(b, name, opts)
	pdfio.SetEagerOnly(true)
	want, werr := pdfio.ReadBytes(b, name, opts)
	// (Where lazyParse gives the file to pdfcpu, both reads are
	// ReadContext's, whose error is not always the same: it dereferences
	// the table in map order, and FuzzLazyParse found a file it failed
	// four ways in 50 reads. Only the verdict is compared then.)
	sameErr := gerr == nil || gerr.Error() == werr.Error() || pdfio.FallsBack(b)
	if (gerr == nil) != (werr == nil) || !sameErr {
		t.Fatalf("%s: the lazy read's error is %v, ReadContext's %v", name, gerr, werr)
	}
	if gerr == nil && !reflect.DeepEqual(got, want) {
		t.Errorf("%s: the lazy read's Document differs from ReadContext's in %s", name, docDiff(got, want))
	}
	return pdfio.LazyReads(b)
}

// docDiff names the fields of two Documents that differ.
func docDiff(a, b *pdfio.Document) string {
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	var out []string
	for i := range va.NumField() {
		if f := va.Type().Field(i); f.IsExported() && !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			out = append(out, f.Name)
		}
	}
	if out == nil {
		return "unexported fields"
	}
	return strings.Join(out, ", ")
}

// auditJSON is what `webcap audit --json --in-process FILE` writes, under
// --max-memory 16GiB: the ceiling is process-wide, and this test's process
// holds the corpus (a 31.7 MB file's lazy audit stopped at 1 GiB under
// load while its ReadContext audit did not); the ceiling is the hostile
// suite's to test.
func auditJSON(t *testing.T, path string) string {
	ios, _, out, errOut := cli.Test()
	code := cli.Main(context.Background(), []string{"audit", "--json", "--in-process", "--max-memory", "16GiB", path}, ios)
	return strconv.Itoa(code) + "\n" + out.String() + "\n" + errOut.String()
}

// TestLazyParseDifferential: on every file of the corpus, the lazy read
// gives the Document ReadContext's gives (deep-equal, or the same error),
// and `audit --json` writes the same bytes.
func TestLazyParseDifferential(t *testing.T) {
	files := lazyCorpus(t)
	dir := t.TempDir()
	lazy := 0
	seen := map[[32]byte]bool{}
	slow := os.Getenv("WEBCAP_SLOW_TESTS") == "1"
	skipped := 0
	for i, f := range files {
		sum := sha256.Sum256(f.b)
		if seen[sum] {
			continue
		}
		seen[sum] = true
		if !slow && heavy(f) {
			skipped++
			continue
		}
		if readBoth(t, f.name, f.b, pdfio.Options{}) {
			lazy++
		}
		p := filepath.Join(dir, strconv.Itoa(i)+".pdf")
		if err := os.WriteFile(p, f.b, 0o644); err != nil {
			t.Fatal(err)
		}
		got := auditJSON(t, p)
		old := pdfio.SetEagerOnly(true)
		want := auditJSON(t, p)
		pdfio.SetEagerOnly(old)
		if got != want {
			t.Errorf("%s: audit --json differs, lazy:\n%.2000s\nReadContext:\n%.2000s", f.name, got, want)
		}
	}
	t.Logf("%d files (%d the same as another), %d read lazily, the rest by ReadContext; %d heavy files left to WEBCAP_SLOW_TESTS=1",
		len(files), len(files)-len(seen), lazy, skipped)
	if lazy == 0 {
		t.Error("no file was read lazily")
	}
}

// FuzzLazyParse: on any bytes, the lazy read gives what ReadContext's
// gives (Documents deep-equal, or the same error).
func FuzzLazyParse(f *testing.F) {
	for _, n := range pb.Samples() {
		b, _ := pb.Sample(n)
		f.Add(b)
	}
	f.Add(pb.Big(20, true))
	f.Add(pb.Big(20, false))
	f.Fuzz(func(t *testing.T, b []byte) {
		readBoth(t, "fuzz.pdf", b, pdfio.Options{Timeout: 5 * time.Second, MaxTreeNodes: 10000}) // (FuzzRead's)
	})
}

var _ = bytes.Equal

// heavy: a file that takes seconds to read or audit (a large file, or one
// made to decode hundreds of megabytes), compared only with
// WEBCAP_SLOW_TESTS=1.
func heavy(f lazyFile) bool {
	if len(f.b) > 512<<10 {
		return true
	}
	for _, n := range []string{"huge-object-streams", "shared-command-params", "embed-flate-bomb", "embed-shared-stream", "huge-xref-size", "many-findings"} {
		if strings.Contains(f.name, n) {
			return true
		}
	}
	return false
}
