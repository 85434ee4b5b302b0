package canon_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/webcap/webcap/canon"
)

type tcase struct {
	name, in, want string
}

func run(t *testing.T, c *canon.Canonicalizer, cases []tcase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := c.String(tc.in)
			if err != nil {
				t.Fatalf("%s String(%q): %v, want %q", c.Profile(), tc.in, err, tc.want)
			}
			if got != tc.want {
				t.Errorf("%s String(%q) = %q, want %q", c.Profile(), tc.in, got, tc.want)
			}
		})
	}
}

func mustNew(t testing.TB, p *canon.Profile, opts ...canon.Option) *canon.Canonicalizer {
	t.Helper()
	c, err := canon.New(p, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// RFC 3986 §5.4.1 and §5.4.2 (and RFC 1808 §5.1/§5.2, RFC 2396 App. C) with
// base http://a/b/c/d;p?q. Fragments are then stripped by step 2. The rows
// where the RFCs disagree get each profile's answer from the package's decisions (doc.go).
func TestResolutionExamples(t *testing.T) {
	const base = "http://a/b/c/d;p?q"
	same := []struct{ ref, want string }{
		{"g:h", "g:h"},
		{"g", "http://a/b/c/g"},
		{"./g", "http://a/b/c/g"},
		{"g/", "http://a/b/c/g/"},
		{"/g", "http://a/g"},
		{"?y", "http://a/b/c/d;p?y"}, // RFC 2396 alone says http://a/b/c/?y
		{"g?y", "http://a/b/c/g?y"},
		{"#s", "http://a/b/c/d;p?q"},
		{"g#s", "http://a/b/c/g"},
		{"g?y#s", "http://a/b/c/g?y"},
		{";x", "http://a/b/c/;x"}, // RFC 1808: http://a/b/c/d;x
		{"g;x", "http://a/b/c/g;x"},
		{"g;x?y#s", "http://a/b/c/g;x?y"},
		{"", "http://a/b/c/d;p?q"},
		{".", "http://a/b/c/"},
		{"./", "http://a/b/c/"},
		{"..", "http://a/b/"},
		{"../", "http://a/b/"},
		{"../g", "http://a/b/g"},
		{"../..", "http://a/"},
		{"../../", "http://a/"},
		{"../../g", "http://a/g"},
		{"/./g", "http://a/g"}, // RFC 1808/2396: http://a/./g (their step 5); PDF step 7 removes it
		{"g.", "http://a/b/c/g."},
		{".g", "http://a/b/c/.g"},
		{"g..", "http://a/b/c/g.."},
		{"..g", "http://a/b/c/..g"},
		{"./../g", "http://a/b/g"},
		{"./g/.", "http://a/b/c/g/"},
		{"g/./h", "http://a/b/c/g/h"},
		{"g/../h", "http://a/b/c/h"},
		{"g;x=1/./y", "http://a/b/c/g;x=1/y"},
		{"g;x=1/../y", "http://a/b/c/y"},
		{"g?y/./x", "http://a/b/c/g?y/./x"},
		{"g?y/../x", "http://a/b/c/g?y/../x"},
		{"g#s/./x", "http://a/b/c/g"},
		{"g#s/../x", "http://a/b/c/g"},
		{"http:g", "http:g"}, // strict parsing
		{"http:", "http:"},
	}
	differ := []struct{ ref, pdf, rfc3986 string }{
		{"//g", "http://g", "http://g"}, // rfc3986 alone: empty path becomes "/" (below)
		{"../../../g", "http://a/../g", "http://a/g"},
		{"../../../../g", "http://a/../../g", "http://a/g"},
		{"/../g", "http://a/../g", "http://a/g"},
	}
	for _, p := range canon.Profiles() {
		c := mustNew(t, p, canon.WithBase(base))
		var cases []tcase
		for _, r := range same {
			cases = append(cases, tcase{"ref=" + r.ref, r.ref, r.want})
		}
		for _, r := range differ {
			want := r.rfc3986
			switch {
			case p == canon.PDF:
				want = r.pdf
			case p == canon.RFC3986 && r.ref == "//g":
				want = "http://g/" // RFC 3986 §6.2.3
			}
			cases = append(cases, tcase{"ref=" + r.ref, r.ref, want})
		}
		t.Run(p.Name(), func(t *testing.T) { run(t, c, cases) })
	}
}

// RFC 1808 §5.1 uses the base http://a/b/c/d;p?q#f: the base's fragment is
// never inherited (RFC 3986 §5.2.2), so the empty reference gives ...?q.
func TestBaseFragmentNotInherited(t *testing.T) {
	c := mustNew(t, canon.PDF, canon.WithBase("http://a/b/c/d;p?q#f"))
	run(t, c, []tcase{{"empty", "", "http://a/b/c/d;p?q"}, {"g", "g", "http://a/b/c/g"}})
}

// Step 7 under each rule. PDF: RFC 1808 §4 step 6 a–d on the path without its
// leading '/'. PDF2 and RFC3986: RFC 3986 §5.2.4 remove_dot_segments.
func TestDotSegments(t *testing.T) {
	rows := []struct{ in, pdf, rfc string }{
		{"http://a/./g", "http://a/g", "http://a/g"},
		{"http://a/../g", "http://a/../g", "http://a/g"},
		{"http://a/b/..", "http://a/", "http://a/"},
		{"http://a/b/.", "http://a/b/", "http://a/b/"},
		{"http://a/b/c/../../../g", "http://a/../g", "http://a/g"},
		{"http://a/..", "http://a/..", "http://a/"},
		{"http://a/../..", "http://a/../..", "http://a/"},
		{"http://a/../a/..", "http://a/../", "http://a/"},
		{"http://a/b//../c", "http://a/b/c", "http://a/b/c"}, // rule 8: empty segments are complete
		{"http://a//../g", "http://a/g", "http://a/g"},
		{"http://a/b/./../c", "http://a/c", "http://a/c"},
		{"http://a/a/b/c/./../../g", "http://a/a/g", "http://a/a/g"}, // RFC 3986 §5.2.4 worked example
		{"http://a/mid/content=5/../6", "http://a/mid/6", "http://a/mid/6"},
		{"http://a/...", "http://a/...", "http://a/..."},
		{"http://a/.../..", "http://a/", "http://a/"},
		{"http://a/%2E%2E/g", "http://a/%2E%2E/g", "http://a/g"}, // rfc3986 decodes before step 7
		{"http://a/b/%2e./g", "http://a/b/%2e./g", "http://a/g"},
		{"file:///../x", "file:///../x", "file:///x"},
		{"foo:/a/../b", "foo:/b", "foo:/b"},
		{"mailto:a/../b", "mailto:a/../b", "mailto:a/../b"}, // not hierarchical
		{"urn:x:./y", "urn:x:./y", "urn:x:./y"},
		{"http:/.//evil.com/x", "http:/.//evil.com/x", "http:/.//evil.com/x"}, // rule 9
		{"http:/a/..//evil.com/x", "http:/.//evil.com/x", "http:/.//evil.com/x"},
		{"http:/..//x", "http:/..//x", "http:/.//x"},
	}
	for _, p := range canon.Profiles() {
		var cases []tcase
		for _, r := range rows {
			want := r.rfc
			if p == canon.PDF {
				want = r.pdf
			} else if p == canon.PDF2 && strings.Contains(r.in, "%") {
				want = r.pdf // pdf2 does not decode escapes
			}
			cases = append(cases, tcase{r.in, r.in, want})
		}
		t.Run(p.Name(), func(t *testing.T) { run(t, mustNew(t, p), cases) })
	}
}

func TestTrimFragmentScheme(t *testing.T) {
	run(t, mustNew(t, canon.PDF), []tcase{
		{"trim spaces", "  http://a/b  ", "http://a/b"},
		{"trim controls", "\t\n\x00http://a/b\r\n\x1f", "http://a/b"},
		{"inner space encoded", "http://a/b c", "http://a/b%20c"},
		{"fragment", "http://a/b#c", "http://a/b"},
		{"leftmost hash", "http://a/b#c#d", "http://a/b"},
		{"hash in query", "http://a/b?x#y?z", "http://a/b?x"},
		{"empty fragment", "http://a/b#", "http://a/b"},
		{"scheme case", "HtTp://a/", "http://a/"},
		{"scheme chars", "A+B-C.D://a/", "a+b-c.d://a/"},
		{"path case kept", "http://a/Path/CASE", "http://a/Path/CASE"},
		{"query case kept", "http://a/?Q=A", "http://a/?Q=A"},
		{"empty query kept", "http://a/b?", "http://a/b?"},
		{"no path", "http://a", "http://a"},
		{"no path query", "http://a?x", "http://a?x"},
		{"opaque", "mailto:Joe@Example.COM", "mailto:Joe@Example.COM"},
		{"urn", "URN:ISBN:0-395-36341-1", "urn:ISBN:0-395-36341-1"},
	})
}

func TestHost(t *testing.T) {
	run(t, mustNew(t, canon.PDF), []tcase{
		{"lower", "http://WWW.Example.COM/", "http://www.example.com/"},
		{"idna", "http://München.DE/", "http://xn--mnchen-3ya.de/"},
		{"idna mapped", "http://ＥＸＡＭＰＬＥ．com/", "http://example.com/"},
		{"idna label", "http://bücher.example/", "http://xn--bcher-kva.example/"},
		{"escape keeps case pdf", "http://%c3%BCx.Example/", "http://%c3%BCx.example/"},
		{"ipv6 lower", "http://[2001:DB8::A]/", "http://[2001:db8::a]/"},
		{"ipv6 not compressed", "http://[2001:0DB8:0:0:0:0:0:1]/", "http://[2001:0db8:0:0:0:0:0:1]/"},
		{"ipv6 v4", "http://[::FFFF:192.0.2.1]:8080/", "http://[::ffff:192.0.2.1]:8080/"},
		{"ipv6 zone", "http://[FE80::1%25Eth0]/", "http://[fe80::1%25Eth0]/"},
		{"ipvfuture", "http://[V7.Ab:C]/", "http://[v7.ab:c]/"},
		{"ipv4", "http://192.0.2.1/", "http://192.0.2.1/"},
		{"userinfo case kept", "http://User:PaSS@Host/", "http://User:PaSS@host/"},
		{"userinfo encoded", "http://us er@h/", "http://us%20er@h/"},
		{"userinfo last at", "http://a@b@c/", "http://a@b@c/"},
		{"empty userinfo", "http://@a/", "http://@a/"},
		{"empty host", "http:///x", "http:///x"},
		{"sub-delims", "http://a!$&'()*+,;=b/", "http://a!$&'()*+,;=b/"},
		{"file localhost", "file://localhost/etc/x", "file:///etc/x"},
		{"file LOCALHOST", "FILE://LocalHost/x", "file:///x"},
		{"file other host", "file://server/x", "file://server/x"},
		{"http localhost kept", "http://localhost/x", "http://localhost/x"},
		{"file localhost.", "file://localhost./x", "file://localhost./x"},
	})
	run(t, mustNew(t, canon.RFC3986), []tcase{
		{"escape normalized", "http://%c3%BCx.%45xample/", "http://%C3%BCx.example/"},
		{"ipv6", "http://[2001:DB8::A]", "http://[2001:db8::a]/"},
	})
}

func TestPort(t *testing.T) {
	pdf := []tcase{
		{"http 80", "http://a:80/", "http://a/"},
		{"http 080", "http://a:080/", "http://a/"},
		{"http 00080", "HTTP://a:00080/", "http://a/"},
		{"ftp 21", "ftp://a:21/x", "ftp://a/x"},
		{"https 443 kept", "https://a:443/", "https://a:443/"},
		{"http 8080", "http://a:8080/", "http://a:8080/"},
		{"leading zeros", "http://a:0081/", "http://a:81/"},
		{"zero", "http://a:000/", "http://a:0/"},
		{"empty", "http://a:/", "http://a/"},
		{"ftp 80 kept", "ftp://a:80/", "ftp://a:80/"},
		{"max", "http://a:65535/", "http://a:65535/"},
		{"with userinfo", "http://u:p@a:80/", "http://u:p@a/"},
		{"ipv6 port", "http://[::1]:80/", "http://[::1]/"},
	}
	run(t, mustNew(t, canon.PDF), pdf)
	run(t, mustNew(t, canon.RFC3986), []tcase{
		{"https 443", "https://a:443/", "https://a/"},
		{"ws 80", "ws://a:80/", "ws://a/"},
		{"wss 443", "wss://a:0443/", "wss://a/"},
		{"ftp 21", "ftp://a:21/", "ftp://a/"},
		{"https 80 kept", "https://a:80/", "https://a:80/"},
	})
}

// The one-encoding-pass assumption: the "encoded" and "raw" input states (doc.go).
func TestEncoding(t *testing.T) {
	enc := []struct{ name, in, pdf, rfc string }{
		{"escape kept", "http://a/%7e%7E", "http://a/%7e%7E", "http://a/~~"},
		{"reserved escape kept", "http://a/%2f%2F%3f%23%25%26", "http://a/%2f%2F%3f%23%25%26", "http://a/%2F%2F%3F%23%25%26"},
		{"space", "http://a/b c", "http://a/b%20c", "http://a/b%20c"},
		{"controls", "http://a/\x01\x7f", "http://a/%01%7F", "http://a/%01%7F"},
		{"non-ascii", "http://a/ü", "http://a/%C3%BC", "http://a/%C3%BC"},
		{"invalid utf-8", "http://a/\xff\xc3", "http://a/%FF%C3", "http://a/%FF%C3"},
		{"quote lt gt", `http://a/"<>`, "http://a/%22%3C%3E", "http://a/%22%3C%3E"},
		{"lone percent", "http://a/100%", "http://a/100%25", "http://a/100%25"},
		{"bad escape", "http://a/%zz%4", "http://a/%25zz%254", "http://a/%25zz%254"},
		{"rfc1738 unsafe", "file:///C|/a{b}\\^~[x]`", "file:///C|/a{b}\\^~[x]`", "file:///C%7C/a%7Bb%7D%5C%5E~%5Bx%5D%60"},
		{"query", "http://a/?q=a b&c=ü", "http://a/?q=a%20b&c=%C3%BC", "http://a/?q=a%20b&c=%C3%BC"},
		{"query escapes", "http://a/?%41%2b", "http://a/?%41%2b", "http://a/?A%2B"},
		{"userinfo", "http://%75ser:p%40ss ü@a/", "http://%75ser:p%40ss%20%C3%BC@a/", "http://user:p%40ss%20%C3%BC@a/"},
		{"opaque", "mailto:a b@c", "mailto:a%20b@c", "mailto:a%20b@c"},
	}
	raw := []struct{ name, in, pdf, rfc string }{
		{"percent", "http://a/100%", "http://a/100%25", "http://a/100%25"},
		{"escape-like", "http://a/%41%zz", "http://a/%2541%25zz", "http://a/%2541%25zz"},
		{"space", "http://a/b c?d e", "http://a/b%20c?d%20e", "http://a/b%20c?d%20e"},
		{"rfc1738 unsafe", "file:///C|/x{}", "file:///C|/x{}", "file:///C%7C/x%7B%7D"},
		{"delimiters keep role", "http://u:p@a/b?c=d/e:f@g", "http://u:p@a/b?c=d/e:f@g", "http://u:p@a/b?c=d/e:f@g"},
		{"non-ascii", "http://a/ü", "http://a/%C3%BC", "http://a/%C3%BC"},
	}
	for _, p := range canon.Profiles() {
		pick := func(pdf, rfc string) string {
			if p == canon.RFC3986 {
				return rfc
			}
			return pdf
		}
		var ce, cr []tcase
		for _, r := range enc {
			ce = append(ce, tcase{r.name, r.in, pick(r.pdf, r.rfc)})
		}
		for _, r := range raw {
			cr = append(cr, tcase{r.name, r.in, pick(r.pdf, r.rfc)})
		}
		t.Run(p.Name()+"/encoded", func(t *testing.T) { run(t, mustNew(t, p), ce) })
		t.Run(p.Name()+"/raw", func(t *testing.T) { run(t, mustNew(t, p, canon.WithInput(canon.Raw)), cr) })
	}
}

// A real Acrobat key must canonicalize to itself.
func TestRealKeysAreFixedPoints(t *testing.T) {
	keys := []string{
		"file:///C|/Users/x/ToBeSigned.txt",
		"http://www.example.com/",
		"http://www.adobe.com/products/acrobat/readstep2.html",
		"http://a/b%20c?d=%7e",
	}
	for _, k := range keys {
		for _, e := range []canon.Encoding{canon.Encoded, canon.Raw} {
			if strings.Contains(k, "%") && e == canon.Raw {
				continue
			}
			got, err := mustNew(t, canon.PDF, canon.WithInput(e)).String(k)
			if err != nil || got != k {
				t.Errorf("pdf %s String(%q) = %q, %v; want it unchanged", e, k, got, err)
			}
		}
	}
}

func TestRFC3986Section6(t *testing.T) {
	run(t, mustNew(t, canon.RFC3986), []tcase{
		{"6.2.2", "eXAMPLE://a/./b/../b/%63/%7bfoo%7d", "example://a/b/c/%7Bfoo%7D"},
		{"6.2.2.1", "HTTP://www.EXAMPLE.com/", "http://www.example.com/"},
		{"6.2.2.2", "http://example.com/%7Esmith/%41%2d%2E%5f", "http://example.com/~smith/A-._"},
		{"6.2.3 empty path", "http://example.com", "http://example.com/"},
		{"6.2.3 port", "http://example.com:/", "http://example.com/"},
		{"6.2.3 port 80", "http://example.com:80/", "http://example.com/"},
	})
	c := mustNew(t, canon.RFC3986, canon.WithBase("http://x/"))
	run(t, c, []tcase{
		// RFC 3986 §5.2.2 removes dot segments of the merged path as
		// written; "%2E%2E" is a segment like any other there.
		{"relative", "a/%2E%2E/../b", "http://x/a/b"},
		{"absolute", "http://x/a/%2E%2E/../b", "http://x/b"},
	})
}

func TestErrors(t *testing.T) {
	rows := []struct {
		name, base, in string
		sentinel       error
		step           canon.Step
		offset         int
	}{
		{"no base", "", "g/h", canon.ErrNoBase, canon.StepAbsolute, 0},
		{"no base trimmed", "", "  ../g", canon.ErrNoBase, canon.StepAbsolute, 2},
		{"empty no base", "", "", canon.ErrNoBase, canon.StepAbsolute, 0},
		{"opaque base", "mailto:x@y", "g", canon.ErrOpaqueBase, canon.StepAbsolute, 0},
		{"port letters", "", "http://a:8x/", canon.ErrBadPort, canon.StepPort, 10},
		{"port too big", "", "http://a:65536/", canon.ErrBadPort, canon.StepPort, 9},
		{"port huge", "", "http://a:99999999999999999999999/", canon.ErrBadPort, canon.StepPort, 9},
		{"port sign", "", "http://a:-1/", canon.ErrBadPort, canon.StepPort, 9},
		{"two colons", "", "http://a:1:2/", canon.ErrBadPort, canon.StepPort, 10},
		{"host space", "", "http://a b/", canon.ErrBadHost, canon.StepHost, 8},
		{"host lt", "", "http://a<b/", canon.ErrBadHost, canon.StepHost, 8},
		{"host bad escape", "", "http://a%zz/", canon.ErrBadHost, canon.StepHost, 8},
		{"host bracket", "", "http://a[b]/", canon.ErrBadHost, canon.StepHost, 8},
		{"host idna", "", "http://a\u200db.com/", canon.ErrBadHost, canon.StepHost, 7}, // ZWJ fails CheckJoiners
		{"idna to at", "", "http://a＠b/", canon.ErrBadHost, canon.StepHost, 7},
		{"userinfo bracket", "", "http://u[@a/", canon.ErrBadHost, canon.StepHost, 8},
		{"unclosed", "", "http://[::1/", canon.ErrBadIPv6, canon.StepHost, 7},
		{"not ipv6", "", "http://[1.2.3.4]/", canon.ErrBadIPv6, canon.StepHost, 7},
		{"ipv6 junk", "", "http://[::1]x/", canon.ErrBadIPv6, canon.StepHost, 12},
		{"ipv6 bad", "", "http://[::g]/", canon.ErrBadIPv6, canon.StepHost, 7},
		{"ipv6 too long", "", "http://[1:2:3:4:5:6:7:8:9]/", canon.ErrBadIPv6, canon.StepHost, 7},
		{"ipv6 empty zone", "", "http://[fe80::1%25]/", canon.ErrBadIPv6, canon.StepHost, 7},
		{"ipv6 raw zone", "", "http://[fe80::1%eth0]/", canon.ErrBadIPv6, canon.StepHost, 7},
		{"ipv6 zone not utf-8", "", "http://[fe80::1%25%80]/", canon.ErrBadIPv6, canon.StepHost, 7},
		{"ipvfuture bad", "", "http://[v.x]/", canon.ErrBadIPv6, canon.StepHost, 7},
		{"relative authority bad port", "http://a/", "//b:x/", canon.ErrBadPort, canon.StepPort, 4},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			var opts []canon.Option
			if r.base != "" {
				opts = append(opts, canon.WithBase(r.base))
			}
			for _, p := range canon.Profiles() {
				got, err := mustNew(t, p, opts...).String(r.in)
				var ce *canon.Error
				if !errors.As(err, &ce) {
					t.Fatalf("%s String(%q) = %q, %v; want an *Error", p, r.in, got, err)
				}
				if !errors.Is(err, r.sentinel) || ce.Step != r.step || ce.Offset != r.offset || ce.Input != r.in || ce.Reason == "" {
					t.Errorf("%s String(%q) error = %#v; want %v at %s, offset %d", p, r.in, ce, r.sentinel, r.step, r.offset)
				}
				if !strings.Contains(err.Error(), ce.Reason) {
					t.Errorf("Error() = %q does not hold the reason", err)
				}
			}
		})
	}
}

