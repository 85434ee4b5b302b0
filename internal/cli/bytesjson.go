package cli

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/webcap/webcap/webcapture"
)

// How --json shows a string read from a file without losing a byte: PDF
// strings are bytes, and JSON strings are Unicode text. A string whose
// bytes are valid UTF-8 is a JSON string (escaped as JSON escapes, so NUL
// is "\u0000"); any other is an object holding its bytes in upper-case hex:
//
//	"http://www.example.com/caf\u00e9"   the bytes 63 61 66 C3 A9 (UTF-8)
//	{"hex":"...636166E9"}                the bytes 63 61 66 E9 (Latin-1)
//
// A reader tells the two apart by the JSON type alone. encoding/json would
// replace each invalid byte with U+FFFD, which is why these types exist.

// bytesJSON is a string of bytes from a file: URLS keys, URLs, content
// types, header lines, posted data, dates as written, names.
type bytesJSON string

// textJSON is a PDF text string (a title): its text when the bytes decode
// exactly (PDFDocEncoding, or UTF-16BE or UTF-8 after their byte-order
// mark), and otherwise {"hex"} of its bytes as written — also when those
// bytes happen to be valid UTF-8, so that a JSON string always means
// decoded text.
type textJSON webcapture.Text

// hexJSON is the form of a string that is not shown as text.
type hexJSON struct {
	Hex string `json:"hex"`
}

func (s bytesJSON) MarshalJSON() ([]byte, error) {
	if utf8.ValidString(string(s)) {
		return appendJSONString(nil, string(s)), nil
	}
	return appendHexJSON(nil, string(s)), nil
}

func (s *bytesJSON) UnmarshalJSON(b []byte) error {
	v, err := unmarshalBytes(b)
	*s = bytesJSON(v)
	return err
}

func (t textJSON) MarshalJSON() ([]byte, error) {
	if s, ok := decodeText(webcapture.Text(t)); ok {
		return appendJSONString(nil, s), nil
	}
	return appendHexJSON(nil, string(t)), nil
}

// UnmarshalJSON reads decoded text back as a text string (UTF-16BE when it
// is not ASCII), and {"hex"} as the bytes it holds.
func (t *textJSON) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		err := json.Unmarshal(b, &s)
		*t = textJSON(webcapture.EncodeText(s))
		return err
	}
	v, err := unmarshalBytes(b)
	*t = textJSON(v)
	return err
}

// decodeText decodes t, and reports whether every byte decoded: no
// undefined PDFDocEncoding code, no broken UTF-16 or UTF-8. (A text that
// holds U+FFFD itself is shown as hex too: lossless, if less friendly.)
func decodeText(t webcapture.Text) (string, bool) {
	s := t.String()
	return s, !strings.ContainsRune(s, utf8.RuneError)
}

// unmarshalBytes reads a JSON string or a {"hex"} object.
func unmarshalBytes(b []byte) (string, error) {
	if len(b) > 0 && b[0] == '"' {
		var s string
		err := json.Unmarshal(b, &s)
		return s, err
	}
	var h hexJSON
	if err := json.Unmarshal(b, &h); err != nil {
		return "", err
	}
	v, err := hex.DecodeString(h.Hex)
	if err != nil {
		return "", errors.New(`{"hex"}: ` + err.Error())
	}
	return string(v), nil
}

func appendHexJSON(b []byte, s string) []byte {
	return append(appendUpperHex(append(b, `{"hex":"`...), s), `"}`...)
}

// appendUpperHex appends the bytes of s in upper-case hex: appendHexJSON's
// digits, and writeLargeBytes' a chunk at a time.
func appendUpperHex[T string | []byte](b []byte, s T) []byte {
	const digits = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		b = append(b, digits[s[i]>>4], digits[s[i]&0xF])
	}
	return b
}

// appendJSONString quotes valid UTF-8 as encoding/json does, less its HTML
// escaping (the encoder that calls MarshalJSON adds that when it is set).
func appendJSONString(b []byte, s string) []byte {
	return append(appendEscaped(append(b, '"'), s), '"')
}

// appendEscaped is appendJSONString without the quotes; it reads a
// string or, in place, a large value's bytes (writeLargeBytes).
func appendEscaped[T string | []byte](b []byte, s T) []byte {
	const hexDigits = "0123456789abcdef"
	for i := 0; i < len(s); {
		// A run of bytes that stand for themselves is copied at once
		// (most of an answer is URLs and names in ASCII).
		j := i
		for j < len(s) && jsonPlain(s[j]) {
			j++
		}
		if j > i {
			b = append(b, s[i:j]...)
			if i = j; i == len(s) {
				break
			}
		}
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, `\n`...)
		case c == '\r':
			b = append(b, `\r`...)
		case c == '\t':
			b = append(b, `\t`...)
		case c == '\b':
			b = append(b, `\b`...)
		case c == '\f':
			b = append(b, `\f`...)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		case c < utf8.RuneSelf:
			b = append(b, c)
		default:
			// (at most 4 bytes made a string: no copy that escapes)
			r, n := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
			if r == '\u2028' || r == '\u2029' { // as encoding/json: safe in JavaScript
				b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			} else {
				b = append(b, s[i:i+n]...)
			}
			i += n
			continue
		}
		i++
	}
	return b
}

// jsonPlain reports whether c is written as it is in a JSON string:
// printable ASCII but the quote and the backslash.
func jsonPlain(c byte) bool { return c >= 0x20 && c < utf8.RuneSelf && c != '"' && c != '\\' }
