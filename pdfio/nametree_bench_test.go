package pdfio

import (
	"crypto/md5"
	"fmt"
	"runtime"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// BenchmarkBuildNameTrees: an IDS tree (16-byte MD5 keys, hex) and a URLS
// tree (literal URL keys) of 1,000,000 keys each, built and serialized into
// objects (target: at most 2 s and 1 GiB). One op builds both.
func BenchmarkBuildNameTrees(b *testing.B) {
	const n = 1_000_000
	ids := make([]treeEntry, n)
	urls := make([]treeEntry, n)
	for i := range n {
		sum := md5.Sum([]byte(fmt.Sprint(i)))
		ref := *types.NewIndirectRef(i+1, 0)
		ids[i] = treeEntry{Key: string(sum[:]), Value: ref}
		urls[i] = treeEntry{Key: fmt.Sprintf("http://www.example.com/site/s%03d/page%07d.html", i%1000, i), Value: ref}
	}
	b.ReportAllocs()
	var peak uint64
	for b.Loop() {
		w := &objectWriter{next: n + 1}
		if _, err := buildNameTree(ids, TreeShape{Hex: true}, func(d types.Dict) types.IndirectRef { return w.add(d) }); err != nil {
			b.Fatal(err)
		}
		if _, err := buildNameTree(urls, TreeShape{}, func(d types.Dict) types.IndirectRef { return w.add(d) }); err != nil {
			b.Fatal(err)
		}
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		peak = max(peak, m.HeapInuse)
		b.SetBytes(int64(w.buf.Len()))
	}
	b.ReportMetric(float64(peak)/(1<<20), "heap-MB")
}

// BenchmarkSetNameTree installs an IDS and a URLS tree of 100,000 keys
// each, as a build of 100,000 page sets does (the entries in the manifest's
// order, not sorted), plan included.
func BenchmarkSetNameTree(b *testing.B) {
	const n = 100_000
	orig := plain(2, false)
	ids := make([]NameEntry, n)
	urls := make([]NameEntry, n)
	for i := range n {
		sum := md5.Sum([]byte(fmt.Sprint(i)))
		sets := []webcapture.Ref{{Num: i + 10}}
		ids[i] = NameEntry{Key: string(sum[:]), Sets: sets}
		urls[i] = NameEntry{Key: fmt.Sprintf("http://www.example.com/site/s%03d/page%07d.html", i%1000, i), Sets: sets}
	}
	b.ReportAllocs()
	for b.Loop() {
		u, err := NewUpdate(orig, "b.pdf", Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := u.SetNameTree("IDS", ids, TreeShape{Hex: true}); err != nil {
			b.Fatal(err)
		}
		if err := u.SetNameTree("URLS", urls, TreeShape{}); err != nil {
			b.Fatal(err)
		}
	}
}