func TestBadBase(t *testing.T) {
	for _, base := range []string{"relative/path", "http://a:99999/", "http://[::1/"} {
		if _, err := canon.New(canon.PDF, canon.WithBase(base)); err == nil {
			t.Errorf("New(WithBase(%q)) = nil error, want one", base)
		}
	}
	// A base with whitespace around it is trimmed like any input.
	c := mustNew(t, canon.PDF, canon.WithBase(" http://A/b/c \n"))
	run(t, c, []tcase{{"trimmed base", "d", "http://a/b/d"}})
}

func TestAppendLeavesDstOnError(t *testing.T) {
	c := mustNew(t, canon.PDF)
	dst := []byte("prefix ")
	out, err := c.Append(dst, "http://a:x/")
	if err == nil || string(out) != "prefix " {
		t.Errorf("Append on error = %q, %v; want the prefix back and an error", out, err)
	}
	out, err = c.Append(out, "HTTP://A/")
	if err != nil || string(out) != "prefix http://a/" {
		t.Errorf("Append = %q, %v", out, err)
	}
}

func TestAppendBytesDoesNotRetainInput(t *testing.T) {
	c := mustNew(t, canon.PDF)
	in := []byte("http://a:x/")
	_, err := c.AppendBytes(nil, in)
	copy(in, "XXXXXXXXXXX")
	var ce *canon.Error
	if !errors.As(err, &ce) || ce.Input != "http://a:x/" {
		t.Errorf("error input after the caller reused its buffer = %#v", ce)
	}
}

