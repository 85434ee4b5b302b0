package pdfbuild

import (
	"crypto/md5"
	"fmt"
)

// Big builds a large capture the way Acrobat lays one out: n pages, each its
// own page set with a content stream, a 16-byte MD5 ID shared as one
// indirect string by the page's /ID, the set's /ID and the IDS key, an AU
// string shared with the URLS key, and IDS and URLS trees of 64-entry
// leaves under 64-kid nodes. It is for benchmarks: built at run time, never
// committed.
func Big(n int, objectStreams bool) []byte {
	b := New()
	b.XRefStream, b.ObjectStreams = objectStreams, objectStreams
	return BigOf(b, n)
}

// BigOf is Big written by b, whose settings say how (object streams of
// what size, BigObjStm).
func BigOf(b *Builder, n int) []byte {
	b.Version = "1.6"
	pagesRoot := b.Reserve()
	kids := make(Array, 0, n)
	var ids, urls []KV
	idRef := map[string]Ref{}
	urlRef := map[string]Ref{}
	for i := range n {
		sum := md5.Sum([]byte(fmt.Sprintf("page %d", i)))
		id := string(sum[:])
		url := fmt.Sprintf("http://www.example.com/site/section%03d/page%06d.html", i%500, i)
		idObj := b.Add(Hex(id))
		urlObj := b.Add(Lit(url))
		content := b.Add(&Stream{Dict: D(), Data: []byte(fmt.Sprintf("BT /F1 12 Tf 72 720 Td (Captured page %d) Tj ET", i))})
		page := b.Add(D("Type", Name("Page"), "Parent", pagesRoot, "MediaBox", Array{0, 0, 612, 792},
			"Contents", content, "ID", idObj, "PZ", 1.33))
		kids = append(kids, page)
		cs := b.Add(D("S", Name("SPS"), "ID", idObj, "O", Array{page}, "SI", D("AU", urlObj, "TS", Lit("D:20150402085105Z")),
			"CT", Lit("text/html"), "TS", Lit("D:20150402085105Z"), "T", Lit(fmt.Sprintf("Page %d", i))))
		ids = append(ids, KV{id, cs})
		urls = append(urls, KV{url, cs})
		idRef[id], urlRef[url] = idObj, urlObj
	}
	b.Set(pagesRoot, D("Type", Name("Pages"), "Kids", kids, "Count", n))
	idsRoot := b.NameTree(ids, 64, 64, func(k string) any { return idRef[k] })
	urlsRoot := b.NameTree(urls, 64, 64, func(k string) any { return urlRef[k] })
	names := b.Add(D("IDS", idsRoot, "URLS", urlsRoot))
	b.Root = b.Add(D("Type", Name("Catalog"), "Pages", pagesRoot, "Names", names, "SpiderInfo", D("V", 1.25)))
	return b.Bytes()
}

// BigPlain is Big without any Web Capture structure: n pages to capture
// into, for the writer's benchmarks.
func BigPlain(n int) []byte {
	b := New()
	b.Version = "1.6"
	pagesRoot := b.Reserve()
	kids := make(Array, 0, n)
	for i := range n {
		content := b.Add(&Stream{Dict: D(), Data: []byte(fmt.Sprintf("BT /F1 12 Tf 72 720 Td (Captured page %d) Tj ET", i))})
		kids = append(kids, b.Add(D("Type", Name("Page"), "Parent", pagesRoot, "MediaBox", Array{0, 0, 612, 792}, "Contents", content)))
	}
	b.Set(pagesRoot, D("Type", Name("Pages"), "Kids", kids, "Count", n))
	b.Root = b.Add(D("Type", Name("Catalog"), "Pages", pagesRoot))
	return b.Bytes()
}
