package pdfbuild

import (
	"fmt"
	"sort"
	"unicode/utf16"
)

// Markup is a Web Capture file whose every string a report prints holds
// markup, script and hostile URLs, for the tests of the HTML report: the
// page set's /T closes a <script> and opens one, its source URL is a
// javascript: URL whose URL alias chain holds a data: URL and an http URL
// that breaks out of an attribute, the URLS key (not canonical, so a
// finding quotes it) holds an <img onerror>, and SpiderInfo's command URL
// is a javascript: URL. Two pages: the page set's, and an image set's
// page.
func Markup() []byte {
	b := New()
	b.Version = "1.7"
	img := b.Add(&Stream{Dict: D("Type", Name("XObject"), "Subtype", Name("Image"), "Width", 1, "Height", 1,
		"ColorSpace", Name("DeviceGray"), "BitsPerComponent", 8, "ID", Lit("0123456789abcdef")), Data: []byte{0x80}})
	content := b.Add(&Stream{Data: []byte("0 0 1 rg 10 10 100 100 re f")})
	pagesRoot, pages := b.PageTree(2, func(i int) Dict {
		if i == 0 {
			return D("ID", Lit("fedcba9876543210"))
		}
		return D("Resources", D("XObject", D("Im0", img)))
	})
	d := b.Get(pages[0]).(Dict)
	d.Set("Contents", content) // a blue square: a thumbnail that shows something
	b.Set(pages[0], d)
	cmd := b.Add(D("URL", Lit(`javascript:alert('command')`), "L", 1, "F", 0))
	info := b.Add(D("V", 1.25, "C", Array{cmd}))
	pageSet := b.Add(D("S", Name("SPS"), "ID", Lit("fedcba9876543210"), "O", Array{pages[0]},
		"SI", D("AU", D("U", Lit(`javascript:alert('url')</script><script>alert('x')</script>`),
			"C", Array{Array{Lit(`data:text/html,<script>alert('chain')</script>`), Lit(`http://ok.example/"><img src=x onerror=alert('attr')>`)}}),
			"TS", Lit("D:20200102030405Z"), "C", cmd),
		"T", Lit(`</script><script>alert('title')</script><img src=x onerror=alert('title2')>`),
		"TS", Lit("D:20200102030405Z"), "CT", Lit("text/html")))
	imageSet := b.Add(D("S", Name("SIS"), "ID", Lit("0123456789abcdef"), "O", Array{img}, "R", 1,
		"SI", D("AU", Lit(`data:image/svg+xml,<svg onload=alert('img')>`), "TS", Lit("D:20200102030405Z"))))
	ids := b.Add(D("Names", Array{Lit("0123456789abcdef"), imageSet, Lit("fedcba9876543210"), pageSet}))
	urls := b.Add(D("Names", Array{
		Lit(`data:image/svg+xml,<svg onload=alert('img')>`), imageSet,
		Lit(`javascript:alert('url')</script><script>alert('x')</script>`), pageSet}))
	b.Root = b.Add(D("Type", Name("Catalog"), "Pages", pagesRoot, "SpiderInfo", info,
		"Names", D("IDS", ids, "URLS", urls)))
	return b.Bytes()
}

// RenderBomb is a one-page capture whose page draws a side × side gray
// image held as a Flate bomb (side² bytes from a few kilobytes per
// megabyte): what a thumbnail renderer must be bounded against. The
// audit reads it at once (it never decodes the image).
func RenderBomb(side int64) []byte { return RenderBombs(side, 1) }