func TestAllocations(t *testing.T) {
	c := mustNew(t, canon.PDF)
	canonical := "http://www.example.com/a/b/c.html?x=1&y=2"
	long := "http://www.example.com/" + strings.Repeat("abcdefgh/", 200)
	longFrag := long + "#frag"
	huge := "http://a/" + strings.Repeat("x y/", 1000) // past the pooled buffer
	input := []byte("HTTP://A/b")
	buf := make([]byte, 0, 4096)
	for _, tc := range []struct {
		name string
		f    func()
		max  float64
	}{
		{"String canonical", func() { c.String(canonical) }, 0},
		{"String canonical port", func() { c.String("http://www.example.com:8080/a") }, 0},
		{"Canonical canonical", func() { canon.Canonical(canonical) }, 0},
		{"Profile.Canonical canonical", func() { canon.RFC3986.Canonical(canonical) }, 0},
		{"Profile.Canonical not canonical", func() { canon.RFC3986.Canonical("HTTP://A") }, 1},
		{"String long canonical", func() { c.String(long) }, 0},
		{"String not canonical", func() { c.String("HTTP://WWW.Example.com:80/a/./b/../c#f") }, 1},
		{"String long not canonical", func() { c.String(longFrag) }, 1},
		{"String huge not canonical", func() { c.String(huge) }, 1},
		{"String idna", func() { c.String("http://bücher.example/") }, 1 << 10},
		{"Append canonical", func() { buf, _ = c.Append(buf[:0], canonical) }, 0},
		{"Append not canonical", func() { buf, _ = c.Append(buf[:0], "HTTP://A:80/b/../c d#x") }, 0},
		{"AppendBytes", func() { buf, _ = c.AppendBytes(buf[:0], input) }, 0},
	} {
		if got := testing.AllocsPerRun(200, tc.f); got > tc.max {
			t.Errorf("%s: %v allocations per run, want at most %v", tc.name, got, tc.max)
		}
	}
}

