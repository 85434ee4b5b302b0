package mirror

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var candidateURLs = []struct {
	url   string
	plain bool
}{
	{"http://www.example.com/", true},
	{"http://www.example.com", true},
	{"https://news.example.org/section-000/story-000001-the-quick-brown-fox.html", true},
	{"https://docs.example.com/section-002/view?id=9&lang=en", true},
	{"http://h/a/?x=1?y", true},
	{"http://h/a?", true},
	{"http://h?q=1", true},
	{"http://127.0.0.1/a.b../c.", true},
	{"http://WWW.Example.COM/A_b~c", true},
	{"http://h:8080/a", false},
	{"http://h/a%20b", false},
	{"http://h/a b", false},
	{"http://h/./a", false},
	{"http://h/../a", false},
	{"http://h//a", false},
	{"http://h/.well-known/x", false},
	{"http://h/a#f", false},
	{"http://h/a?b/c", false},
	{"http://h/a?b#c", false},
	{"http://h/a?\x7f", false},
	{"http://u@h/a", false},
	{"http://-h/a", false},
	{"http://./a", false},
	{"http:///a", false},
	{"file:///etc/passwd", false},
	{"HTTP://h/a", false},
	{"http://h/caf\u00e9", false},
}

// TestPlainCandidate: the plain URLs' one file is the one net/url's parse
// gives (slowCandidates), and the others are left to it.
func TestPlainCandidate(t *testing.T) {
	for _, tc := range candidateURLs {
		got, ok := plainCandidate(tc.url)
		if ok != tc.plain {
			t.Errorf("plainCandidate(%q) plain = %v, want %v", tc.url, ok, tc.plain)
		}
		if want := slowCandidates(tc.url); ok && !reflect.DeepEqual([]string{got}, want) {
			t.Errorf("plainCandidate(%q) = %q; slowCandidates: %q", tc.url, got, want)
		}
	}
}

func FuzzCandidates(f *testing.F) {
	for _, tc := range candidateURLs {
		f.Add(tc.url)
	}
	f.Fuzz(func(t *testing.T, u string) {
		if got, ok := plainCandidate(u); ok {
			if want := slowCandidates(u); !reflect.DeepEqual([]string{got}, want) {
				t.Errorf("plainCandidate(%q) = %q; slowCandidates: %q", u, got, want)
			}
			// ReadFast hands it to the kernel as it is (readBeneath's checks).
			if filepath.Clean(got) != got || !filepath.IsLocal(got) || strings.IndexByte(got, 0) >= 0 {
				t.Errorf("plainCandidate(%q) = %q: not clean and local", u, got)
			}
		}
	})
}
