package capture

import (
	"testing"

	"github.com/webcap/webcap/webcapture"
)

func TestInScope(t *testing.T) {
	const (
		site = webcapture.SameSite
		path = webcapture.SamePath
	)
	for _, tc := range []struct {
		initial, candidate string
		flags              webcapture.Flags
		want               bool
	}{
		// The spec's example.
		{"http://www.example.com/fiddle/initial.html", "http://www.example.com/fiddle/faddle/foo.html", path, true},
		{"http://www.example.com/fiddle/initial.html", "http://www.example.com/fiddle/", path, true},
		{"http://www.example.com/fiddle/initial.html", "http://www.example.com/fiddle", path, false},
		{"http://www.example.com/fiddle/initial.html", "http://www.example.com/other/foo.html", path, false},
		// Path: case-sensitive; scheme and network location: not.
		{"http://www.example.com/fiddle/initial.html", "http://www.example.com/Fiddle/foo.html", path, false},
		{"http://www.example.com/fiddle/initial.html", "HTTP://WWW.EXAMPLE.COM/fiddle/foo.html", path, true},
		{"http://www.example.com/fiddle/initial.html", "https://www.example.com/fiddle/foo.html", path, false},
		{"http://www.example.com/fiddle/initial.html", "http://www.example.com:80/fiddle/foo.html", path, true},
		{"http://www.example.com/fiddle/initial.html", "http://www.example.com:8080/fiddle/foo.html", path, false},
		{"http://www.example.com/fiddle/initial.html", "http://other.example.com/fiddle/foo.html", path, false},
		{"http://www.example.com", "http://www.example.com/anything", path, true},
		{"http://www.example.com/a/b/", "http://www.example.com/a/b/c?q=1", path, true},
		// Site: the host and port, any scheme and path.
		{"http://www.example.com/a/", "https://WWW.example.com/z", site, true},
		{"http://www.example.com/a/", "http://www.example.com:81/z", site, false},
		{"http://www.example.com/a/", "http://example.com/z", site, false},
		{"http://[2001:db8::1]/a/", "http://[2001:DB8::1]/b", site, true},
		// Both flags, no flag, unparsable.
		{"http://www.example.com/a/x", "http://www.example.com/b/x", site | path, false},
		{"http://www.example.com/a/x", "http://www.example.com/a/y", site | path, true},
		{"http://www.example.com/a/x", "ftp://elsewhere/", 0, true},
		{"http://www.example.com/a/x", "http://[::1", site, false},
		{"http://www.example.com/a/x", "/relative", site, false},
	} {
		if got := InScope(tc.initial, tc.candidate, tc.flags); got != tc.want {
			t.Errorf("InScope(%q, %q, %v) = %v, want %v", tc.initial, tc.candidate, tc.flags, got, tc.want)
		}
	}
}
