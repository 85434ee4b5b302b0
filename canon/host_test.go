package canon_test

import (
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/webcap/webcap/canon"
)

// A host that is not valid UTF-8, as written or with its escapes read as the
// octets they stand for, is a bad host in every profile and input state, at
// the first byte (or escape) that breaks UTF-8. Before, IDNA read each such
// byte as U+FFFD, so that m\xFCnchen.de and m\xE4nchen.de (Latin-1) shared the
// key http://xn--mnchen-b078a.de/.
func TestHostNotUTF8(t *testing.T) {
	rows := []struct {
		name, base, in string
		offset         int
	}{
		{"latin-1 ü", "", "http://m\xfcnchen.de/", 8},
		{"latin-1 ä", "", "http://m\xe4nchen.de/", 8},
		{"first byte", "", "http://\xfc.de/", 7},
		{"last byte", "", "http://a\xff/", 8},
		{"upper-case host", "", "HTTP://A\xffB/", 8},
		{"truncated", "", "http://a\xc3/", 8},
		{"truncated 3-byte", "", "http://\xe2\x82.de/", 7},
		{"lone continuation", "", "http://\xbc.de/", 7},
		{"overlong", "", "http://\xc0\xaf.de/", 7},
		{"surrogate", "", "http://\xed\xa0\x80.de/", 7},
		{"after a valid character", "", "http://ü\xfc.de/", 9},
		{"with userinfo and port", "", "http://u:p@\xfc.de:8080/x", 11},
		{"escape", "", "http://m%FCnchen.de/", 8},
		{"escape lower-case", "", "http://m%fcnchen.de/", 8},
		{"escape truncated", "", "http://a%C3.de/", 8},
		{"escape then ASCII", "", "http://%c3%28.de/", 7},
		{"escape continues a character", "", "http://ü%BC.de/", 9},
		{"escape starts, byte continues", "", "http://m%C3\xbcnchen.de/", 11},
		{"byte starts, escape continues", "", "http://m\xc3%BCnchen.de/", 8},
		{"escape before a bad byte", "", "http://%FC\xff.de/", 7},
		{"bad byte before an escape", "", "http://\xff%FC.de/", 7},
		{"escape after a bad byte", "", "http://a\xff%FC.de/", 8},
		{"byte completed by an escape, then a bad byte", "", "http://%C3\xbc\xff.de/", 10},
		{"relative reference", "http://a/b", "//m\xfcnchen.de/x", 3},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			for _, p := range canon.Profiles() {
				for _, e := range []canon.Encoding{canon.Encoded, canon.Raw} {
					opts := []canon.Option{canon.WithInput(e)}
					if r.base != "" {
						opts = append(opts, canon.WithBase(r.base))
					}
					got, err := mustNew(t, p, opts...).String(r.in)
					var ce *canon.Error
					if !errors.As(err, &ce) {
						t.Fatalf("%s %s String(%q) = %q, %v; want an *Error", p, e, r.in, got, err)
					}
					if !errors.Is(err, canon.ErrBadHost) || ce.Step != canon.StepHost || ce.Offset != r.offset || ce.Input != r.in ||
						!strings.Contains(ce.Reason, "not valid UTF-8") {
						t.Errorf("%s %s String(%q) error = %#v; want %v at %s, offset %d", p, e, r.in, ce, canon.ErrBadHost, canon.StepHost, r.offset)
					}
				}
			}
		})
	}
	// Hosts that are UTF-8 twice over are as before.
	for _, p := range []*canon.Profile{canon.PDF, canon.PDF2} {
		run(t, mustNew(t, p), []tcase{
			{"utf-8", "http://München.de/", "http://xn--mnchen-3ya.de/"},
			{"escaped utf-8 kept", "http://m%C3%BCnchen.de/", "http://m%C3%BCnchen.de/"},
			{"escaped utf-8 lower-case kept", "http://%e2%82%ac.DE/", "http://%e2%82%ac.de/"},
			{"escaped ascii", "http://%41.de/", "http://%41.de/"},
		})
	}
	run(t, mustNew(t, canon.RFC3986), []tcase{
		{"escaped utf-8", "http://m%c3%bcnchen.de/", "http://m%C3%BCnchen.de/"},
	})
	// A real U+FFFD is a character IDNA disallows, as before.
	if _, err := canon.Canonical("http://\ufffd.de/"); !errors.Is(err, canon.ErrBadHost) {
		t.Errorf("Canonical(%q): %v, want %v", "http://\ufffd.de/", err, canon.ErrBadHost)
	}
}

