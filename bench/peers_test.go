// Package bench compares canon with peer URL normalizers on the corpus that
// canon's own benchmarks use (internal/urlcorpus). It is a module of its own
// so that the main module never depends on the peers.
//
//	cd bench && go test -run '^$' -bench . -count 10 | tee new.txt && benchstat new.txt
package bench

import (
	"net/url"
	"testing"

	"github.com/PuerkitoBio/purell"
	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/internal/urlcorpus"
)

var corpus = urlcorpus.Generate(10000, 1)

func loop(b *testing.B, f func(string)) {
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		f(corpus[i])
		if i++; i == len(corpus) {
			i = 0
		}
	}
}

// One op is one URL of the corpus in every benchmark.

func BenchmarkCanonPDF(b *testing.B) {
	c, _ := canon.New(canon.PDF)
	loop(b, func(s string) { c.String(s) })
}

func BenchmarkCanonRFC3986(b *testing.B) {
	c, _ := canon.New(canon.RFC3986)
	loop(b, func(s string) { c.String(s) })
}

func BenchmarkNetURLParseString(b *testing.B) {
	loop(b, func(s string) {
		if u, err := url.Parse(s); err == nil {
			_ = u.String()
		}
	})
}

func BenchmarkNetURLResolveString(b *testing.B) {
	base, _ := url.Parse("http://a/b/c/d;p?q")
	loop(b, func(s string) {
		if u, err := url.Parse(s); err == nil {
			_ = base.ResolveReference(u).String()
		}
	})
}

func BenchmarkPurell(b *testing.B) {
	const flags = purell.FlagsSafe | purell.FlagRemoveDotSegments | purell.FlagRemoveFragment
	loop(b, func(s string) { purell.NormalizeURLString(s, flags) })
}

// The peers see the same corpus: each must accept most of it.
func TestPeersParseCorpus(t *testing.T) {
	bad := 0
	for _, s := range corpus {
		if _, err := url.Parse(s); err != nil {
			bad++
		}
	}
	t.Logf("net/url rejects %d of %d corpus URLs", bad, len(corpus))
	if bad > len(corpus)/10 {
		t.Errorf("net/url rejects %d of %d URLs: the comparison would be unfair", bad, len(corpus))
	}
}
