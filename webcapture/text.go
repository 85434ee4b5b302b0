package webcapture

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// A Text is a PDF text string (PDF 1.7 §3.8.1), kept as its bytes: UTF-16BE
// with a byte-order mark, UTF-8 with a byte-order mark (PDF 2.0), or
// PDFDocEncoding. String decodes it.
type Text string

// String decodes the text to UTF-8. Bytes that do not decode become U+FFFD.
func (t Text) String() string {
	s := string(t)
	switch {
	case strings.HasPrefix(s, "\xFE\xFF"):
		return decodeUTF16BE(s[2:])
	case strings.HasPrefix(s, "\xEF\xBB\xBF"):
		return strings.ToValidUTF8(s[3:], "\uFFFD")
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteRune(pdfDocRune(s[i]))
	}
	return b.String()
}

// EncodeText makes a text string from UTF-8: in PDFDocEncoding when every
// character has a code there (ASCII as it is, Latin-1 letters, the
// typographic quotes and dashes of 0x80-0xA0), else as UTF-16BE with a
// byte-order mark, so that a Greek or Japanese title reads right in every
// viewer.
func EncodeText(s string) Text {
	ascii := true
	for i := 0; i < len(s) && ascii; i++ {
		ascii = s[i] < 0x80
	}
	if ascii {
		return Text(s)
	}
	if b, ok := pdfDocEncode(s); ok {
		return Text(b)
	}
	u := utf16.Encode([]rune(s))
	b := make([]byte, 2, 2+2*len(u))
	b[0], b[1] = 0xFE, 0xFF
	for _, c := range u {
		b = append(b, byte(c>>8), byte(c))
	}
	return Text(b)
}

// pdfDocEncode encodes s in PDFDocEncoding; false when a character has no
// code there.
func pdfDocEncode(s string) ([]byte, bool) {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n' || r == '\r' || (r >= 0x20 && r < 0x7F) || (r >= 0xA1 && r <= 0xFF && r != 0xAD):
			b = append(b, byte(r))
		default:
			c, ok := pdfDocCode(r)
			if !ok {
				return nil, false
			}
			b = append(b, c)
		}
	}
	return b, true
}

// pdfDocCode is the PDFDocEncoding code of r among the codes 0x18-0x1F and
// 0x80-0xA0.
func pdfDocCode(r rune) (byte, bool) {
	for i, x := range pdfDocLow {
		if x == r {
			return byte(0x18 + i), true
		}
	}
	for i, x := range pdfDocHigh {
		if x == r && x != 0 {
			return byte(0x80 + i), true
		}
	}
	return 0, false
}

// Encoding names the encoding String decodes with: "UTF-16BE", "UTF-8" or
// "PDFDocEncoding".
func (t Text) Encoding() string {
	switch {
	case strings.HasPrefix(string(t), "\xFE\xFF"):
		return "UTF-16BE"
	case strings.HasPrefix(string(t), "\xEF\xBB\xBF"):
		return "UTF-8"
	}
	return "PDFDocEncoding"
}

func decodeUTF16BE(s string) string {
	u := make([]uint16, 0, len(s)/2)
	for i := 0; i+1 < len(s); i += 2 {
		u = append(u, uint16(s[i])<<8|uint16(s[i+1]))
	}
	out := string(utf16.Decode(u))
	if len(s)%2 == 1 {
		out += string(utf8.RuneError)
	}
	return out
}

// pdfDocHigh maps PDFDocEncoding bytes 0x80 to 0xA0 (PDF 1.7 Appendix D);
// 0 marks an undefined code.
var pdfDocHigh = [...]rune{
	0x2022, 0x2020, 0x2021, 0x2026, 0x2014, 0x2013, 0x0192, 0x2044, // 80-87
	0x2039, 0x203A, 0x2212, 0x2030, 0x201E, 0x201C, 0x201D, 0x2018, // 88-8F
	0x2019, 0x201A, 0x2122, 0xFB01, 0xFB02, 0x0141, 0x0152, 0x0160, // 90-97
	0x0178, 0x017D, 0x0131, 0x0142, 0x0153, 0x0161, 0x017E, 0, // 98-9F
	0x20AC, // A0
}

// pdfDocLow maps bytes 0x18 to 0x1F, which PDFDocEncoding gives to accents.
var pdfDocLow = [...]rune{0x02D8, 0x02C7, 0x02C6, 0x02D9, 0x02DD, 0x02DB, 0x02DA, 0x02DC}

func pdfDocRune(c byte) rune {
	switch {
	case c >= 0x18 && c <= 0x1F:
		return pdfDocLow[c-0x18]
	case c >= 0x80 && c <= 0xA0:
		if r := pdfDocHigh[c-0x80]; r != 0 {
			return r
		}
		return utf8.RuneError
	case c == 0x7F || c == 0xAD:
		return utf8.RuneError
	}
	return rune(c) // ASCII and Latin-1 above 0xA0
}
