// Package urlcorpus generates a realistic, deterministic corpus of URLs for
// benchmarks: the kind of URLs a web capture meets, mostly canonical already,
// with a share of upper-case hosts and schemes, default and odd ports, dot
// segments, escapes, spaces, non-ASCII paths and hosts, IP literals,
// userinfo, queries and fragments. The same seed gives the same corpus on
// every machine and Go version (math/rand/v2 PCG).
package urlcorpus

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

var (
	words = []string{"index.html", "about", "news", "2024", "products", "a-b_c", "~user", "img",
		"style.css", "search", "docs", "en-US", "page.php", "archive", "v1", "api", "files", "report.pdf"}
	labels = []string{"www", "example", "news", "cdn", "static", "mail", "shop", "blog", "docs", "api"}
	tlds   = []string{"com", "org", "net", "de", "co.uk", "io", "fr", "jp"}
	idn    = []string{"bücher", "münchen", "例え", "пример", "ελληνικά"}
	keys   = []string{"q", "id", "page", "lang", "utm_source", "s", "sort", "x"}
	escs   = []string{"%20", "%7e", "%7E", "%2F", "%C3%BC", "%3D", "%25", "%41"}
	nonASC = []string{"ü", "é", "日本", "ñ"}
)

// Generate returns n URLs generated from seed.
func Generate(n int, seed uint64) []string {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	out := make([]string, n)
	var b strings.Builder
	for i := range out {
		b.Reset()
		one(r, &b)
		out[i] = b.String()
	}
	return out
}

func pick(r *rand.Rand, s []string) string { return s[r.IntN(len(s))] }

// chance reports true with probability pct percent.
func chance(r *rand.Rand, pct int) bool { return r.IntN(100) < pct }

func one(r *rand.Rand, b *strings.Builder) {
	scheme := "http"
	switch n := r.IntN(100); {
	case n < 25:
		scheme = "https"
	case n < 30:
		scheme = "ftp"
	case n < 34:
		scheme = "file"
	case n < 36:
		b.WriteString("mailto:" + pick(r, labels) + "@" + pick(r, labels) + "." + pick(r, tlds))
		return
	case n < 39:
		scheme = "HTTP"
	}
	b.WriteString(scheme)
	b.WriteString("://")
	if scheme == "file" {
		if chance(r, 50) {
			b.WriteString("localhost")
		}
	} else {
		host(r, b)
		port(r, b)
	}
	path(r, b)
	if chance(r, 40) {
		query(r, b)
	}
	if chance(r, 10) {
		b.WriteString("#" + pick(r, words))
	}
}

func host(r *rand.Rand, b *strings.Builder) {
	if chance(r, 2) {
		b.WriteString("user:pass@")
	}
	switch n := r.IntN(100); {
	case n < 3:
		b.WriteString(strconv.Itoa(r.IntN(223)+1) + ".0." + strconv.Itoa(r.IntN(256)) + "." + strconv.Itoa(r.IntN(256)))
	case n < 5:
		b.WriteString("[2001:DB8::" + strconv.FormatInt(int64(r.IntN(65536)), 16) + "]")
	case n < 8:
		b.WriteString(pick(r, idn) + "." + pick(r, tlds))
	default:
		h := pick(r, labels) + "." + pick(r, labels) + "." + pick(r, tlds)
		if chance(r, 10) {
			h = strings.ToUpper(h[:1]) + h[1:4] + strings.ToUpper(h[4:])
		}
		b.WriteString(h)
	}
}

func port(r *rand.Rand, b *strings.Builder) {
	switch n := r.IntN(100); {
	case n < 8:
		b.WriteString(":80")
	case n < 10:
		b.WriteString(":080")
	case n < 18:
		b.WriteString(":" + pick(r, []string{"8080", "8443", "3000", "21"}))
	}
}

func path(r *rand.Rand, b *strings.Builder) {
	segs := r.IntN(6)
	for range segs {
		b.WriteByte('/')
		switch n := r.IntN(100); {
		case n < 5:
			b.WriteString(".")
		case n < 10:
			b.WriteString("..")
		case n < 15:
			b.WriteString(pick(r, words) + pick(r, escs) + pick(r, words))
		case n < 18:
			b.WriteString(pick(r, words) + pick(r, nonASC))
		case n < 20:
			b.WriteString(pick(r, words) + " " + pick(r, words))
		default:
			b.WriteString(pick(r, words))
		}
	}
	if segs == 0 || chance(r, 20) {
		b.WriteByte('/')
	}
}

func query(r *rand.Rand, b *strings.Builder) {
	b.WriteByte('?')
	for i := range r.IntN(4) + 1 {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(pick(r, keys) + "=" + pick(r, words))
		if chance(r, 10) {
			b.WriteString(pick(r, escs))
		}
	}
}