// RenderBombs is RenderBomb with sets page sets, each of one page that
// draws the bomb: a report draws a thumbnail of each, so that what one
// page costs is paid sets times. The pages share the one image object,
// which keeps the file as small as RenderBomb's (each drawing decodes it
// again).
func RenderBombs(side int64, sets int) []byte {
	b := New()
	img := b.Add(&Stream{Dict: D("Type", Name("XObject"), "Subtype", Name("Image"), "Width", side, "Height", side,
		"ColorSpace", Name("DeviceGray"), "BitsPerComponent", 8, "Filter", Name("FlateDecode")),
		Data: bomb(nil, side*side, 0x80, nil)})
	content := b.Add(&Stream{Data: []byte("q 612 0 0 792 0 0 cm /Im0 Do Q")})
	id := func(i int) string {
		if i == 0 {
			return "fedcba9876543210"
		}
		return fmt.Sprintf("bomb-set-%07d", i)
	}
	pagesRoot, pages := b.PageTree(sets, func(i int) Dict {
		return D("Resources", D("XObject", D("Im0", img)), "ID", Lit(id(i)))
	})
	var ids, urls Array
	for i, pg := range pages {
		d := b.Get(pg).(Dict)
		d.Set("Contents", content)
		b.Set(pg, d)
		u := "http://www.example.com/"
		if i > 0 {
			u = fmt.Sprintf("http://www.example.com/%d", i)
		}
		set := b.Add(D("S", Name("SPS"), "ID", Lit(id(i)), "O", Array{pg},
			"SI", D("AU", Lit(u), "TS", Lit("D:20200102030405Z")),
			"T", Lit("a page that draws a 1 GB image"), "TS", Lit("D:20200102030405Z"), "CT", Lit("text/html")))
		ids = append(ids, Lit(id(i)), set)
		urls = append(urls, Lit(u), set)
	}
	ids, urls = sortedPairs(ids), sortedPairs(urls) // a name tree's leaf is sorted by key
	info := b.Add(D("V", 1.25))
	b.Root = b.Add(D("Type", Name("Catalog"), "Pages", pagesRoot, "SpiderInfo", info,
		"Names", D("IDS", b.Add(D("Names", ids)), "URLS", b.Add(D("Names", urls)))))
	return b.Bytes()
}

// sortedPairs sorts a name tree's [key value ...] array by key (Lit keys).
func sortedPairs(a Array) Array {
	type kv struct {
		k Lit
		v any
	}
	var kvs []kv
	for i := 0; i+1 < len(a); i += 2 {
		kvs = append(kvs, kv{a[i].(Lit), a[i+1]})
	}
	sort.Slice(kvs, func(i, j int) bool { return kvs[i].k < kvs[j].k })
	out := make(Array, 0, len(a))
	for _, x := range kvs {
		out = append(out, x.k, x.v)
	}
	return out
}

// Credentials is a one-page capture whose page set's title is title (a
// text string: UTF-16BE unless it is printable ASCII) and whose URLs carry
// what a report must not show as it is: the source URL a user and
// password, its URL alias chain a password and a bidirectional override
// (U+202E) that would reverse what follows it.
func Credentials(title string) []byte {
	return credentials("http://alice:s3cret-source@www.example.com/", title, false)
}

// CredentialsAt is Credentials with the source URL (and URLS key) u, and
// a SpiderInfo command that captured it (for refresh to re-run).
func CredentialsAt(u, title string) []byte { return credentials(u, title, true) }

func credentials(u, title string, command bool) []byte {
	b := New()
	content := b.Add(&Stream{Data: []byte("0 0 1 rg 10 10 100 100 re f")})
	pagesRoot, pages := b.PageTree(1, func(int) Dict { return D("ID", Lit("fedcba9876543210")) })
	d := b.Get(pages[0]).(Dict)
	d.Set("Contents", content)
	b.Set(pages[0], d)
	pageSet := b.Add(D("S", Name("SPS"), "ID", Lit("fedcba9876543210"), "O", Array{pages[0]},
		"SI", D("AU", D("U", Lit(u), "C", Array{Array{Lit("http://bob:s3cret-chain@old.example.com/\u202egpj.exe"), Lit("http://www.example.com/x")}}),
			"TS", Lit("D:20200102030405Z")),
		"T", text(title), "TS", Lit("D:20200102030405Z"), "CT", Lit("text/html")))
	ids := b.Add(D("Names", Array{Lit("fedcba9876543210"), pageSet}))
	urls := b.Add(D("Names", Array{Lit(u), pageSet}))
	info := D("V", 1.25)
	if command {
		info.Set("C", Array{b.Add(D("URL", Lit(u), "L", 1, "F", 0))})
	}
	b.Root = b.Add(D("Type", Name("Catalog"), "Pages", pagesRoot, "SpiderInfo", info,
		"Names", D("IDS", ids, "URLS", urls)))
	return b.Bytes()
}

// text is s as a PDF text string: as it is when it is printable ASCII,
// else UTF-16BE with its byte order mark.
func text(s string) Lit {
	ascii := true
	for i := range len(s) {
		ascii = ascii && s[i] >= 0x20 && s[i] < 0x7f
	}
	if ascii {
		return Lit(s)
	}
	b := []byte{0xFE, 0xFF}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u>>8), byte(u))
	}
	return Lit(b)
}
