package webcapture

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"golang.org/x/net/html/charset"
)

// ToUTF8 returns valid UTF-8 and windows-1252 ASCII as they are: the same
// bytes as decoding them.
func TestToUTF8AsDecoded(t *testing.T) {
	docs := []string{
		"\xef\xbb\xbf<p>BOM", "<meta charset=utf-8><p>h\xc3\xa9", "<meta charset=utf-8><p>h\xe9 (not UTF-8)",
		"<p>ascii", "<p>caf\xe9", "<meta charset=iso-2022-kr><p>x", "<meta charset=utf-16><p>x",
		"\xff\xfe<\x00p\x00>\x00", "<meta charset=shift_jis><p>\x82\xa0", "<meta charset=x-user-defined><p>x\x80", "",
		// ASCII that declares an encoding changing it (ToUTF8's shortcut for
		// undeclared ASCII must not take these), and ASCII that does not.
		"<META CHARSET=utf-16><p>x", "<MeTa charset=utf-16le><p>xy", "<meta http-equiv=Content-Type content='text/html; charset=utf-16be'><p>ab",
		"<p>" + strings.Repeat("x", 1020) + "<meta charset=utf-16><p>ab", "<p>" + strings.Repeat("x", 1018) + "<meta charset=utf-16><p>ab",
		"<metal charset=utf-16><p>ab", "<META CHARSET=ISO-2022-JP><P>\x1b$B$3$s$K$A$O\x1b(B", "<!-- <meta charset=utf-16> --><p>ab", "\x00<p>nul",
	}
	for _, d := range docs {
		for _, ct := range []string{"", "text/html", "text/html; charset=utf-8", "text/html; charset=iso-8859-2", "text/plain",
			"text/html; CHARSET=utf-16", "text/html; charset*=utf-8''utf-16", "text/html;charset=\"utf-16le\""} {
			enc, _, _ := charset.DetermineEncoding([]byte(d), ct)
			want, err := io.ReadAll(enc.NewDecoder().Reader(bytes.NewReader([]byte(d))))
			if err != nil {
				want = []byte(d)
			}
			if got := ToUTF8([]byte(d), ct); !bytes.Equal(got, want) {
				t.Errorf("ToUTF8(%q, %q) = %q, want %q", d, ct, got, want)
			}
		}
	}
}

// FuzzToUTF8 holds ToUTF8 (its shortcut for undeclared ASCII included) to
// decoding by DetermineEncoding's answer.
func FuzzToUTF8(f *testing.F) {
	for _, s := range []string{"<p>ascii", "<META charset=utf-16>ab", "<p>caf\xe9", "\xef\xbb\xbf<p>"} {
		f.Add([]byte(s), "text/html")
	}
	f.Add([]byte("<p>x"), "text/html; Charset=utf-16")
	f.Fuzz(func(t *testing.T, doc []byte, ct string) {
		enc, _, _ := charset.DetermineEncoding(doc, ct)
		want, err := io.ReadAll(enc.NewDecoder().Reader(bytes.NewReader(doc)))
		if err != nil {
			want = doc
		}
		if got := ToUTF8(doc, ct); !bytes.Equal(got, want) {
			t.Errorf("ToUTF8(%q, %q) = %q, want %q", doc, ct, got, want)
		}
	})
}
