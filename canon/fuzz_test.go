package canon_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

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
		"http://m\xfcnchen.de/", "http://m%FCnchen.de/", "http://ü%BC.de/", "http://m%C3\xbcnchen.de/", "//\xe4.de/x",
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
		// A key never comes from a host that is not UTF-8 (IDNA would read
		// each bad byte as U+FFFD, and hosts that differ only there would
		// share a key). Only a key with an authority had a host: before step
		// 7, a path such as "//x" without one reads like an authority.
		for _, st := range ex.Steps {
			if st.Step == canon.StepHost && hostOf(got) != "" {
				if h := hostOf(st.Before); !validHostUTF8(h) {
					t.Fatalf("String(%q) = %q from host %q, which is not valid UTF-8", in, got, h)
				}
			}
		}
		if b, err := c.Append([]byte("x"), in); err != nil || string(b[1:]) != got {
			t.Fatalf("Append(%q) = %q, %v; String = %q", in, b, err, got)
		}
		if b, err := c.AppendBytes(nil, []byte(in)); err != nil || string(b) != got {
			t.Fatalf("AppendBytes(%q) = %q, %v; String = %q", in, b, err, got)
		}
		checkCanonical(t, mustNew(t, p), in, got)
		if fast, ok := c.Fast(in); ok {
			if slow, err := c.SlowString(in); err != nil || slow != fast {
				t.Fatalf("fast path gives %q for %q; the full algorithm gives %q, %v", fast, in, slow, err)
			}
		}
		if h, ok, herr := c.Head(in); ok {
			if slow, err := c.SlowString(in); err != nil || herr != nil || slow != h {
				t.Fatalf("after the fast path's head, %q gives %q, %v; the full algorithm gives %q, %v", in, h, herr, slow, err)
			}
		}
	})
}

// hostOf returns the host of an absolute URL as step 4 sees it: the authority
// after its last '@', without the port.
func hostOf(u string) string {
	_, rest, ok := strings.Cut(u, ":")
	if !ok || !strings.HasPrefix(rest, "//") {
		return ""
	}
	auth := rest[2:]
	if i := strings.IndexAny(auth, "/?#"); i >= 0 {
		auth = auth[:i]
	}
	if i := strings.LastIndexByte(auth, '@'); i >= 0 {
		auth = auth[i+1:]
	}
	if strings.HasPrefix(auth, "[") {
		return auth
	}
	host, _, _ := strings.Cut(auth, ":")
	return host
}

// validHostUTF8 reports whether h is valid UTF-8 as written and with every
// well-formed %XX escape read as the octet it stands for.
func validHostUTF8(h string) bool {
	if !utf8.ValidString(h) {
		return false
	}
	var b []byte
	for i := 0; i < len(h); i++ {
		if h[i] == '%' && i+2 < len(h) && isHexDigit(h[i+1]) && isHexDigit(h[i+2]) {
			v, _ := strconv.ParseUint(h[i+1:i+3], 16, 8)
			b = append(b, byte(v))
			i += 2
			continue
		}
		b = append(b, h[i])
	}
	return utf8.Valid(b)
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
