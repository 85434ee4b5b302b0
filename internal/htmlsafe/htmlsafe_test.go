package htmlsafe

import "testing"

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
