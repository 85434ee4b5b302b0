package pdfio

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webcap/webcap/internal/sharedtest"
)

// pdftotextWords runs poppler's pdftotext, the independent oracle, on
// file and returns its words.
func pdftotextWords(t *testing.T, file string, args ...string) []string {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("pdftotext (poppler-utils) not on PATH")
	}
	out, err := exec.Command(bin, append(append([]string{"-q"}, args...), file, "-")...).Output()
	if err != nil {
		t.Fatalf("pdftotext %s: %v", file, err)
	}
	return strings.Fields(string(out))
}

func mustReadText(t *testing.T, file string) *TextReader {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := ReadText(b, file, Options{})
	if err != nil {
		t.Fatalf("ReadText(%s): %v", file, err)
	}
	return tr
}

// The words of a page Chromium printed (testdata/chromium-text.html:
// accents, ligatures, Greek, Cyrillic, bold and italic runs, a link, a
// table, small print, two pages) are exactly pdftotext's, page by page.
func TestTextMatchesPdftotext(t *testing.T) {
	file := filepath.Join("testdata", "chromium-text.pdf")
	tr := mustReadText(t, file)
	if tr.NumPages() != 2 {
		t.Fatalf("NumPages() = %d, want 2", tr.NumPages())
	}
	for i := range tr.NumPages() {
		got, err := tr.Page(i)
		if err != nil {
			t.Fatal(err)
		}
		want := pdftotextWords(t, file, "-f", fmt.Sprint(i+1), "-l", fmt.Sprint(i+1))
		if g := strings.Fields(got); !equalWords(g, want) {
			t.Errorf("page %d: words\n%q\nwant (pdftotext)\n%q", i+1, g, want)
		}
	}
	all, err := tr.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"café", "office,", "fiffle,", "Ελληνικά", "Кириллица", "</script>"} {
		if !strings.Contains(all, w) {
			t.Errorf("All() lacks %q", w)
		}
	}
	if !strings.Contains(all, "cell A1 cell B1\ncell A2 cell B2") {
		t.Errorf("All() does not keep the table's lines:\n%s", all)
	}
}

// On real Web Capture files, written by Acrobat with simple fonts and
// other encodings, nearly every word pdftotext finds is found (the order
// may differ: pdftotext orders by position, this by drawing).
func TestTextRealWorldAgreesWithPdftotext(t *testing.T) {
	dir := sharedtest.Dir(t, "realworld")
	for _, name := range []string{"PdfPig__0000505.pdf", "format-corpus__webCapture.pdf", "endesive__pdf-adobe-webcapture-x509.rsa_sha1.pdf", "pdfparser__Issue621.pdf"} {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(dir, name)
			want := pdftotextWords(t, file)
			got, err := mustReadText(t, file).All()
			if err != nil {
				t.Fatal(err)
			}
			if r := overlap(strings.Fields(got), want); r < 0.9 || len(want) < 100 {
				t.Errorf("%d words; %.3f of pdftotext's %d found, want ≥ 0.9", len(strings.Fields(got)), r, len(want))
			}
		})
	}
}

func equalWords(a, b []string) bool {
	return strings.Join(a, "\x00") == strings.Join(b, "\x00")
}

// overlap is how much of want's multiset of words got has.
func overlap(got, want []string) float64 {
	n := map[string]int{}
	for _, w := range got {
		n[w]++
	}
	hit := 0
	for _, w := range want {
		if n[w] > 0 {
			n[w]--
			hit++
		}
	}
	return float64(hit) / float64(max(len(want), 1))
}

// textPDF makes a one-page PDF whose page has content (a stream) and
// resources; extra objects are numbered from 5.
func textPDF(content, resources string, extra ...string) []byte {
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources " + resources + " >>",
		streamObj("", content),
	}
	objs = append(objs, extra...)
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	x := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, x)
	return b.Bytes()
}

// streamObj is a stream object with dictionary entries dict.
func streamObj(dict, content string) string {
	return fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", dict, len(content), content)
}

const helv = "<< /Font << /F1 5 0 R >> >>"
const helvFont = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar 32 /Widths [278 278 355 556 556 889 667 191 333 333 389 584 278 333 278 278 556 556 556 556 556 556 556 556 556 556 278 278 584 584 584 556 1015 667 667 722 722 667 611 778 722 278 500 667 556 833 722 778 667 778 722 667 611 722 667 944 667 667 611 278 278 278 469 556 333 556 556 500 556 556 278 556 556 222 222 500 222 833 556 556 556 556 333 500 278 556 500 722 500 500 500] /Encoding << /Differences [39 /quoteright 96 /quoteleft] >> >>"

func pageText(t *testing.T, pdf []byte) (string, error) {
	t.Helper()
	tr, err := ReadText(pdf, "crafted.pdf", Options{})
	if err != nil {
		t.Fatalf("ReadText: %v", err)
	}
	return tr.Page(0)
}

