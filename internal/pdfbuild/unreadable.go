package pdfbuild

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
)

// LossSample builds a capture whose URLS tree is damaged in its PDF
// syntax, as fix_unreadable.txtar needs: "misplaced" (a leaf 7 bytes off
// its cross-reference offset, which qpdf repairs) or "unreadable" (a leaf
// with an unclosed "(", which no reader can parse). They are not Samples:
// those are well-formed PDF.
func LossSample(name string) ([]byte, error) {
	switch name {
	case "misplaced":
		return sampleMisplaced(), nil
	case "unreadable":
		return sampleUnreadable(), nil
	}
	return nil, fmt.Errorf("pdfbuild: no loss sample %q", name)
}

// treeCapture is a capture of 8 pages, each its own page set, whose URLS
// tree is a root over two leaves of four keys, the first two keys of the
// first leaf swapped (so that fix rebuilds the tree). It returns the file
// and the second leaf's object number.
func treeCapture() ([]byte, int) {
	b := New()
	pagesRoot, pages := b.PageTree(8, nil)
	var urls []KV
	for i, pg := range pages {
		url := fmt.Sprintf("http://www.example.com/page%02d.html", i)
		cs := b.Add(D("S", Name("SPS"), "O", Array{pg}, "SI", D("AU", Lit(url))))
		urls = append(urls, KV{url, cs})
	}
	urls[0], urls[1] = urls[1], urls[0]
	var leaves Array
	var last Ref
	for i := 0; i < 8; i += 4 {
		part := urls[i : i+4]
		arr := Array{}
		for _, e := range part {
			arr = append(arr, Lit(e.Key), e.Value)
		}
		last = b.Add(D("Limits", Array{Lit(part[0].Key), Lit(part[3].Key)}, "Names", arr))
		leaves = append(leaves, last)
	}
	root := b.Add(D("Kids", leaves))
	names := b.Add(D("URLS", root))
	b.Root = b.Add(D("Type", Name("Catalog"), "Pages", pagesRoot, "Names", names, "SpiderInfo", D("V", 1.0)))
	return b.Bytes(), int(last)
}

// sampleMisplaced is treeCapture whose second leaf's cross-reference entry
// is 7 bytes off (damage qpdf repairs): the leaf is found near it.
func sampleMisplaced() []byte {
	f, leaf := treeCapture()
	re := regexp.MustCompile(`(?m)^(\d{10}) 00000 n $`)
	i := 0
	return re.ReplaceAllFunc(f, func(m []byte) []byte {
		if i++; i != leaf {
			return m
		}
		off, _ := strconv.Atoi(string(m[:10]))
		return []byte(fmt.Sprintf("%010d 00000 n ", off+7))
	})
}

// sampleUnreadable is treeCapture whose second leaf has a key with an
// unclosed "(": the leaf cannot be parsed, there or anywhere.
func sampleUnreadable() []byte {
	f, _ := treeCapture()
	k := []byte("(http://www.example.com/page05.html)")
	i := bytes.LastIndex(f, k) // the leaf's, after the set's /AU
	out := append([]byte{}, f[:i+len(k)-1]...)
	out = append(out, ' ')
	return append(out, f[i+len(k):]...)
}