func TestExplain(t *testing.T) {
	c := mustNew(t, canon.PDF, canon.WithBase("http://a/b/c/d;p?q"))
	ex, err := c.Explain(" HTTP://User@WWW.Example.COM:080/a/./b/../ü#frag ")
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ number, after string }{
		{"0", "HTTP://User@WWW.Example.COM:080/a/./b/../ü#frag"},
		{"1", "HTTP://User@WWW.Example.COM:080/a/./b/../ü#frag"},
		{"2", "HTTP://User@WWW.Example.COM:080/a/./b/../ü"},
		{"3", "http://User@WWW.Example.COM:080/a/./b/../ü"},
		{"4", "http://User@www.example.com:080/a/./b/../ü"},
		{"5", "http://User@www.example.com:080/a/./b/../ü"},
		{"6", "http://User@www.example.com/a/./b/../ü"},
		{"E", "http://User@www.example.com/a/./b/../%C3%BC"},
		{"7", "http://User@www.example.com/a/%C3%BC"},
	}
	if len(ex.Steps) != len(want) {
		t.Fatalf("Explain gave %d steps, want %d", len(ex.Steps), len(want))
	}
	for i, w := range want {
		s := ex.Steps[i]
		if s.Step.Number() != w.number || s.After != w.after {
			t.Errorf("step %d = %s %q, want %s %q", i, s.Step.Number(), s.After, w.number, w.after)
		}
		if i > 0 && s.Before != ex.Steps[i-1].After {
			t.Errorf("step %s starts from %q, not the previous result", s.Step.Number(), s.Before)
		}
	}
	if got, _ := c.String(ex.Input); ex.Canonical != got {
		t.Errorf("Explain result %q != String result %q", ex.Canonical, got)
	}
	// A relative reference is resolved in step 1, dots included.
	ex, _ = c.Explain("../g")
	if ex.Steps[1].After != "http://a/b/g" {
		t.Errorf("step 1 of ../g = %q", ex.Steps[1].After)
	}
	// A failing step ends the explanation.
	ex, err = c.Explain("http://a:x/")
	if err == nil || len(ex.Steps) != 6 || ex.Canonical != "" {
		t.Errorf("Explain of a bad port: %d steps, %q, %v; want steps 0-5 and the error", len(ex.Steps), ex.Canonical, err)
	}
}

