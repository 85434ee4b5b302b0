package pdfio

import (
	"bytes"
	"crypto/md5"
	"fmt"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/internal/pdfbuild"
)

// BenchmarkUpdate20k writes a 20,000-set capture (a page set and a page /ID
// per page, IDS and URLS trees) into a generated 20,000-page PDF as an
// incremental update, parse included (target: at most 1.5x the time of
// pdfcpu's parse alone, BenchmarkRead/pdfcpu-parse).
func BenchmarkUpdate20k(b *testing.B) {
	orig := pdfbuild.BigPlain(20000)
	b.SetBytes(int64(len(orig)))
	b.ReportAllocs()
	var added int
	for b.Loop() {
		u, err := NewUpdate(orig, "big.pdf", Options{})
		if err != nil {
			b.Fatal(err)
		}
		pagesObj, _ := u.lookup(u.root())
		pages, _ := u.lookup(pagesObj.(types.Dict)["Pages"].(types.IndirectRef))
		var ids, urls []treeEntry
		for i, k := range pages.(types.Dict)["Kids"].(types.Array) {
			ref := k.(types.IndirectRef)
			po, _ := u.lookup(ref)
			page := types.Dict{}
			for key, v := range po.(types.Dict) {
				page[key] = v
			}
			sum := md5.Sum([]byte(fmt.Sprint(i)))
			id := hexString(string(sum[:]))
			page["ID"] = id
			u.replace(ref, page)
			url := fmt.Sprintf("http://www.example.com/p%06d.html", i)
			cs := u.add(types.Dict{"S": types.Name("SPS"), "ID": id, "O": types.Array{ref}, "SI": types.Dict{"AU": literalString(url)}})
			ids = append(ids, treeEntry{Key: string(sum[:]), Value: cs})
			urls = append(urls, treeEntry{Key: url, Value: cs})
		}
		idsRoot, _ := buildNameTree(ids, TreeShape{Hex: true}, u.alloc)
		urlsRoot, _ := buildNameTree(urls, TreeShape{}, u.alloc)
		cat := types.Dict{}
		for k, v := range pagesObj.(types.Dict) {
			cat[k] = v
		}
		cat["Names"] = u.add(types.Dict{"IDS": idsRoot, "URLS": urlsRoot})
		u.replace(u.root(), cat)
		out, err := u.Bytes()
		if err != nil || !bytes.HasPrefix(out, orig) {
			b.Fatal(err)
		}
		added = len(out) - len(orig)
	}
	b.ReportMetric(float64(added)/(1<<20), "added-MB")
}

// BenchmarkParsePlain20k is the baseline: pdfcpu's parse of the same file.
func BenchmarkParsePlain20k(b *testing.B) {
	orig := pdfbuild.BigPlain(20000)
	opts := Options{}.withDefaults()
	b.SetBytes(int64(len(orig)))
	for b.Loop() {
		if _, err := parse(orig, opts); err != nil {
			b.Fatal(err)
		}
	}
}
