package pdfio

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/internal/sharedtest"
)

// cpuParse is what pdfcpu makes of an object stream's object (its
// compressedObject without the stream check, which parseCompressed leaves
// to it).
func cpuParse(data []byte) (types.Object, error) {
	s := string(data)
	return model.ParseObjectContext(context.Background(), &s, 0)
}

// sameAsPDFCPU fails when parseCompressed accepts data and gives another
// object than pdfcpu's parser.
func sameAsPDFCPU(t *testing.T, data []byte) (accepted bool) {
	t.Helper()
	got, ok := parseCompressed(data)
	share := newValueShare() // (a read's parse: the same objects, the second time from the share)
	for range 2 {
		if shared, sok := parseCompressedShared(data, share); sok != ok || !reflect.DeepEqual(shared, got) {
			t.Fatalf("parseCompressedShared(%q) = %#v, %v; parseCompressed %#v, %v", data, shared, sok, got, ok)
		}
	}
	if !ok {
		return false
	}
	want, err := cpuParse(data)
	if err != nil {
		t.Fatalf("parseCompressed(%q) = %#v, but pdfcpu fails: %v", data, got, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("parseCompressed(%q) = %#v, pdfcpu %#v", data, got, want)
	}
	return true
}

var objSeeds = []string{
	"<</Type/Page/Parent 3 0 R/MediaBox[0 0 612 792]/Contents 7 0 R/ID 5 0 R/PZ 1.33>>",
	"<</S/SPS/ID 5 0 R/O[8 0 R]/SI<</AU 6 0 R/TS(D:20150402085105Z)>>/CT(text/html)/T(Page 1)>>",
	"<0a1B2c3D4e5F60718293a4b5c6d7e8f9>", "<abc>", "<>", "< 0a 1b >", "<0g>", "(a\\)b(c)d) tail", "(unbalanced",
	"[1 2 R]", "[1 0 R 2 0 R]", "[1 -0 R]", "[1 +0 R]", "[-1 0 R]", "[1 0R]", "[1\n0\nR]", "[1 0 Rx]", "[1 0 %c\nR]",
	"5 0 R", "5 0", "5", "-5", "+5", "007", "1.5", "-.5", "5.", ".", "-", "0.-5", "1e5", "1,5", "12345678901234567890",
	"true", "false", "null", "nullx", "NULL", "True", "[true false null]", "<</A null/B 1>>", "<</A 1/A 2>>",
	"<</Length 5>>", "<</N#20ame 1>>", "/Name#41", "/caf\xc3\xa9", "(caf\xc3\xa9)", "[1\xc2\x85 0 R]",
	"%comment\n1", "1 %c\n0 R", "[/A/B[/C]]", "<</K[<</K[<<>>]>>]>>", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
	"<</A>>", "<</A 1>", "<</A 1", "[1 2", "<<1 2>>", "  \t\x00 [ 1 ] ", "1)", "[1)]", "/A%c", "\x0b5 0 R",
}

func TestParseCompressedAsPDFCPU(t *testing.T) {
	accepted := 0
	for _, s := range objSeeds {
		if sameAsPDFCPU(t, []byte(s)) {
			accepted++
		}
	}
	if accepted < len(objSeeds)/3 {
		t.Errorf("parseCompressed accepted %d of %d seeds", accepted, len(objSeeds))
	}
}

// Every object in the object streams of the generated captures and of the
// real-world files parses the same with parseCompressed as with pdfcpu,
// and the fast parser takes nearly all of those in the generated files.
func TestParseCompressedFiles(t *testing.T) {
	files := map[string][]byte{"big.pdf": pdfbuild.Big(500, true)}
	paths, _ := filepath.Glob(filepath.Join(sharedtest.Dir(t, "realworld"), "*.pdf"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(p)] = b
	}
	opts := Options{}.withDefaults()
	for name, b := range files {
		if name == "pdfium__encrypted.pdf" {
			continue // (needs a password)
		}
		ctx, err := parse(b, opts)
		if err != nil {
			continue // (the file's own tests say why)
		}
		lazy, accepted := 0, 0
		for _, e := range ctx.Table {
			if l, ok := e.Object.(types.LazyObjectStreamObject); ok {
				data, err := l.GetData()
				if err != nil {
					continue
				}
				lazy++
				if sameAsPDFCPU(t, data) {
					accepted++
				}
			}
		}
		if name == "big.pdf" && accepted < lazy*99/100 {
			t.Errorf("%s: the fast parser took %d of %d objects", name, accepted, lazy)
		}
		t.Logf("%s: %d of %d objects in object streams parsed by parseCompressed", name, accepted, lazy)
	}
}

// FuzzParseCompressed: whatever parseCompressed accepts, pdfcpu's parser
// reads as the same object.
func FuzzParseCompressed(f *testing.F) {
	for _, s := range objSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameAsPDFCPU(t, data)
	})
}

func BenchmarkParseCompressed(b *testing.B) {
	data := []byte(objSeeds[1])
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			parseCompressed(data)
		}
	})
	b.Run("pdfcpu", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			cpuParse(data)
		}
	})
}

// TestCommonName: commonName finds each common name, and no other.
func TestCommonName(t *testing.T) {
	for i, n := range commonNames {
		if got := commonName([]byte(n)); got != i {
			t.Errorf("commonName(%q) = %d, want %d", n, got, i)
		}
		if got := internedName([]byte(n)); got != n {
			t.Errorf("internedName(%q) = %q, want %q", n, got, n)
		}
	}
	for _, n := range []string{"", "type", "Pagess", "Pag", "Spider", "FlateDecode\x00", "ID#20"} {
		if got := commonName([]byte(n)); got != -1 {
			t.Errorf("commonName(%q) = %d, want -1", n, got)
		}
	}
}