func TestParseProfileAndEncoding(t *testing.T) {
	for _, n := range []string{"pdf", "pdf2", "rfc3986"} {
		p, err := canon.ParseProfile(n)
		if err != nil || p.Name() != n {
			t.Errorf("ParseProfile(%q) = %v, %v", n, p, err)
		}
	}
	if _, err := canon.ParseProfile("PDF3"); err == nil {
		t.Error("ParseProfile(PDF3) succeeded")
	}
	for _, n := range []string{"encoded", "raw"} {
		e, err := canon.ParseEncoding(n)
		if err != nil || e.String() != n {
			t.Errorf("ParseEncoding(%q) = %v, %v", n, e, err)
		}
	}
	if _, err := canon.ParseEncoding("twice"); err == nil {
		t.Error("ParseEncoding(twice) succeeded")
	}
}

func TestLongInputs(t *testing.T) {
	c := mustNew(t, canon.PDF)
	for _, n := range []int{10, 170, 171, 1000, 1400, 5000} {
		in := "HTTP://A/" + strings.Repeat("ü", n)
		want := "http://a/" + strings.Repeat("%C3%BC", n)
		if got, err := c.String(in); err != nil || got != want {
			t.Errorf("String of %d bytes: %d bytes, %v; want %d bytes", len(in), len(got), err, len(want))
		}
	}
}
