package webcapture

import (
	"bytes"
	"io"
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
	}
	for _, d := range docs {
		for _, ct := range []string{"", "text/html", "text/html; charset=utf-8", "text/html; charset=iso-8859-2", "text/plain"} {
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
