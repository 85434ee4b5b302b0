package pdfbuild

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
)

// HostileSamples names the crafted files Hostile builds: files meant to make
// a reader crash, hang or exhaust memory.
func HostileSamples() []string {
	names := make([]string, 0, len(hostile))
	for n := range hostile {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Hostile builds a named crafted file.
func Hostile(name string) ([]byte, error) {
	f, ok := hostile[name]
	if !ok {
		return nil, fmt.Errorf("pdfbuild: no hostile sample %q (have %v)", name, HostileSamples())
	}
	return f(), nil
}

var hostile = map[string]func() []byte{
	// An IDS tree whose /Kids point back at the root and at each other.
	"cyclic-kids": func() []byte {
		b := New()
		pagesRoot, _ := b.PageTree(1, nil)
		root, a := b.Reserve(), b.Reserve()
		b.Set(a, D("Limits", Array{Lit("a"), Lit("z")}, "Kids", Array{root, a}))
		b.Set(root, D("Kids", Array{a}))
		names := b.Add(D("IDS", root))
		b.Root = b.Add(D("Type", Name("Catalog"), "Pages", pagesRoot, "Names", names, "SpiderInfo", D("V", 1.25)))
		return b.Bytes()
	},
	// Dictionaries nested 5,000 deep, and a malformed nesting never closed.
	"deep-nesting": func() []byte {
		b := New()
		pagesRoot, _ := b.PageTree(1, nil)
		deep := b.Add(Raw(strings.Repeat("<</A ", 5000) + strings.Repeat(">>", 5000)))
		b.Add(Raw(strings.Repeat("<</A [", 200)))
		b.Root = b.Add(D("Type", Name("Catalog"), "Pages", pagesRoot, "SpiderInfo", deep))
		return b.Bytes()
	},
	// A stream that claims 99,999,999,999 bytes.
	"huge-length": func() []byte {
		b := New()
		pagesRoot, _ := b.PageTree(1, nil)
		s := b.Add(&Stream{Dict: D("Length", int64(99999999999)), Data: []byte("x")})
		b.Root = b.Add(D("Type", Name("Catalog"), "Pages", pagesRoot, "SpiderInfo", D("V", 1.25, "C", Array{s})))
		return b.Bytes()
	},
	// The sample capture cut in half.
	"truncated": func() []byte {
		c := sampleCapture()
		return c[:len(c)/2]
	},
	// 400 commands posting one /P stream that inflates to 60 MiB.
	"shared-command-params": sharedCommandParams,
	// 16 object streams that inflate to 500 MiB each.
	"huge-object-streams": hugeObjectStreams,
	// Cross-reference sections whose /Prev chain loops: two sections, and
	// one that is its own /Prev.
	"prev-loop": prevLoop,
	"prev-self": prevSelf,
	// A cross-reference stream of 10,000,000 entries, nearly all free.
	"huge-xref-size": hugeXRefSize,
	// A cross-reference stream that inflates to 500 MiB.
	"huge-xref-stream": hugeXRefStream,
	// 64 KiB of random bytes behind a PDF header.
	"random-bytes": func() []byte {
		r := rand.New(rand.NewPCG(7, 7))
		b := []byte("%PDF-1.7\n")
		for range 64 << 10 {
			b = append(b, byte(r.UintN(256)))
		}
		return b
	},
}
