package cli

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/webcap/webcap/webcapture"
)

func TestBytesJSON(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"ASCII", "http://a/", `"http://a/"`},
		{"UTF-8", "http://a/\u00fc", `"http://a/ü"`},
		{"NUL", "a\x00b", `"a\u0000b"`},
		{"controls", "\b\f\n\r\t\x1f\x7f", `"\b\f\n\r\t\u001f` + "\x7f" + `"`},
		{"quotes and HTML", `"\<&>`, `"\"\\<&>"`},
		{"line separators", "\u2028\u2029", `"\u2028\u2029"`},
		{"Latin-1", "caf\xe9", `{"hex":"636166E9"}`},
		{"bytes that are not UTF-8", "\xff\xfe\xfd", `{"hex":"FFFEFD"}`},
		{"a surrogate in UTF-8", "\xed\xa0\x80", `{"hex":"EDA080"}`},
		{"empty", "", `""`},
		{"escapes between runs", "ab\"cd\\ef\ngh\u2028ij\u00fckl\x01", `"ab\"cd\\ef\ngh\u2028ijükl\u0001"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := marshal(bytesJSON(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("marshal(bytesJSON(%q)) = %s, want %s", tc.in, got, tc.want)
			}
			var back bytesJSON
			if err := json.Unmarshal(got, &back); err != nil || string(back) != tc.in {
				t.Errorf("Unmarshal(%s) = %q, %v, want %q", got, back, err, tc.in)
			}
		})
	}
}

func TestTextJSON(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"PDFDocEncoding", "Nov\xfd", `"Nový"`},
		{"UTF-16BE", "\xfe\xff\x00\xfc", `"ü"`},
		{"UTF-8 with its mark", "\xef\xbb\xbf\xc3\xbc", `"ü"`},
		{"an undefined PDFDocEncoding byte", "Caf\xe9 \x7f", `{"hex":"436166E9207F"}`},
		{"UTF-16 of odd length", "\xfe\xff\x00A\x00", `{"hex":"FEFF004100"}`},
		{"a lone surrogate", "\xfe\xff\xd8\x00", `{"hex":"FEFFD800"}`},
		{"broken UTF-8 after its mark", "\xef\xbb\xbf\xff", `{"hex":"EFBBBFFF"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := marshal(textJSON(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("marshal(textJSON(%q)) = %s, want %s", tc.in, got, tc.want)
			}
			var back textJSON
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatal(err)
			}
			if webcapture.Text(back).String() != webcapture.Text(tc.in).String() {
				t.Errorf("Unmarshal(%s) = %q, which decodes otherwise than %q", got, back, tc.in)
			}
		})
	}
}

// Any bytes round-trip; valid UTF-8 is quoted exactly as encoding/json
// quotes it (HTML escaping off, as the commands' encoders have it).
func FuzzBytesJSON(f *testing.F) {
	for _, s := range []string{"", "http://a/", "caf\xe9", "a\x00b", "\u2028<>&\"\\", "\xed\xa0\x80", "\U0001F600"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := marshal(struct{ S bytesJSON }{bytesJSON(s)})
		if err != nil {
			t.Fatal(err)
		}
		var back struct{ S bytesJSON }
		if err := json.Unmarshal(got, &back); err != nil || string(back.S) != s {
			t.Fatalf("%q: %s reads back as %q, %v", s, got, back.S, err)
		}
		if !utf8.ValidString(s) {
			return
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.Encode(struct{ S string }{s})
		if string(got)+"\n" != want.String() {
			t.Errorf("%q: %s, encoding/json %s", s, got, want.String())
		}
	})
}

// FuzzWriteLargeBytes holds writeLargeBytes, at every chunk size, to
// encoding/json (valid UTF-8: a JSON string, no HTML escaping) and to
// the upper-case hex of its bytes (any other), through a writer that is flushed on the
// way.
func FuzzWriteLargeBytes(f *testing.F) {
	for _, s := range []string{"", "http://a/", "caf\xe9", "a\x00b", "\u2028<>&\"\\", "\xed\xa0\x80", "\U0001F600x\u2029", "\xe2\x80"} {
		f.Add(s, uint8(1))
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, s string, chunk uint8) {
		var want []byte
		if utf8.ValidString(s) {
			var w bytes.Buffer
			enc := json.NewEncoder(&w)
			enc.SetEscapeHTML(false)
			enc.Encode(s)
			want = bytes.TrimSuffix(w.Bytes(), []byte("\n"))
		} else {
			want = []byte(`{"hex":"` + strings.ToUpper(hex.EncodeToString([]byte(s))) + `"}`)
		}
		var out bytes.Buffer
		w := bufio.NewWriterSize(&out, 16)
		b, err := writeLargeBytes([]byte("x"), []byte(s), w, int(chunk)+1)
		if err == nil {
			_, err = w.Write(b)
		}
		if err != nil || w.Flush() != nil {
			t.Fatal(err)
		}
		if got := out.String(); got != "x"+string(want) {
			t.Errorf("writeLargeBytes(%q, chunk %d) = %s, want x%s", s, int(chunk)+1, got, want)
		}
	})
}
