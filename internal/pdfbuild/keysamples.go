package pdfbuild

// sampleSets adds to b a page per URL group and a page set for each, keyed
// by the group's URLs (set i's ID is 16 bytes of 0xA1+i; set, if not nil,
// changes its dictionary), and returns the file: a capture whose only
// interest is its keys. info is the SpiderInfo dictionary.
func sampleSets(b *Builder, keys [][]string, set func(i int, d *Dict), info Dict) []byte {
	ids := make([]Ref, len(keys))
	for i := range keys {
		ids[i] = b.Add(Hex(string(make16(byte(0xA1 + i)))))
	}
	pagesRoot, pages := b.PageTree(len(keys), func(i int) Dict { return D("ID", ids[i]) })
	var urls, idKeys []KV
	for i, ks := range keys {
		d := D("S", Name("SPS"), "ID", ids[i], "O", Array{pages[i]}, "SI", D("AU", Lit(ks[0])))
		if set != nil {
			set(i, &d)
		}
		cs := b.Add(d)
		idKeys = append(idKeys, KV{string(make16(byte(0xA1 + i))), cs})
		for _, k := range ks {
			urls = append(urls, KV{k, cs})
		}
	}
	idsRoot := b.NameTree(idKeys, 64, 64, HexKey)
	urlsRoot := b.NameTree(urls, 64, 64, LitKey)
	names := b.Add(D("IDS", idsRoot, "URLS", urlsRoot))
	b.Root = b.Add(D("Type", Name("Catalog"), "Pages", pagesRoot, "Names", names, "SpiderInfo", info))
	return b.Bytes()
}

func make16(c byte) []byte {
	b := make([]byte, 16)
	for i := range b {
		b[i] = c
	}
	return b
}

// sampleCollide has URLS keys that canonicalize to one key (under every
// profile and every canon version): two non-canonical keys of two sets
// ("HTTP://Example.com/a", "http://example.com:80/a"), a non-canonical key
// of one set beside the canonical key of another ("http://example.com/b",
// "HTTP://EXAMPLE.COM/b"), two keys of the same set ("http://example.com/c",
// "http://Example.com/c"), and a key with nothing in its way
// ("HTTP://example.com/d").
func sampleCollide() []byte {
	return sampleSets(New(), [][]string{
		{"HTTP://Example.com/a"},
		{"http://example.com:80/a"},
		{"http://example.com/b"},
		{"HTTP://EXAMPLE.COM/b"},
		{"http://example.com/c", "http://Example.com/c"},
		{"HTTP://example.com/d"},
	}, nil, D("V", 1.0))
}

// sampleRawBytes has strings that are not text: URLS keys with a Latin-1
// byte, a NUL, bytes that are not UTF-8, and raw UTF-8; source URLs and
// redirect chains, a command's URL, posted data and headers, dates and
// titles that hold such bytes too (a title with a byte PDFDocEncoding does
// not define, one in UTF-16 of odd length, one in PDFDocEncoding proper).
// Acrobat 10 wrote raw bytes into keys like these.
func sampleRawBytes() []byte {
	keys := [][]string{
		{"http://www.example.com/caf\xe9"},
		{"http://www.example.com/nul\x00byte"},
		{"http://www.example.com/\xff\xfe\xfd"},
		{"http://www.example.com/\xc3\xbc"},
	}
	b := New()
	cmd := b.Add(D("URL", Lit("http://www.example.com/caf\xe9"), "L", 1, "P", Lit("q=\x00\xff\xe9"),
		"CT", Lit("application/x-www-form-urlencoded"), "H", Lit("X-Name: caf\xe9\r\n"),
		"S", D("G", D("caf\xe9", 1, "PS", Array{612, 792}))))
	titles := []any{Lit("Caf\xe9 \x7f"), Lit("\xfe\xff\x00A\x00"), Lit("Nov\xfd"), Hex("\xfe\xff\x00\xfc")}
	return sampleSets(b, keys, func(i int, d *Dict) {
		d.Set("T", titles[i])
		d.Set("CT", Lit("text/html"))
		d.Set("TS", Lit("D:20150402085105Z"))
		switch i {
		case 0:
			d.Set("SI", D("AU", D("U", Lit(keys[0][0]), "C", Array{Array{Lit("http://example.com/caf\xe9"), Lit(keys[0][0])}}), "C", cmd))
		case 2:
			d.Set("SI", D("AU", Lit(keys[2][0]), "TS", Lit("D:2015\xff")))
		}
	}, D("V", 1.0, "C", Array{cmd}))
}
