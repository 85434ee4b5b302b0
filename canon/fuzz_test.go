package canon_test

import (
	"errors"
	"testing"

	"github.com/webcap/webcap/canon"
)

// FuzzCanonical checks the properties the package promises of every profile on
// any byte string: no panic; an error is an *Error; a result is printable
// ASCII and canonicalizes to itself as encoded input; String, Append,
// AppendBytes and Explain agree.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{
		"", "http://a/b/c/d;p?q", "HTTP://A:080/./b/../c#x", "../../../g", "file://localhost/x",
		"http://[::FFFF:1.2.3.4]:81/", "http://münchen.de/ü?a b", "http://a:99999/", "http:/.//evil.com/x",
		"http://a/b//../c", "%zz", "http://a/%2e%2E/x", "mailto:a@b", "http://u:p@[v1.x]:0/", "//g",
		"http://a@b@c/", "http://[fe80::1%25eth0]/", "file:///C|/x{}", "\x00\xff http://a/\x80",
	} {
		f.Add(s, "", uint8(0), false)
		f.Add(s, "http://a/b/c/d;p?q", uint8(2), true)
	}
	profiles := canon.Profiles()
	f.Fuzz(func(t *testing.T, in, base string, profile uint8, raw bool) {
		p := profiles[int(profile)%len(profiles)]
		enc := canon.Encoded
		if raw {
			enc = canon.Raw
		}
		opts := []canon.Option{canon.WithInput(enc)}
		if base != "" {
			opts = append(opts, canon.WithBase(base))
		}
		c, err := canon.New(p, opts...)
		if err != nil {
			c = mustNew(t, p, canon.WithInput(enc))
		}
		got, err := c.String(in)
		ex, exErr := c.Explain(in)
		if err != nil {
			var ce *canon.Error
			if !errors.As(err, &ce) {
				t.Fatalf("String(%q): %v is not an *Error", in, err)
			}
			if ce.Offset > len(in) {
				t.Fatalf("String(%q): offset %d is past the input", in, ce.Offset)
			}
			if exErr == nil || exErr.Error() != err.Error() {
				t.Fatalf("Explain(%q) error %v, String error %v", in, exErr, err)
			}
			return
		}
		if exErr != nil || ex.Canonical != got {
			t.Fatalf("Explain(%q) = %q, %v; String = %q", in, ex.Canonical, exErr, got)
		}
		if b, err := c.Append([]byte("x"), in); err != nil || string(b[1:]) != got {
			t.Fatalf("Append(%q) = %q, %v; String = %q", in, b, err, got)
		}
		if b, err := c.AppendBytes(nil, []byte(in)); err != nil || string(b) != got {
			t.Fatalf("AppendBytes(%q) = %q, %v; String = %q", in, b, err, got)
		}
		checkCanonical(t, mustNew(t, p), in, got)
		if c.IsCanonicalFast(in) {
			if slow, err := c.SlowString(in); err != nil || slow != in {
				t.Fatalf("fast path takes %q as canonical; the full algorithm gives %q, %v", in, slow, err)
			}
		}
	})
}
