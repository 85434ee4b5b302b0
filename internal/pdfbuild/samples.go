package pdfbuild

import (
	"fmt"
	"sort"
)

// Samples names the sample documents Sample builds.
func Samples() []string {
	names := make([]string, 0, len(samples))
	for n := range samples {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Sample builds a named sample document: the files the CLI's tests and the
// README's example use. They are built by code, so they never go stale.
func Sample(name string) ([]byte, error) {
	f, ok := samples[name]
	if !ok {
		return nil, fmt.Errorf("pdfbuild: no sample %q (have %v)", name, Samples())
	}
	return f(), nil
}

var samples = map[string]func() []byte{
	"capture":  sampleCapture,
	"web":      func() []byte { return Web(false) },
	"residue":  sampleResidue,
	"damaged":  sampleDamaged,
	"collide":  sampleCollide,
	"rawbytes": sampleRawBytes,
}

// sampleCapture looks like Acrobat Web Capture output: a capture of a small
// site, SpiderInfo /V 1.25 with one command, a two-page page set from an
// HTML page reached through a redirect, an image set for its logo, a text
// page set, keys shared as indirect strings with /ID and /AU, bare-Z dates.
func sampleCapture() []byte {
	b := New()
	b.Version = "1.6"
	logoID := b.Add(Hex("\xBF\x70\x11\x22\x33\x44\x55\x66\x77\x88\x99\xAA\xBB\xCC\x14\xD8"))
	logo := b.Add(&Stream{Dict: D("Type", Name("XObject"), "Subtype", Name("Image"), "Width", 1, "Height", 1,
		"ColorSpace", Name("DeviceGray"), "BitsPerComponent", 8, "ID", logoID), Data: []byte{0x80}})
	htmlID := b.Add(Lit("\x83\xed\xd6\xaa\xb5\x30\xb6\x44\xb8\x54\x0f\x60\x9e\x46\x8f\x78"))
	textID := b.Add(Lit("\x00\x2e\x5c\x41\xfe\xff\x28\x29\x10\x20\x30\x40\x50\x60\x70\x80"))
	pagesRoot, pages := b.PageTree(3, func(i int) Dict {
		if i < 2 {
			return D("ID", htmlID, "PZ", 1.33, "Resources", D("XObject", D("Im0", logo)))
		}
		return D("ID", textID, "PZ", 1)
	})
	home := b.Add(Lit("http://www.example.com/"))
	logoURL := b.Add(Lit("http://www.example.com/logo.gif"))
	notes := b.Add(Lit("file:///C|/Users/x/notes.txt"))
	settings := b.Add(D("G", D("PS", Array{792, 612}, "CP", Lit("utf-8"))))
	cmd := b.Add(D("URL", Lit("http://example.com"), "L", 2, "F", 1, "S", settings))
	ts := Lit("D:20150402085105Z")
	html := b.Add(D("S", Name("SPS"), "ID", htmlID, "O", Array{pages[0], pages[1]},
		"SI", D("AU", D("U", home, "C", Array{Array{Lit("http://example.com"), home}}), "TS", ts, "C", cmd),
		"CT", Lit("text/html"), "TS", ts, "T", Lit("\xFE\xFF\x00E\x00x\x00a\x00m\x00p\x00l\x00e\x00 \x00D\x00o\x00m\x00a\x00i\x00n")))
	img := b.Add(D("S", Name("SIS"), "ID", logoID, "O", Array{logo}, "SI", D("AU", logoURL, "TS", ts), "R", Array{b.Add(2)}, "TS", ts))
	text := b.Add(D("S", Name("SPS"), "ID", textID, "O", Array{pages[2]}, "SI", D("AU", notes, "TS", ts),
		"CT", Lit("text/plain"), "TS", ts, "T", Lit("notes.txt")))
	ids := b.NameTree([]KV{{htmlKey, html}, {"\xBF\x70\x11\x22\x33\x44\x55\x66\x77\x88\x99\xAA\xBB\xCC\x14\xD8", img},
		{"\x00\x2e\x5c\x41\xfe\xff\x28\x29\x10\x20\x30\x40\x50\x60\x70\x80", text}}, 64, 64, func(k string) any {
		switch k[0] {
		case 0x83:
			return htmlID
		case 0xBF:
			return logoID
		}
		return textID
	})
	urls := b.NameTree([]KV{{"http://www.example.com/", html}, {"http://www.example.com/logo.gif", img}, {"file:///C|/Users/x/notes.txt", text}}, 64, 64, func(k string) any {
		switch k {
		case "http://www.example.com/":
			return home
		case "http://www.example.com/logo.gif":
			return logoURL
		}
		return notes
	})
	names := b.Add(D("IDS", ids, "URLS", urls))
	info := b.Add(D("V", 1.25, "C", Array{cmd}))
	b.Info = b.Add(D("Producer", Lit("webcap pdfbuild (Acrobat Web Capture 15.0 look-alike)")))
	b.Root = b.Add(D("Type", Name("Catalog"), "Pages", pagesRoot, "Names", names, "SpiderInfo", info))
	return b.Bytes()
}

const htmlKey = "\x83\xed\xd6\xaa\xb5\x30\xb6\x44\xb8\x54\x0f\x60\x9e\x46\x8f\x78"

// sampleResidue is what Acrobat leaves when it replaces captured pages:
// SpiderInfo << /V 1.25 >> and empty << >> trees.
func sampleResidue() []byte {
	b := New()
	pagesRoot, _ := b.PageTree(1, nil)
	names := b.Add(D("IDS", D(), "URLS", D()))
	b.Root = b.Add(D("Type", Name("Catalog"), "Pages", pagesRoot, "Names", names, "SpiderInfo", D("V", 1.25)))
	return b.Bytes()
}

// sampleDamaged has the structural defects the reader records: unsorted and
// duplicate keys, wrong /Limits, an odd /Names, a key that is not a string, a
// dangling kid, a value that is not a content set.
func sampleDamaged() []byte {
	b := New()
	pagesRoot, pages := b.PageTree(1, func(int) Dict { return D("ID", Hex("\x01\x02")) })
	cs := b.Add(D("S", Name("SPS"), "ID", Hex("\x01\x02"), "O", Array{pages[0]}, "SI", D("AU", Lit("http://a/"))))
	leaf1 := b.Add(D("Limits", Array{Hex("\x01\x02"), Hex("\x09")}, "Names", Array{Hex("\x05"), cs, Hex("\x01\x02"), cs, Hex("\x01\x02"), cs}))
	leaf2 := b.Add(D("Limits", Array{Hex("\x0a"), Hex("\x0b")}, "Names", Array{Name("notastring"), cs, Hex("\x0a"), 42, Hex("\x0b")}))
	ids := b.Add(D("Kids", Array{leaf1, leaf2, Ref(999)}))
	urls := b.Add(D("Names", Array{Lit("http://b/"), cs, Lit("HTTP://A/"), cs}))
	names := b.Add(D("IDS", ids, "URLS", urls))
	b.Root = b.Add(D("Type", Name("Catalog"), "Pages", pagesRoot, "Names", names, "SpiderInfo", D("V", 1)))
	return b.Bytes()
}

// Web is a PDF as a browser prints a small site, before any Web Capture
// structure: three pages, the first two showing the logo image (/Im0),
// the third plain text. It is what webcap build's example manifest
// (testdata/build) adds to. xrefStream writes a cross-reference stream
// and object streams instead of a table.
func Web(xrefStream bool) []byte {
	b := New()
	b.Version = "1.6"
	b.XRefStream, b.ObjectStreams = xrefStream, xrefStream
	logo := b.Add(&Stream{Dict: D("Type", Name("XObject"), "Subtype", Name("Image"), "Width", 1, "Height", 1,
		"ColorSpace", Name("DeviceGray"), "BitsPerComponent", 8), Data: []byte{0x80}})
	pagesRoot, _ := b.PageTree(3, func(i int) Dict {
		if i < 2 {
			return D("Resources", D("XObject", D("Im0", logo)))
		}
		return D()
	})
	b.Info = b.Add(D("Producer", Lit("a browser's print to PDF")))
	b.ID = [2]string{"webcap-web-00001", "webcap-web-00001"}
	b.Root = b.Add(D("Type", Name("Catalog"), "Pages", pagesRoot))
	return b.Bytes()
}