func TestTextCrafted(t *testing.T) {
	tests := []struct {
		name, content string
		extra         []string
		res           string
		want          string
	}{
		{"words and lines", "BT /F1 10 Tf 72 700 Td (Hello world) Tj 0 -14 Td (second line) Tj ET", nil, helv, "Hello world\nsecond line"},
		{"a gap is a space", "BT /F1 10 Tf 72 700 Td (one) Tj 40 0 Td (two) Tj ET", nil, helv, "one two"},
		{"adjacent runs join", "BT /F1 10 Tf 72 700 Td (wo) Tj 12.23 0 Td (rd) Tj ET", nil, helv, "word"},
		{"TJ kerning and word gaps", "BT /F1 10 Tf 72 700 Td [(ke) 20 (rn) -600 (gap)] TJ ET", nil, helv, "kern gap"},
		{"quote operators", "BT /F1 10 Tf 12 TL 72 700 Td (a) Tj (b) ' 0 0 (c) \" ET", nil, helv, "a\nb\nc"},
		{"escapes and Differences", `BT /F1 10 Tf 72 700 Td (it\047s \(x\) \134) Tj ET`, nil, helv, "it’s (x) \\"},
		{"inline image skipped", "BT /F1 10 Tf 72 700 Td (before) Tj ET BI /W 2 /H 2 /BPC 8 /CS /G ID \x01EIx(\xff\n EI BT /F1 10 Tf 72 680 Td (after) Tj ET", nil, helv, "before\nafter"},
		{"marked content dict skipped", "/P << /MCID 0 /Alt (x) >> BDC BT /F1 10 Tf 72 700 Td (tagged) Tj ET EMC", nil, helv, "tagged"},
		{"a form", "q 1 0 0 1 0 0 cm /X1 Do Q", []string{helvFont, streamObj("/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >>", "BT /F1 10 Tf 72 700 Td (in form) Tj ET")}, "<< /Font << /F1 5 0 R >> /XObject << /X1 6 0 R >> >>", "in form"},
		{"a form drawing itself ends", "/X1 Do", []string{helvFont, streamObj("/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> /XObject << /X1 6 0 R >> >>", "BT /F1 10 Tf 72 700 Td (loop) Tj ET /X1 Do")}, "<< /Font << /F1 5 0 R >> /XObject << /X1 6 0 R >> >>", strings.TrimSpace(strings.Repeat("loop ", maxFormDepth))},
		{"unknown font", "BT /F9 10 Tf 72 700 Td (x) Tj ET", nil, helv, ""},
		{"garbage", "BT ) ] >> /F1 Tf Tj TJ [ ( unterminated", nil, helv, ""},
		{"type0 with ToUnicode", "BT /F2 10 Tf 72 700 Td <00010002> Tj 0 -20 Td <0003> Tj ET", []string{helvFont,
			"<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H /DescendantFonts [7 0 R] /ToUnicode 8 0 R >>",
			"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /X /W [1 [500 500] 3 3 600] >>",
			streamObj("", "/CIDInit /ProcSet findresource begin 12 dict begin begincmap 1 begincodespacerange <0000> <FFFF> endcodespacerange\n1 beginbfchar <0001> <0048> endbfchar 1 beginbfrange <0002> <0003> [<0069> <00660066>] endbfrange endcmap")},
			"<< /Font << /F2 6 0 R >> >>", "Hi\nff"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			extra := tc.extra
			if extra == nil {
				extra = []string{helvFont}
			}
			got, err := pageText(t, textPDF(tc.content, tc.res, extra...))
			if err != nil {
				t.Fatalf("Page(0): %v", err)
			}
			if got != tc.want {
				t.Errorf("Page(0) = %q, want %q", got, tc.want)
			}
		})
	}
}

// A page of more tokens than the bound is an error naming the page, not
// a long wait.
func TestTextTokenLimit(t *testing.T) {
	content := strings.Repeat("q Q ", maxTextTokens/2+10)
	_, err := pageText(t, textPDF(content, helv))
	if !errors.Is(err, ErrTextLimit) || !strings.Contains(err.Error(), "crafted.pdf") || !strings.Contains(err.Error(), "page 1") {
		t.Fatalf("Page(0) error = %v, want ErrTextLimit naming the file and page", err)
	}
}

func TestTextPagesOf(t *testing.T) {
	tr := mustReadText(t, filepath.Join("testdata", "chromium-text.pdf"))
	if _, err := tr.PagesOf(nil); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Page(5); err == nil {
		t.Error("Page(5) of 2 pages: no error")
	}
	first, _ := tr.Page(0)
	got, err := tr.PagesOf(tr.refs()[:1])
	if err != nil || got != first {
		t.Errorf("PagesOf(page 1) = %q, %v; want %q", got, err, first)
	}
}

func FuzzText(f *testing.F) {
	f.Add("BT /F1 10 Tf 72 700 Td (Hello) Tj ET")
	f.Add("BT /F1 10 Tf [(a) -300 (b)] TJ ET BI ID x EI")
	f.Fuzz(func(t *testing.T, content string) {
		tr, err := ReadText(textPDF(content, helv, helvFont), "fuzz.pdf", Options{})
		if err != nil {
			return
		}
		s, err := tr.Page(0)
		if err == nil && (strings.Contains(s, "\n\n") || strings.Contains(s, "  ")) {
			t.Errorf("Page(0) = %q: not normalized", s)
		}
	})
}
