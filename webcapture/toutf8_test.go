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
		"<metal charset=utf-16><p>ab", "<META CHARSET=ISO-2022-JP><P>\x1b$B$3$s$K$A$O\x1b(B",
		"<meta charset=iso-2022-kr><p>ab", "<meta charset=HZ-GB-2312><p>~{<:Ky2;S{#,NpJ)l6HK!#~}", "<meta charset=replacement><p>ab",
		"<meta charset=csiso2022kr><p>ab", "<meta charset=iso-&#50;022-kr><p>ab", "<meta charset=\"iso-2022-jp\"><p>\x1b$B$3\x1b(B",
		"<meta charset=shift_jis><p>a\\b~c", "<meta charset=big5><p>a\\b~c", "<meta charset=euc-jp><p>a\\b~c", "<meta charset=euc-kr><p>a\\b~c",
		"<meta charset=gb18030><p>a\\b~c", "<meta charset=gbk><p>a~{b", "<meta charset=x-user-defined><p>a\\b", "<meta charset=koi8-r><p>ab",
		"<meta charset=macintosh><p>ab", "<meta charset=ibm866><p>ab", "<meta charset=iso-8859-8-i><p>ab", "<meta charset=utf-16be><p>ab",
		"<meta http-equiv=content-type content=\"text/html; charset=iso-2022-cn\"><p>ab", "\x0e\x0f\x1b<p>control bytes", "<!-- <meta charset=utf-16> --><p>ab", "\x00<p>nul",
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

// Every WHATWG encoding a <meta> can name, over every ASCII byte (but '&',
// which sends ToUTF8 to DetermineEncoding): ToUTF8's result is the decode.
func TestToUTF8ASCIIEveryEncoding(t *testing.T) {
	var all []byte
	for c := byte(0); c < 0x80; c++ {
		if c != '&' {
			all = append(all, c)
		}
	}
	labels := []string{"utf-8", "ibm866", "iso-8859-2", "iso-8859-3", "iso-8859-4", "iso-8859-5", "iso-8859-6", "iso-8859-7",
		"iso-8859-8", "iso-8859-8-i", "iso-8859-10", "iso-8859-13", "iso-8859-14", "iso-8859-15", "iso-8859-16", "koi8-r", "koi8-u",
		"macintosh", "windows-874", "windows-1250", "windows-1251", "windows-1252", "windows-1253", "windows-1254", "windows-1255",
		"windows-1256", "windows-1257", "windows-1258", "x-mac-cyrillic", "gbk", "gb18030", "big5", "euc-jp", "iso-2022-jp",
		"shift_jis", "euc-kr", "replacement", "iso-2022-kr", "hz-gb-2312", "utf-16be", "utf-16le", "x-user-defined", "nonsense"}
	for _, l := range labels {
		doc := append([]byte("<meta charset="+l+">"), all...)
		enc, _, _ := charset.DetermineEncoding(doc, "text/html")
		want, err := io.ReadAll(enc.NewDecoder().Reader(bytes.NewReader(doc)))
		if err != nil {
			want = doc
		}
		if got := ToUTF8(doc, "text/html"); !bytes.Equal(got, want) {
			t.Errorf("ToUTF8(<meta charset=%s> and ASCII) = %q, want %q", l, got, want)
		}
	}
}

// holdsChangingLabel is containsFold of each of its words, on texts that
// hold them at the start, the end, cut, in any case, and near bytes whose
// lower-casing with |0x20 looks like one ('\x02', 'H', 'R', '\x06').
func TestHoldsChangingLabel(t *testing.T) {
	words := []string{"2022", "hz-gb", "replacement", "&"}
	texts := []string{"", "&", "2022", "202", "x2022y", "HZ-GB", "hz-g", "Hz-Gb-2312", "REPLACEMENT", "replacemen", "<meta charset=iso-2022-jp>",
		"\x02\x12022", "\x06", "\x06&", "rrreplacement", "hhz-gb", "22022", "<p>RePlAcEmEnT", strings.Repeat("x", 1020) + "2022"}
	for _, s := range texts {
		want := false
		for _, w := range words {
			want = want || containsFold([]byte(s), w)
		}
		if got := holdsChangingLabel([]byte(s)); got != want {
			t.Errorf("holdsChangingLabel(%q) = %v, want %v", s, got, want)
		}
	}
}

func FuzzHoldsChangingLabel(f *testing.F) {
	f.Add([]byte("<meta charset=ISO-2022-kr>"))
	f.Add([]byte("hz-gb&replacement"))
	f.Fuzz(func(t *testing.T, s []byte) {
		want := false
		for _, w := range []string{"2022", "hz-gb", "replacement", "&"} {
			want = want || containsFold(s, w)
		}
		if got := holdsChangingLabel(s); got != want {
			t.Errorf("holdsChangingLabel(%q) = %v, want %v", s, got, want)
		}
	})
}
