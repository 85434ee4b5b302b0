package webcapture

import (
	"testing"

	"github.com/webcap/webcap/canon"
)

var resolverURLs = []string{
	"http://www.example.com/a/b.html", "https://h/", "http://h", "http://H/A", "HTTP://h/a",
	"http://h:80/a", "http://h:8080/a", "http://h:99999/a", "http://[::1]/a", "http://[bad/a",
	"http://u@h/a", "http://h/a%zz", "http://h/a%41", "http://h/a b", " http://h/a ", "http://h/../a",
	"http://h/./a", "http://h/a#f", "file:///etc/x", "file://localhost/x", "a/b", "/a", "", "mailto:x@y",
	"http://xn--bcher-kva.example/", "http://b\u00fccher.example/", "http://h/caf\u00e9", "http://%zz/",
	"http://h\x00/", "http://h/\x7f", "ftp://h:21/a", "http://a..b/", "http:", "http://",
}

// resolver's check of a base without a canonicalizer (a page without a
// reference to resolve) fails exactly when canon.New with that base does.
func TestResolverCheck(t *testing.T) {
	for _, u := range resolverURLs {
		checkResolver(t, u)
	}
}

func FuzzResolverCheck(f *testing.F) {
	for _, u := range resolverURLs {
		f.Add(u)
	}
	f.Fuzz(checkResolver)
}

func checkResolver(t *testing.T, u string) {
	for _, p := range []*canon.Profile{nil, canon.PDF, canon.PDF2, canon.RFC3986} {
		opts := PageSetOptions{URL: u, Profile: p}
		var lazy, full PageSetResult
		_, lazyErr := resolver("", opts, &lazy, false)
		c, fullErr := resolver("", opts, &full, true)
		if (lazyErr == nil) != (fullErr == nil) || lazyErr != nil && lazyErr.Error() != fullErr.Error() || lazy.Base != full.Base {
			t.Errorf("resolver(%q, %v): without references %v (base %q), with %v (base %q)", u, p, lazyErr, lazy.Base, fullErr, full.Base)
		}
		if fullErr == nil && u != "" && c == nil {
			t.Errorf("resolver(%q, %v): no canonicalizer", u, p)
		}
	}
}

// A page without references and a page URL that does not canonicalize:
// the error of a page with references.
func TestPageSetIDBadURLWithoutReferences(t *testing.T) {
	_, err := PageSetID([]byte("<p>no references</p>"), PageSetOptions{URL: "http://[bad/a"})
	_, want := PageSetID([]byte(`<p><img src="x.png"></p>`), PageSetOptions{URL: "http://[bad/a"})
	if err == nil || want == nil || err.Error() != want.Error() {
		t.Errorf("PageSetID without references: %v; with: %v", err, want)
	}
}
