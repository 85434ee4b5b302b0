package webcapture

import "testing"

// The first six are the sites of the real Acrobat captures
// (../shared/realworld, their outline's site items).
func TestSiteTitle(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"http://www.jamestown.org/", "jamestown.org"},
		{"http://java.sun.com/index.html", "sun.com"},
		{"https://www.nal.usda.gov/x", "usda.gov"},
		{"https://www.fda.gov/", "fda.gov"},
		{"http://osric.com/", "osric.com"},
		{"http://www.openplanetsfoundation.org/", "openplanetsfoundation.org"},
		{"file:///C|/Users/User/Desktop/1.txt", LocalDisk},
		{"FILE:///VBOXSVR/shared/empty.html", LocalDisk},
		{"https://news.bbc.co.uk/a", "bbc.co.uk"},
		{"https://WWW.Example.COM.:8443/", "example.com"},
		{"https://user.github.io/", "user.github.io"}, // a private suffix of the list
		{"https://xn--bcher-kva.example/", "bücher.example"},
		{"https://www.bücher.de/", "bücher.de"},
		{"http://127.0.0.1:8080/", "127.0.0.1"},
		{"http://[::1]:8080/", "[::1]"},
		{"http://localhost/", "localhost"},
		{"https://co.uk/", "co.uk"}, // a public suffix itself
		{"not a url\x7f", "not a url\x7f"},
	} {
		if got := SiteTitle(c.in); got != c.want {
			t.Errorf("SiteTitle(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// A title is PDFDocEncoding when it can be, else UTF-16BE with a BOM, and
// reads back as it was either way.
func TestEncodeTextPDFDoc(t *testing.T) {
	for _, c := range []struct{ in, enc string }{
		{"Plain title", "PDFDocEncoding"},
		{"Café déjà vu", "PDFDocEncoding"},
		{"“Quoted” – dash… €5 • ™", "PDFDocEncoding"},
		{"Ελληνικά", "UTF-16BE"},
		{"日本語のページ", "UTF-16BE"},
		{"mixed é and ω", "UTF-16BE"},
		{"soft\u00adhyphen", "UTF-16BE"}, // 0xAD is undefined in PDFDocEncoding
	} {
		got := EncodeText(c.in)
		if got.Encoding() != c.enc || got.String() != c.in {
			t.Errorf("EncodeText(%q) = %q (%s, reads %q), want %s", c.in, string(got), got.Encoding(), got.String(), c.enc)
		}
	}
	if got := EncodeText("Café"); string(got) != "Caf\xe9" {
		t.Errorf("EncodeText(Café) = %q, want the byte 0xE9", string(got))
	}
}
