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
