package capture

import "testing"

func TestWithoutUserinfo(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://h/x", "http://h/x"},
		{"http://alice:s3cret@h:8080/x?a@b#c@d", "http://h:8080/x?a@b#c@d"},
		{"http://a@b@h/", "http://h/"},
		{"http://h/path@at", "http://h/path@at"},
		{"http://h?q=a@b", "http://h?q=a@b"},
		{"http://user@h", "http://h"},
		{"mailto:me@example.com", "mailto:me@example.com"},
		{"", ""},
	} {
		if got := withoutUserinfo(tc.in); got != tc.want {
			t.Errorf("withoutUserinfo(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
