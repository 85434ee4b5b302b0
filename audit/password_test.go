package audit

import (
	"strings"
	"testing"

	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// TestWithoutPassword: a URL's password is left out, the rest shown as
// written, whether the URL parses or not.
func TestWithoutPassword(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		has      bool
	}{
		{"http://user:pass@host/", "http://user@host/", true},
		{"http://user@host/", "http://user@host/", false},
		{"http://host/a:b@c", "http://host/a:b@c", false},
		{"http://host/?q=a:b@c", "http://host/?q=a:b@c", false},
		{"http://u:p@ss@h/", "http://u@h/", true},
		{"HTTP://u:p@h", "HTTP://u@h", true},
		{"http://:p@h/", "http://@h/", true},
		{"http://u:@h/", "http://u@h/", true},
		{"http:u:p@h/", "http:u@h/", true}, // WHATWG: a special scheme needs no slashes
		{"http:\\\\u:p@h\\x", "http:\\\\u@h\\x", true},
		{"mailto:u:p@h", "mailto:u:p@h", false},
		{"//u:p@h/x", "//u@h/x", true},
		{"  http://u:p@h/", "  http://u@h/", true},
		{"http://u:p w@h/a b", "http://u@h/a b", true}, // does not parse: still hidden
		{"http://u:%zz@h/", "http://u@h/", true},
		{"http://bob:s3cret-chain@old.example.com/\u202egpj.exe", "http://bob@old.example.com/\u202egpj.exe", true},
		{"a:b@c", "a:b@c", false},
		{"", "", false},
	} {
		got, has := WithoutPassword(tc.in)
		if got != tc.want || has != tc.has {
			t.Errorf("WithoutPassword(%q) = %q, %v; want %q, %v", tc.in, got, has, tc.want, tc.has)
		}
	}
}

// TestWithoutPasswords: every URL in a text loses its password.
func TestWithoutPasswords(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"URLs (http://a:x1@h/, https://b:x2@i/p)", "URLs (http://a@h/, https://b@i/p)"},
		{`"http://u:x1@h/" redirects to "http://v:x2@i"`, `"http://u@h/" redirects to "http://v@i"`},
		{`parse "ftp://u:x1@h": bad`, `parse "ftp://u@h": bad`},
		{"1http://u:x1@h and x://u:x2@h and see //u:x3@h", "1http://u@h and x://u@h and see //u@h"},
		{"no URL a:b@c, http://h/ x:y@z", "no URL a:b@c, http://h/ x:y@z"},
		{"", ""},
	} {
		if got := withoutPasswords(tc.in); got != tc.want {
			t.Errorf("withoutPasswords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestNoPasswordInFindings: a file whose source, alias chain and URLS key
// carry passwords gets findings that show none, its URLs alone, in lists
// (WC-SOURCE-MISSING) or with a raw byte (WC-URL-NONASCII).
func TestNoPasswordInFindings(t *testing.T) {
	d, err := pdfio.ReadBytes(pdfbuild.Credentials("t"), "credentials.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fs := Check(d, Options{Sources: webcapture.MapSource{}})
	rules := map[string]bool{}
	for _, f := range fs {
		rules[f.Rule] = true
		if strings.Contains(f.Message, "s3cret") {
			t.Errorf("%s shows a password: %s", f.Rule, f.Message)
		}
	}
	for _, r := range []string{"WC-URL-PASSWORD", "WC-URL-NONASCII", "WC-SOURCE-MISSING"} {
		if !rules[r] {
			t.Errorf("no %s finding:%s", r, show(fs))
		}
	}
}

// TestWithoutPasswordsLinear: a hostile message (a megabyte of slashes,
// of "//" with an "@" and a ":") costs a pass or two over it, not a
// scan of the rest of a slash run for each "//" in it (quadratic).
func TestWithoutPasswordsLinear(t *testing.T) {
	for _, text := range []string{
		"x@" + strings.Repeat("/", 1<<20),
		strings.Repeat("a://b:c@", 1<<17),
		strings.Repeat("//:@", 1<<18),
		strings.Repeat("a:", 1<<19) + "//u:p@h",
	} {
		if got := withoutPasswords(text); strings.Contains(got, ":p@") || strings.Contains(got, ":c@") {
			t.Errorf("withoutPasswords(%.20q…) leaves a password", text)
		}
	}
}
