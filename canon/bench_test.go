package canon_test

import (
	"strings"
	"testing"

	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/internal/urlcorpus"
)

// corpus is the benchmark corpus: 10,000 generated URLs (internal/urlcorpus).
// bench/ runs the same corpus through net/url and purell.
var corpus = urlcorpus.Generate(10000, 1)

func corpusBytes() (n int64) {
	for _, u := range corpus {
		n += int64(len(u))
	}
	return n / int64(len(corpus))
}

// BenchmarkCanonical: one op is one URL of the corpus through String.
func BenchmarkCanonical(b *testing.B) {
	for _, p := range canon.Profiles() {
		b.Run(p.Name(), func(b *testing.B) {
			c := mustNew(b, p)
			b.ReportAllocs()
			b.SetBytes(corpusBytes())
			i := 0
			for b.Loop() {
				c.String(corpus[i])
				if i++; i == len(corpus) {
					i = 0
				}
			}
		})
	}
}

// BenchmarkAppend: one op is one URL through Append into a reused buffer.
func BenchmarkAppend(b *testing.B) {
	c := mustNew(b, canon.PDF)
	buf := make([]byte, 0, 1024)
	b.ReportAllocs()
	b.SetBytes(corpusBytes())
	i := 0
	for b.Loop() {
		buf, _ = c.Append(buf[:0], corpus[i])
		if i++; i == len(corpus) {
			i = 0
		}
	}
}

// BenchmarkCanonicalWithBase: one op is one URL resolved against a base.
func BenchmarkCanonicalWithBase(b *testing.B) {
	c := mustNew(b, canon.PDF, canon.WithBase("http://a/b/c/d;p?q"))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		c.String(corpus[i])
		if i++; i == len(corpus) {
			i = 0
		}
	}
}

// The corpus is what the benchmark claims it is.
func TestCorpus(t *testing.T) {
	if len(corpus) < 10000 {
		t.Fatalf("corpus has %d URLs, want at least 10,000", len(corpus))
	}
	c := mustNew(t, canon.PDF)
	canonical, failed := 0, 0
	for _, u := range corpus {
		got, err := c.String(u)
		switch {
		case err != nil:
			failed++
		case got == u:
			canonical++
		}
	}
	if canonical < len(corpus)/3 || canonical > len(corpus)*9/10 || failed > len(corpus)/100 {
		t.Errorf("corpus: %d canonical, %d failing of %d: not the mix it claims", canonical, failed, len(corpus))
	}
	t.Logf("corpus: %d URLs, %d already canonical (pdf), %d rejected", len(corpus), canonical, failed)
}

// The fast path never gives a result that the full algorithm does not, nor
// does the algorithm started after the head it found; and it does fire for
// most canonical URLs, with or without a fragment, and finds a head in some
// of the others (so that this test can fail).
func TestFastPathAgrees(t *testing.T) {
	inputs := append([]string{}, corpus...)
	for _, u := range corpus {
		if got, err := canon.RFC3986.Canonical(u); err == nil {
			inputs = append(inputs, got, got+"#f")
		}
		if got, err := canon.PDF.Canonical(u); err == nil {
			inputs = append(inputs, got, got+"#")
		}
	}
	inputs = append(inputs, "http://a?x", "http://a", "http://a:0/", "http://a:00/", "http://a:80/", "http://a:8080",
		"file://localhost/x", "http://a/./b", "http://a/.b", "http://a/b/..", "http://a/b/..?q", "http:/.//x", "http://a/%41",
		"http://a/%zz", "http://A/", "HTTP://a/", "http://a/b#", "http://[::1]/", "http://u@a/", "mailto:a b", "mailto:x@y",
		"http:", "http://", "http:///", "x:/..", "http://a:65536/", "http://a:99999/", "http://a:/",
		"http://a#x", "http://a:8080#x", "http://a/b/.#x", "http://a/b/..#x", "http://a/.#", "http://a/%4#1", "http://a/%#",
		"http://a/b?.#x", "http://a/b?/..#x", "http://a/b#x y", "http://a/b#%zz", "http://a/b#\x01", "mailto:x#y", "x:#",
		"http://a/b# ", "http://a/b#\x00x")
	for _, p := range canon.Profiles() {
		for _, e := range []canon.Encoding{canon.Encoded, canon.Raw} {
			c := mustNew(t, p, canon.WithInput(e))
			fast, fastFrag, canonical, canonicalFrag, heads := 0, 0, 0, 0, 0
			for _, in := range inputs {
				slow, err := c.SlowString(in)
				got, isFast := c.Fast(in)
				if isFast && (err != nil || slow != got) {
					t.Errorf("%s %s: fast path gives %q for %q; the full algorithm gives %q, %v", p, e, got, in, slow, err)
				}
				if h, ok, herr := c.Head(in); ok {
					heads++
					if err != nil || herr != nil || slow != h {
						t.Errorf("%s %s: after the fast path's head, %q gives %q, %v; the full algorithm gives %q, %v",
							p, e, in, h, herr, slow, err)
					}
				}
				frag := strings.HasPrefix(in, slow+"#")
				switch {
				case err == nil && slow == in:
					canonical++
					if isFast {
						fast++
					}
				case err == nil && frag:
					canonicalFrag++
					if isFast {
						fastFrag++
					}
				}
			}
			if fast < canonical*3/4 || fastFrag < canonicalFrag*3/4 || heads < len(inputs)/20 {
				t.Errorf("%s %s: the fast path took %d of %d canonical inputs, %d of %d with a fragment, and a head of %d inputs",
					p, e, fast, canonical, fastFrag, canonicalFrag, heads)
			}
			t.Logf("%s %s: fast path took %d of %d canonical inputs, %d of %d with a fragment, and a head of %d of %d inputs",
				p, e, fast, canonical, fastFrag, canonicalFrag, heads, len(inputs))
		}
	}
}
