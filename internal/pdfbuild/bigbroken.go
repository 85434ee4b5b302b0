package pdfbuild

import (
	"crypto/md5"
	"fmt"
	"sort"
)

// BigBroken is Big with the damage "webcap fix" repairs, in a realistic
// mix: about 14 % of the URLS keys are not canonical (an upper-case scheme
// or host, a default port), one set in 250 is filed in IDS under a stale
// key instead of its /ID, one URLS and one IDS entry in 500 is written
// twice, one page in 337 has no /ID, one leaf in 13 has two entries
// swapped, and one node in 17 has /Limits that are off by one entry. It is
// deterministic for the same n and never committed: the fix benchmarks
// build it at run time.
func BigBroken(n int, objectStreams bool) []byte {
	b := New()
	b.Version = "1.6"
	b.XRefStream, b.ObjectStreams = objectStreams, objectStreams
	pagesRoot := b.Reserve()
	kids := make(Array, 0, n)
	var ids, urls []KV
	for i := range n {
		sum := md5.Sum([]byte(fmt.Sprintf("page %d", i)))
		id := string(sum[:])
		url := fmt.Sprintf("http://www.example.com/site/section%03d/page%06d.html", i%500, i)
		idObj := b.Add(Hex(id))
		urlObj := b.Add(Lit(url))
		content := b.Add(&Stream{Dict: D(), Data: []byte(fmt.Sprintf("BT /F1 12 Tf 72 720 Td (Captured page %d) Tj ET", i))})
		page := D("Type", Name("Page"), "Parent", pagesRoot, "MediaBox", Array{0, 0, 612, 792}, "Contents", content, "PZ", 1.33)
		if i%337 != 5 {
			page.Set("ID", idObj)
		}
		pageRef := b.Add(page)
		kids = append(kids, pageRef)
		cs := b.Add(D("S", Name("SPS"), "ID", idObj, "O", Array{pageRef}, "SI", D("AU", urlObj, "TS", Lit("D:20150402085105Z")),
			"CT", Lit("text/html"), "TS", Lit("D:20150402085105Z"), "T", Lit(fmt.Sprintf("Page %d", i))))
		var idKey any = idObj
		if i%250 == 17 {
			stale := md5.Sum([]byte(fmt.Sprintf("stale %d", i)))
			id, idKey = string(stale[:]), Hex(string(stale[:]))
		}
		var urlKey any = urlObj
		canonical := url
		switch i % 21 {
		case 3:
			url = "HTTP" + url[4:]
		case 10:
			url = "http://WWW.EXAMPLE.COM" + url[len("http://www.example.com"):]
		case 17:
			url = "http://www.example.com:80" + url[len("http://www.example.com"):]
		}
		if url != canonical {
			urlKey = Lit(url)
		}
		ids = append(ids, KV{id, brokenValue{idKey, cs}})
		urls = append(urls, KV{url, brokenValue{urlKey, cs}})
		if i%500 == 42 {
			ids = append(ids, KV{id, brokenValue{idKey, cs}})
			urls = append(urls, KV{url, brokenValue{urlKey, cs}})
		}
	}
	b.Set(pagesRoot, D("Type", Name("Pages"), "Kids", kids, "Count", n))
	names := b.Add(D("IDS", b.brokenTree(ids), "URLS", b.brokenTree(urls)))
	b.Root = b.Add(D("Type", Name("Catalog"), "Pages", pagesRoot, "Names", names, "SpiderInfo", D("V", 1.25)))
	return b.Bytes()
}

// brokenValue is a tree entry's key object and content set.
type brokenValue struct {
	key any
	set Ref
}

// brokenTree adds a tree of 64-entry leaves under 64-kid nodes, sorted by
// key, and damages it: one leaf in 13 has two entries swapped, one node in
// 17 has a /Limits high key that is one entry short.
func (b *Builder) brokenTree(entries []KV) Ref {
	sorted := append([]KV(nil), entries...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Key < sorted[j].Key })
	entry := func(e KV) (any, any) { v := e.Value.(brokenValue); return v.key, v.set }
	return b.tree(sorted, 64, 64, entry, &treeDamage{swapEvery: 13, limitsEvery: 17})
}