// The pdf and pdf2 profiles apply UTS #46 of Unicode 15.0.0, whatever the Go
// toolchain: these rows are where later versions differ, so that tables of
// another version fail here (IdnaTestV2 15.0.0 and internal/idna15's test of
// every code point against IdnaMappingTable 15.0.0 check the rest).
func TestIDNAUnicode15(t *testing.T) {
	for _, p := range canon.Profiles() {
		run(t, mustNew(t, p), []tcase{
			// Unicode 15.1 maps U+1E9E (ẞ) to U+00DF (ß), so that later
			// versions give http://xn--zca.de/.
			{"capital sharp s", "http://ẞ.de/", "http://ss.de/"},
			{"capital sharp s in a word", "http://STRAẞE.de/", "http://strasse.de/"},
			// Non-transitional: ß is kept (as in every version since 9.0).
			{"sharp s", "http://faß.de/", "http://xn--fa-hia.de/"},
		})
	}
	// Code points assigned after 15.0.0 are unassigned, so disallowed, here;
	// later versions make them valid or map them.
	for _, r := range []struct{ name, in string }{
		{"15.1 CJK extension I", "http://\U0002EBF0.cn/"},
		{"16.0 Cyrillic capital tje", "http://\u1C89.ru/"},
		{"16.0 Latin capital rams horn", "http://\uA7CB.example/"},
		{"17.0 Tolong Siki", "http://\U00011DB0.in/"},
		{"17.0 CJK extension J", "http://\U000323B0.cn/"},
	} {
		for _, p := range canon.Profiles() {
			if got, err := p.Canonical(r.in); !errors.Is(err, canon.ErrBadHost) {
				t.Errorf("%s: %s Canonical(%+q) = %q, %v; want %v (unassigned in Unicode 15.0.0)", r.name, p, r.in, got, err, canon.ErrBadHost)
			}
		}
	}
}

// canon takes its IDNA from internal/idna15 alone: golang.org/x/net/idna and
// golang.org/x/text's Unicode tables pick their version by the Go toolchain.
func TestIDNAPinnedDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/webcap/webcap/canon").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	deps := strings.Fields(string(out))
	pinned := false
	for _, d := range deps {
		switch {
		case d == "github.com/webcap/webcap/internal/idna15":
			pinned = true
		case strings.HasPrefix(d, "golang.org/x/net/idna"), strings.HasPrefix(d, "golang.org/x/text/"):
			t.Errorf("canon depends on %s, whose Unicode tables follow the Go version", d)
		}
	}
	if !pinned {
		t.Error("canon does not depend on internal/idna15")
	}
}

// The Bidi rule is checked on a label after mapping (UTS #46 §4.1, RFC
// 5893): ℵ (U+2135, Bidi class L) maps to א (U+05D0, class R), so a label
// that mixes it with Latin letters breaks the rule as "aאb" does, and in a
// name with it a label that starts with a digit does too (ICU 72 agrees;
// x/net/idna decided on the class before mapping, golang/go#81525).
func TestBidiAfterMapping(t *testing.T) {
	for _, p := range canon.Profiles() {
		for _, in := range []string{"http://aℵb/", "http://aאb/", "http://1.ℵ/", "http://ℵ.1/", "http://xℶ.de/"} {
			if got, err := p.Canonical(in); !errors.Is(err, canon.ErrBadHost) {
				t.Errorf("%s Canonical(%q) = %q, %v; want %v (the Bidi rule)", p, in, got, err, canon.ErrBadHost)
			}
		}
		run(t, mustNew(t, p), []tcase{
			{"a mapped Hebrew letter alone", "http://ℵ/", "http://xn--4db/"},
			{"as the Hebrew letter (ICU 72: xn--4dbc)", "http://ℵב.il/", "http://xn--4dbc.il/"},
		})
	}
}
