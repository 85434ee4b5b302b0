package htmlsafe

import (
	"strings"
	"testing"
)

func TestWebLink(t *testing.T) {
	for in, want := range map[string]string{
		"https://example.com/a?b#c":     "https://example.com/a?b#c",
		" http://example.com/ ":         "http://example.com/",
		"javascript:alert(1)":           "",
		"JaVaScRiPt:alert(1)":           "",
		"data:text/html,<script>":       "",
		"file:///etc/passwd":            "",
		"http:///no-host":               "",
		"//example.com/scheme-relative": "",
		"not a url\x7f":                 "",
	} {
		if got := WebLink(in); got != want {
			t.Errorf("WebLink(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCSP(t *testing.T) {
	if got, want := CSP("", false), "default-src 'none'; style-src 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='; base-uri 'none'; form-action 'none'"; got != want {
		t.Errorf("CSP = %q, want %q", got, want)
	}
	if got := CSP("", true); got != "default-src 'none'; style-src 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='; img-src data:; base-uri 'none'; form-action 'none'" {
		t.Errorf("CSP with images = %q", got)
	}
}

func TestDisplay(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"printable", "Café <b> \"x\"", "Café <b> \"x\""},
		{"bidi override", "txt.\u202eexe", `"txt.\u202eexe"`},
		{"C0 controls", "a\x00b\nc\x1b[31m", `"a\x00b\nc\x1b[31m"`},
		{"C1 control", "a\u0085b", `"a\u0085b"`},
		{"not UTF-8", "bad\xff.pdf", `"bad\xff.pdf"`},
		{"empty", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Display(tc.in); got != tc.want {
				t.Errorf("Display(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestText: printable text as it is, anything else quoted, a long string
// cut after MaxText characters (not bytes) with how long it was.
func TestText(t *testing.T) {
	long := strings.Repeat("é", MaxText+1)
	for _, tc := range []struct{ in, want string }{
		{"plain <b>", "plain <b>"},
		{"a\u202eb\x01", `"a\u202eb\x01"`},
		{"bad\xff", `"bad\xff"`},
		{strings.Repeat("é", MaxText), strings.Repeat("é", MaxText)},
		{long, strings.Repeat("é", MaxText) + "… (cut: 2,001 characters, the first 2,000 shown)"},
		{strings.Repeat("x", 1<<20), strings.Repeat("x", MaxText) + "… (cut: 1,048,576 characters, the first 2,000 shown)"},
	} {
		if got := Text(tc.in); got != tc.want {
			t.Errorf("Text(%.40q) = %.80q, want %.80q", tc.in, got, tc.want)
		}
	}
}

// TestLink: a URL's text says a password was left out; a cut URL is no
// link.
func TestLink(t *testing.T) {
	for _, tc := range []struct {
		in             string
		password       bool
		text, wantHref string
	}{
		{"http://a@example.com/", true, "http://a@example.com/ (password not shown)", "http://a@example.com/"},
		{"javascript:alert(1)", false, "javascript:alert(1)", ""},
		{"http://example.com/\u202e", false, `"http://example.com/\u202e"`, "http://example.com/%E2%80%AE"},
		{"http://example.com/" + strings.Repeat("a", MaxText), false, "http://example.com/" + strings.Repeat("a", MaxText-19) + "… (cut: 2,019 characters, the first 2,000 shown)", ""},
	} {
		if text, href := Link(tc.in, tc.password); text != tc.text || href != tc.wantHref {
			t.Errorf("Link(%.40q, %v) = %.80q, %q; want %.80q, %q", tc.in, tc.password, text, href, tc.text, tc.wantHref)
		}
	}
}
