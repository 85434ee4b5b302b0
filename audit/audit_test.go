package audit

import (
	"bytes"
	"crypto/md5"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// spec describes a small capture; its hooks change one thing each.
type spec struct {
	version    string
	xrefStream bool
	key        func(string) any // how IDS keys are written
	leaf       int              // entries per name-tree leaf
	info, cmd  func(d *pb.Dict)
	sps, spsSI func(d *pb.Dict)
	sis, sisSI func(d *pb.Dict)
	img        func(d *pb.Dict) // the image XObject's dictionary
	page       func(i int, d *pb.Dict)
	ids, urls  func(b *pb.Builder, kv []pb.KV) []pb.KV
	extra      func(b *pb.Builder, r refs)
	idsRoot    func(b *pb.Builder, kv []pb.KV) pb.Ref // replaces the IDS tree
	urlsRoot   func(b *pb.Builder, kv []pb.KV) pb.Ref
	readOpts   pdfio.Options
	residue    bool // only the pages and the image, with their /ID: no SpiderInfo, tree or set
	catalog    func(b *pb.Builder, d *pb.Dict)
	mangle     func([]byte) []byte // changes the file's bytes once written
	trust      bool                // the test CA is the seals' trust anchor (seals_test.go)
	sources    webcapture.AuxSource
}

type refs struct {
	sps, sis, img pb.Ref
	pages         []pb.Ref
}

// setPage changes page i's dictionary once the file's objects are there.
func setPage(b *pb.Builder, r refs, i int, f func(d *pb.Dict)) {
	d := b.Get(r.pages[i]).(pb.Dict)
	f(&d)
	b.Set(r.pages[i], d)
}

// tiling returns a tiling pattern whose cell draws the image (a content
// stream that uses it as /Im0).
func tiling(b *pb.Builder, img pb.Ref) pb.Ref {
	return b.Add(&pb.Stream{Dict: pb.D("Type", pb.Name("Pattern"), "PatternType", 1, "PaintType", 1, "TilingType", 1,
		"BBox", pb.Array{0, 0, 1, 1}, "XStep", 1, "YStep", 1, "Resources", pb.D("XObject", pb.D("Im0", img))),
		Data: []byte("/Im0 Do")})
}

// drawnThrough is a spec whose first page draws the image only through a
// tiling pattern (Acrobat's /R is then 0), with the image set's /R r.
func drawnThrough(r int) spec {
	return spec{sis: func(d *pb.Dict) { d.Set("R", r) }, extra: func(b *pb.Builder, rs refs) {
		pat := tiling(b, rs.img)
		setPage(b, rs, 0, func(d *pb.Dict) { d.Set("Resources", pb.D("Pattern", pb.D("P0", pat))) })
	}}
}

const (
	pageID  = "\x83\xed\xd6\xaa\xb5\x30\xb6\x44\xb8\x54\x0f\x60\x9e\x46\x8f\x78"
	imageID = "\xbf\x70\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\x14\xd8"
	home    = "http://www.example.com/"
	logo    = "http://www.example.com/logo.gif"
)

// build writes a clean capture unless a hook changes it: two pages in a page
// set, an image in an image set that the first page uses (/R 1), SpiderInfo
// /V 1.0 with one command, IDS and URLS trees whose keys match.
func build(s spec) []byte {
	b := pb.New()
	if s.version != "" {
		b.Version = s.version
	}
	b.XRefStream, b.ObjectStreams = s.xrefStream, s.xrefStream
	key := s.key
	if key == nil {
		key = pb.HexKey
	}
	imgDict := pb.D("Type", pb.Name("XObject"), "Subtype", pb.Name("Image"), "Width", 1, "Height", 1,
		"ColorSpace", pb.Name("DeviceGray"), "BitsPerComponent", 8, "ID", pb.Hex(imageID))
	if s.img != nil {
		s.img(&imgDict)
	}
	img := b.Add(&pb.Stream{Dict: imgDict, Data: []byte{0}})
	pagesRoot, pages := b.PageTree(2, func(i int) pb.Dict {
		d := pb.D("ID", pb.Hex(pageID), "PZ", 1.33)
		if i == 0 {
			d.Set("Resources", pb.D("XObject", pb.D("Im0", img))) // the image set's /R 1
		}
		if s.page != nil {
			s.page(i, &d)
		}
		return d
	})
	if s.residue {
		b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", pagesRoot))
		return b.Bytes()
	}
	dict := func(d pb.Dict, hook func(*pb.Dict)) pb.Dict {
		if hook != nil {
			hook(&d)
		}
		return d
	}
	cmd := b.Add(dict(pb.D("URL", pb.Lit(home), "L", 1, "F", 0), s.cmd))
	sps := b.Add(dict(pb.D("S", pb.Name("SPS"), "ID", pb.Hex(pageID), "O", pb.Array{pages[0], pages[1]},
		"SI", dict(pb.D("AU", pb.Lit(home), "TS", pb.Lit("D:20150402085105Z"), "S", 0, "C", cmd), s.spsSI),
		"CT", pb.Lit("text/html"), "TS", pb.Lit("D:20150402085105Z"), "T", pb.Lit("Home")), s.sps))
	sis := b.Add(dict(pb.D("S", pb.Name("SIS"), "ID", pb.Hex(imageID), "O", pb.Array{img},
		"SI", dict(pb.D("AU", pb.Lit(logo)), s.sisSI), "R", 1), s.sis))
	r := refs{sps, sis, img, pages}
	if s.extra != nil {
		s.extra(b, r)
	}
	ids := []pb.KV{{Key: pageID, Value: sps}, {Key: imageID, Value: sis}}
	urls := []pb.KV{{Key: home, Value: sps}, {Key: logo, Value: sis}}
	if s.ids != nil {
		ids = s.ids(b, ids)
	}
	if s.urls != nil {
		urls = s.urls(b, urls)
	}
	leaf := s.leaf
	if leaf == 0 {
		leaf = 64
	}
	var idsRoot, urlsRoot pb.Ref
	if s.idsRoot != nil {
		idsRoot = s.idsRoot(b, ids)
	} else {
		idsRoot = b.NameTree(ids, leaf, 2, key)
	}
	if s.urlsRoot != nil {
		urlsRoot = s.urlsRoot(b, urls)
	} else {
		urlsRoot = b.NameTree(urls, leaf, 2, pb.LitKey)
	}
	names := b.Add(pb.D("IDS", idsRoot, "URLS", urlsRoot))
	info := b.Add(dict(pb.D("V", 1.0, "C", pb.Array{cmd}), s.info))
	cat := pb.D("Type", pb.Name("Catalog"), "Pages", pagesRoot, "Names", names, "SpiderInfo", info)
	if s.catalog != nil {
		s.catalog(b, &cat)
	}
	b.Root = b.Add(cat)
	if s.mangle != nil {
		return s.mangle(b.Bytes())
	}
	return b.Bytes()
}

func audit(t *testing.T, s spec) []Finding {
	t.Helper()
	b := build(s)
	d, err := pdfio.ReadBytes(b, "test.pdf", s.readOpts)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Sources: s.sources, File: bytes.NewReader(b), FileSize: int64(len(b))}
	if s.trust {
		opts.Trust = testPKI().Pool()
	}
	return Check(d, opts)
}

func show(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "\n  %s %s %s %s: %s", f.Severity, f.Rule, f.Object, f.Key, f.Message)
	}
	return b.String()
}

// Clean files of every shape give no finding at all.
func TestCleanShapes(t *testing.T) {
	awkward := "\x00()\\\r\n\xfe\xff\xd8\x00\x80\xff\x5c\x5c\x00\x01"
	cases := map[string]spec{
		"flat hex":         {},
		"literal keys":     {key: pb.LitKey},
		"escaped keys":     {key: pb.EscKey},
		"deep trees":       {leaf: 1},
		"object streams":   {xrefStream: true, leaf: 1},
		"PDF 1.3":          {version: "1.3"},
		"awkward ID bytes": {page: func(i int, d *pb.Dict) { d.Set("ID", pb.Lit(awkward)) }, sps: func(d *pb.Dict) { d.Set("ID", pb.Hex(awkward)) }, ids: func(b *pb.Builder, kv []pb.KV) []pb.KV { kv[0].Key = awkward; return kv }, key: pb.LitKey},
		// pdfcpu's validator rejects these three; the specification allows them.
		"array value": {ids: func(b *pb.Builder, kv []pb.KV) []pb.KV {
			return []pb.KV{{Key: pageID, Value: pb.Array{kv[0].Value}}, kv[1]}
		}},
		"alias chains": {spsSI: func(d *pb.Dict) {
			d.Set("AU", pb.D("U", pb.Lit(home), "C", pb.Array{pb.Array{pb.Lit("http://example.com/"), pb.Lit(home)}, pb.Array{pb.Lit("http://www.example.com/index.html")}}))
		}},
		"FE FF binary ID": {
			page: func(i int, d *pb.Dict) { d.Set("ID", pb.Hex("\xfe\xff\xd8\x00\x00\x41"+pageID[6:])) },
			sps:  func(d *pb.Dict) { d.Set("ID", pb.Hex("\xfe\xff\xd8\x00\x00\x41"+pageID[6:])) },
			ids: func(b *pb.Builder, kv []pb.KV) []pb.KV {
				kv[0].Key = "\xfe\xff\xd8\x00\x00\x41" + pageID[6:]
				return kv
			},
		},
		"image and page set under one key (Figure 10.2)": {
			sis:   func(d *pb.Dict) { d.Set("ID", pb.Hex(pageID)) },
			extra: func(b *pb.Builder, r refs) {},
			ids: func(b *pb.Builder, kv []pb.KV) []pb.KV {
				return []pb.KV{{Key: pageID, Value: pb.Array{kv[0].Value, kv[1].Value}}}
			},
		},
	}
	for name, s := range cases {
		t.Run(name, func(t *testing.T) {
			fs := audit(t, s)
			if name == "image and page set under one key (Figure 10.2)" {
				// The image's own /ID still names the old key.
				fs = without(fs, "WC-PARENT", "WC-MEMBER-ID")
			}
			if len(fs) != 0 {
				t.Errorf("findings in a clean file:%s", show(fs))
			}
		})
	}
}

func without(fs []Finding, rules ...string) []Finding {
	var out []Finding
	for _, f := range fs {
		skip := false
		for _, r := range rules {
			skip = skip || f.Rule == r
		}
		if !skip {
			out = append(out, f)
		}
	}
	return out
}

// One file per rule: it gives the rule, and no error of another rule but
// the ones it entails.
func TestEachRule(t *testing.T) {
	set := func(k string, v any) func(d *pb.Dict) { return func(d *pb.Dict) { d.Set(k, v) } }
	del := func(k string) func(d *pb.Dict) {
		return func(d *pb.Dict) {
			out := (*d)[:0]
			for _, e := range *d {
				if e.Key != k {
					out = append(out, e)
				}
			}
			*d = out
		}
	}
	leafOf := func(b *pb.Builder, kv []pb.KV, lo, hi string) pb.Ref {
		names := pb.Array{}
		for _, e := range kv {
			names = append(names, pb.Hex(e.Key), e.Value)
		}
		return b.Add(pb.D("Limits", pb.Array{pb.Hex(lo), pb.Hex(hi)}, "Names", names))
	}
	cases := []struct {
		rule    string
		s       spec
		entails []string
	}{
		{"WC-DANGLING", spec{ids: func(b *pb.Builder, kv []pb.KV) []pb.KV { return append(kv, pb.KV{Key: "\xff", Value: pb.Ref(999)}) }}, nil},
		{"WC-CYCLE", spec{idsRoot: func(b *pb.Builder, kv []pb.KV) pb.Ref {
			root := b.Reserve()
			b.Set(root, pb.D("Kids", pb.Array{leafOf(b, kv, pageID, imageID), root}))
			return root
		}}, nil},
		{"WC-LIMIT", spec{leaf: 1, readOpts: pdfio.Options{MaxTreeDepth: 1}}, []string{"WC-PARENT", "WC-CS-ORPHAN"}},
		{"WC-TYPE", spec{sps: set("CT", 42)}, nil},
		{"WC-VALUE", spec{sps: set("TS", pb.Lit("yesterday"))}, nil},
		{"WC-TREE-NODE", spec{idsRoot: func(b *pb.Builder, kv []pb.KV) pb.Ref {
			return b.Add(pb.D("Names", pb.Array{pb.Hex(pageID), kv[0].Value, pb.Hex(imageID), kv[1].Value, pb.Hex("\xff")}))
		}}, nil},
		{"WC-TREE-ORDER", spec{idsRoot: func(b *pb.Builder, kv []pb.KV) pb.Ref {
			return b.Add(pb.D("Names", pb.Array{pb.Hex(imageID), kv[1].Value, pb.Hex(pageID), kv[0].Value}))
		}}, nil},
		{"WC-TREE-DUPLICATE", spec{ids: func(b *pb.Builder, kv []pb.KV) []pb.KV { return append(kv, kv[0]) }}, nil},
		{"WC-TREE-LIMITS", spec{idsRoot: func(b *pb.Builder, kv []pb.KV) pb.Ref {
			return b.Add(pb.D("Kids", pb.Array{leafOf(b, kv, pageID, "\xff")}))
		}}, nil},
		{"WC-TREE-ROOT-LIMITS", spec{idsRoot: func(b *pb.Builder, kv []pb.KV) pb.Ref { return leafOf(b, kv, pageID, imageID) }}, nil},
		{"WC-TREE-SHARED", spec{idsRoot: func(b *pb.Builder, kv []pb.KV) pb.Ref {
			l := leafOf(b, kv, pageID, imageID)
			return b.Add(pb.D("Kids", pb.Array{l, l}))
		}}, []string{"WC-TREE-ORDER"}},
		{"WC-TREE-VALUE", spec{ids: func(b *pb.Builder, kv []pb.KV) []pb.KV { return append(kv, pb.KV{Key: "\xff", Value: 42}) }}, nil},
		{"WC-TREE-EMPTY", spec{urlsRoot: func(b *pb.Builder, kv []pb.KV) pb.Ref { return b.Add(pb.D()) }}, nil},
		{"WC-TREE-EMPTY-NAMES", spec{urlsRoot: func(b *pb.Builder, kv []pb.KV) pb.Ref { return b.Add(pb.D("Names", pb.Array{})) }}, nil},
		{"WC-VERSION", spec{version: "1.2"}, nil},
		{"WC-DEPRECATED", spec{version: "2.0"}, nil},
		{"WC-INFO-V", spec{info: del("V")}, nil},
		{"WC-INFO-V-VALUE", spec{info: set("V", 1.25)}, nil},
		{"WC-CMD-URL", spec{cmd: del("URL")}, nil},
		{"WC-CMD-LEVELS", spec{cmd: set("L", 0)}, nil},
		{"WC-CMD-FLAGS", spec{cmd: set("F", 9)}, nil},
		{"WC-CMD-CT", spec{cmd: set("CT", pb.Lit("text/plain"))}, nil},
		{"WC-CMD-HEADERS", spec{cmd: set("H", pb.Lit("Accept: text/html\n"))}, nil},
		{"WC-CMD-SETTINGS-SHARED", spec{cmd: func(d *pb.Dict) {
			// The settings hold the image XObject (object 1), which the
			// image set's /O refers to as well.
			d.Set("S", pb.D("G", pb.D("Logo", pb.Ref(1))))
		}}, nil},
		{"WC-CMD-ENGINE", spec{cmd: set("S", pb.D("C", pb.D("ADBE-H2PDF", pb.D())))}, nil},
		{"WC-CS-S", spec{sps: set("S", pb.Name("XYZ"))}, []string{"WC-CS-ORPHAN"}},
		{"WC-CS-TYPE", spec{sps: set("Type", pb.Name("Foo"))}, nil},
		{"WC-CS-SUBTYPE-KEY", spec{sis: set("TID", pb.Hex(pageID))}, nil},
		{"WC-CS-ID", spec{sps: del("ID")}, nil},
		{"WC-CS-TID-LENGTH", spec{sps: set("TID", pb.Hex("\x01\x02"))}, nil},
		{"WC-CS-ID-LENGTH", spec{sps: set("ID", pb.Hex("\x01\x02")), page: func(i int, d *pb.Dict) { d.Set("ID", pb.Hex("\x01\x02")) },
			ids: func(b *pb.Builder, kv []pb.KV) []pb.KV { kv[0].Key = "\x01\x02"; return kv }}, nil},
		{"WC-CS-O", spec{sps: del("O")}, []string{"WC-PARENT"}},
		{"WC-CS-O-TARGET", spec{extra: func(b *pb.Builder, r refs) {}, sps: func(d *pb.Dict) {
			o := d.Get("O").(pb.Array)
			d.Set("O", append(o, pb.Ref(1))) // object 1 is the image XObject
		}}, []string{"WC-MEMBER-TWICE"}},
		{"WC-CS-O-ORDER", spec{sps: func(d *pb.Dict) {
			o := d.Get("O").(pb.Array)
			d.Set("O", pb.Array{o[1], o[0]})
		}}, nil},
		{"WC-CS-SI", spec{sps: del("SI")}, nil},
		{"WC-CS-ORPHAN", spec{extra: func(b *pb.Builder, r refs) {
			b.Add(pb.D("S", pb.Name("SPS"), "ID", pb.Hex("\x11\x22"), "O", pb.Array{}, "SI", pb.D("AU", pb.Lit("http://x/"))))
		}}, nil},
		{"WC-R", spec{sis: del("R")}, nil},
		{"WC-R-SHAPE", spec{sis: set("R", pb.Array{1, 2})}, nil},
		{"WC-R-ARRAY1", spec{sis: set("R", pb.Array{1})}, nil},
		{"WC-R-NEGATIVE", spec{sis: set("R", -1)}, nil},
		{"WC-R-ZERO", drawnThrough(0), nil},
		{"WC-R-COUNT", spec{sis: set("R", 3)}, nil},
		{"WC-IMAGE-UNUSED", spec{sis: set("R", 0), page: func(i int, d *pb.Dict) { del("Resources")(d) }}, nil},
		{"WC-FORM-ID", spec{extra: func(b *pb.Builder, r refs) {
			b.Add(&pb.Stream{Dict: pb.D("Type", pb.Name("XObject"), "Subtype", pb.Name("Form"), "BBox", pb.Array{0, 0, 1, 1}, "ID", pb.Hex(pageID))})
		}}, nil},
		{"WC-SI-AU", spec{spsSI: del("AU")}, nil},
		{"WC-SI-S", spec{spsSI: set("S", 5)}, nil},
		{"WC-SI-PAGESET", spec{sisSI: set("S", 1)}, nil},
		{"WC-SI-C", spec{spsSI: set("C", pb.D("URL", pb.Lit(home)))}, nil},
		{"WC-SI-SHA256", spec{spsSI: set("WCSHA256", 42)}, nil},
		{"WC-SI-SHA256", spec{spsSI: set("WCSHA256", pb.Hex(md5Sum([]byte("16 bytes, not 32"))))}, nil},
		{"WC-SI-DUPLICATE", spec{sps: set("SI", pb.Array{pb.D("AU", pb.Lit(home)), pb.D("AU", pb.Lit("HTTP://www.example.com:80/"))})}, nil},
		{"WC-ALIAS-EMPTY", spec{spsSI: set("AU", pb.D("U", pb.Lit(home), "C", pb.Array{}))}, nil},
		{"WC-ALIAS-EMPTY", spec{spsSI: set("AU", pb.D("U", pb.Lit(home), "C", pb.Array{pb.Array{}}))}, nil},
		{"WC-IDS-KEY", spec{ids: func(b *pb.Builder, kv []pb.KV) []pb.KV { kv[0].Key = "\x99"; return kv }}, []string{"WC-PARENT"}},
		{"WC-PARENT", spec{page: func(i int, d *pb.Dict) {
			if i == 1 {
				d.Set("ID", pb.Hex("\x42"))
			}
		}}, nil},
		{"WC-ID-RESIDUE", spec{residue: true}, nil},
		{"WC-MEMBER-TWICE", spec{extra: func(b *pb.Builder, r refs) {}, ids: func(b *pb.Builder, kv []pb.KV) []pb.KV {
			other := b.Add(pb.D("S", pb.Name("SPS"), "ID", pb.Hex(pageID), "O", pb.Array{pb.Ref(4)}, "SI", pb.D("AU", pb.Lit(home))))
			return []pb.KV{{Key: pageID, Value: pb.Array{kv[0].Value, other}}, kv[1]}
		}}, nil},
		{"WC-MEMBER-ID", spec{page: func(i int, d *pb.Dict) {
			if i == 1 {
				out := (*d)[:0]
				for _, e := range *d {
					if e.Key != "ID" {
						out = append(out, e)
					}
				}
				*d = out
			}
		}}, nil},
		{"WC-CS-REDIRECT-DUPLICATE", dupSpec([]pageSet{
			{au: alias(about, []string{oldPage, about}), keys: []string{about}},
			{au: pb.Lit(about), keys: []string{about}},
		}, new([]pb.Ref)), nil},
		{"WC-URLS-CANONICAL", spec{urls: func(b *pb.Builder, kv []pb.KV) []pb.KV { kv[0].Key = "HTTP://www.example.com:80/"; return kv }}, nil},
		{"WC-URLS-NONASCII", spec{spsSI: set("AU", pb.Lit(home+"caf\xe9")), urls: func(b *pb.Builder, kv []pb.KV) []pb.KV { kv[0].Key = home + "caf\xe9"; return kv }}, []string{"WC-URL-NONASCII"}},
		{"WC-URLS-SOURCE", spec{urls: func(b *pb.Builder, kv []pb.KV) []pb.KV { kv[0].Key = "http://www.example.com/other"; return kv }}, nil},
		{"WC-ASCII", spec{sps: set("CT", pb.Lit("text/html\xe9"))}, nil},
		{"WC-ASCII", spec{cmd: func(d *pb.Dict) { d.Set("P", pb.Lit("q=1")); d.Set("CT", pb.Lit("text/pl\xe9in")) }}, nil},
		{"WC-URL-NONASCII", spec{spsSI: set("AU", pb.D("U", pb.Lit(home), "C", pb.Array{pb.Array{pb.Lit("http://www.example.com/caf\xe9")}}))}, nil},
		{"WC-URL-PASSWORD", spec{cmd: set("URL", pb.Lit("http://user:secret@www.example.com/"))}, nil},
		{"WC-PZ", spec{page: func(i int, d *pb.Dict) { d.Set("PZ", 0) }}, nil},
		{"WC-PDF-XREF", spec{mangle: startXRefOff}, nil},
		{"WC-PDF-OFFSET", spec{mangle: func(b []byte) []byte {
			// Object 2's entry (the table's third) 7 bytes off.
			n := 0
			return xrefEntry.ReplaceAllFunc(b, func(m []byte) []byte {
				if n++; n != 3 {
					return m
				}
				off, _ := strconv.Atoi(string(m[:10]))
				return fmt.Appendf(nil, "%010d 00000 n ", off+7)
			})
		}}, nil},
		{"WC-PDF-LENGTH", spec{mangle: func(b []byte) []byte {
			return bytes.Replace(b, []byte("/Length 1>>"), []byte("/Length 4>>"), 1) // the image's one byte
		}}, nil},
		{"WC-PDF-UNREADABLE", spec{extra: func(b *pb.Builder, r refs) {
			b.Add(pb.Raw("<< /Broken [ (unterminated >>"))
		}}, nil},
		{"WC-PDF-RECOVERED", spec{xrefStream: true, mangle: startXRefOff}, []string{"WC-PDF-XREF"}},
		// (certify's signature has no /Contents, and its range reaches no revision's end.)
		{"WC-CERTIFIED", spec{catalog: certify(2, 1<<30)}, []string{"WC-SEAL-FORMAT", "WC-SEAL-RANGE"}},
		{"WC-CERTIFIED-AFTER", spec{catalog: certify(1, 20)}, []string{"WC-SEAL-FORMAT", "WC-SEAL-RANGE"}},
		{"WC-LINK-PA", spec{extra: func(b *pb.Builder, r refs) {
			link := b.Add(pb.D("Type", pb.Name("Annot"), "Subtype", pb.Name("Link"), "Rect", pb.Array{0, 0, 10, 10},
				"A", pb.D("S", pb.Name("GoTo"), "D", pb.Array{r.pages[1], pb.Name("Fit")}),
				"PA", pb.D("S", pb.Name("GoTo"), "D", pb.Array{r.pages[1], pb.Name("Fit")})))
			setPage(b, r, 0, func(d *pb.Dict) { d.Set("Annots", pb.Array{link}) })
		}}, nil},
		{"WC-OUTLINE-ENTRY", tagged(tagShape{title: 3}), nil},
		{"WC-STRUCT-ENTRY", tagged(tagShape{artS: pb.Lit("Article")}), nil},
		{"WC-SE-ARTICLE", tagged(tagShape{twoSets: true, artPages: []int{0}, dest: 1}), nil},
		{"WC-ARTICLE-SETS", tagged(tagShape{twoSets: true}), nil},
		{"WC-STRUCTPARENTS-SHARED", tagged(tagShape{structParents: []any{0, 0}}), nil},
		{"WC-PARENTTREE-KEY", tagged(tagShape{structParents: []any{0, 5}}), nil},
		{"WC-SOURCE-MISSING", spec{sources: webcapture.MapSource{}}, nil},
		{"WC-SOURCE-MISMATCH", spec{sources: webcapture.MapSource{logo: []byte("GIF89a changed since")}}, nil},
		{"WC-SOURCE-INCOMPLETE", spec{sources: webcapture.MapSource{home: []byte(`<html><body><img src="gone.gif"></body></html>`)}}, nil},
		{"WC-SOURCE-FORM", sourcesSpec(webcapture.AuxHexUpper), nil},
		{"WC-SOURCE-SHA256", withSHA256(sourcesSpec(webcapture.AuxRaw), []byte("GIF89a another logo")), nil},
		{"WC-SOURCE-DIGEST", func() spec { s, _ := warcSpec(badPayloadDigest); return s }(), nil},
		{"WC-SEAL-VERIFIED", spec{mangle: signed, trust: true}, nil},
		{"WC-SEAL-UNTRUSTED", spec{mangle: signed}, nil},
		{"WC-SEAL-DIGEST", spec{mangle: func(b []byte) []byte { return flipCovered(signed(b)) }}, nil},
		{"WC-SEAL-RANGE", spec{mangle: func(b []byte) []byte { return shortRange(signed(b)) }}, []string{"WC-SEAL-DIGEST"}},
		{"WC-SEAL-FORMAT", spec{mangle: func(b []byte) []byte {
			return sealed(b, pdfio.SealSig, func(io.Reader) ([]byte, error) { return []byte{0x30, 0x03, 0x02, 0x01, 0x00}, nil })
		}}, nil},
		{"WC-SEAL-AFTER", spec{mangle: func(b []byte) []byte { return appendPage(signed(b)) }}, nil},
		{"WC-SEAL-TIME", spec{mangle: func(b []byte) []byte {
			return sealed(b, pdfio.SealDocTimeStamp, tokenAt(time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)))
		}}, nil},
		{"WC-SEAL-DOCMDP", spec{catalog: certify(1, 1<<30), mangle: func(b []byte) []byte { return appendPage(withLength(b)) }},
			[]string{"WC-SEAL-AFTER", "WC-SEAL-FORMAT", "WC-SEAL-RANGE", "WC-CERTIFIED-AFTER"}},
	}
	tested := map[string]bool{}
	for _, c := range cases {
		tested[c.rule] = true
		t.Run(c.rule, func(t *testing.T) {
			fs := audit(t, c.s)
			found := false
			for _, f := range fs {
				if f.Rule == c.rule {
					found = true
					if f.Message == "" || f.Spec == "" {
						t.Errorf("finding without message or spec: %+v", f)
					}
					if strings.Contains(f.Message, "secret") {
						t.Errorf("a password reached the report: %s", f.Message)
					}
				}
			}
			if !found {
				t.Errorf("no %s finding:%s", c.rule, show(fs))
			}
			for _, f := range without(fs, append(c.entails, c.rule)...) {
				if f.Severity == Serious {
					t.Errorf("unexpected error %s: %s", f.Rule, f.Message)
				}
			}
		})
	}
	var untested []string
	for _, r := range Rules {
		if !tested[r.ID] {
			untested = append(untested, r.ID)
		}
	}
	sort.Strings(untested)
	if len(untested) > 0 {
		t.Errorf("rules without a test file: %v", untested)
	}
}

// docs/rules.md lists every rule as Rules has it: severity, summary and
// reference.
func TestRulesAreDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range Rules {
		row := fmt.Sprintf("| `%s` | %s | %s | %s |\n", r.ID, r.Severity, r.Summary, r.Spec)
		if !strings.Contains(string(doc), row) {
			t.Errorf("docs/rules.md has no row %q", row)
		}
	}
}

// sourcesSpec builds a capture whose identifiers are the real ones of its
// sources, with the page set's auxiliary identifiers hashed in form enc.
func sourcesSpec(enc webcapture.AuxEncoding) spec {
	page := []byte(`<html><body><img src="logo.gif"><p>Home</p></body></html>`)
	img := []byte("GIF89a the logo")
	src := webcapture.MapSource{home: page, logo: img}
	res, _ := webcapture.PageSetID(page, webcapture.PageSetOptions{URL: home, Aux: src, AuxEncoding: enc})
	pid, iid := string(res.ID[:]), string(md5Sum(img))
	return spec{
		sources: src,
		page:    func(i int, d *pb.Dict) { d.Set("ID", pb.Hex(pid)) },
		sps:     func(d *pb.Dict) { d.Set("ID", pb.Hex(pid)) },
		sis:     func(d *pb.Dict) { d.Set("ID", pb.Hex(iid)) },
		img:     func(d *pb.Dict) { d.Set("ID", pb.Hex(iid)) },
		ids: func(b *pb.Builder, kv []pb.KV) []pb.KV {
			kv[0].Key, kv[1].Key = pid, iid
			return kv
		},
		extra: func(b *pb.Builder, r refs) {},
	}
}

func md5Sum(b []byte) []byte { s := md5.Sum(b); return s[:] }

// withSHA256 gives both sets' source information the /WCSHA256 of their
// source's bytes, the image set's made from img instead.
func withSHA256(s spec, img []byte) spec {
	page, logoSum := sha256.Sum256(s.sources.(webcapture.MapSource)[home]), sha256.Sum256(img)
	s.spsSI = func(d *pb.Dict) { d.Set("WCSHA256", pb.Hex(string(page[:]))) }
	s.sisSI = func(d *pb.Dict) { d.Set("WCSHA256", pb.Hex(string(logoSum[:]))) }
	return s
}

// webcap's /WCSHA256 is optional: a file without it (every file above, and
// every real file) has no finding about it, and one whose digests are of
// the sources' bytes has none either.
func TestSourcesSHA256(t *testing.T) {
	s := sourcesSpec(webcapture.AuxRaw)
	if fs := audit(t, withSHA256(s, s.sources.(webcapture.MapSource)[logo])); len(fs) != 0 {
		t.Errorf("findings with matching /WCSHA256:%s", show(fs))
	}
	fs := audit(t, withSHA256(s, []byte("GIF89a another logo")))
	if len(fs) != 1 || fs[0].Rule != "WC-SOURCE-SHA256" || fs[0].Key != "/WCSHA256" {
		t.Errorf("with the image's /WCSHA256 of other bytes, want one WC-SOURCE-SHA256 finding:%s", show(fs))
	}
	// A source that changed since the capture: both digests differ, and
	// WC-SOURCE-MISMATCH (a warning) says so once.
	changed := withSHA256(s, s.sources.(webcapture.MapSource)[logo])
	changed.sources = webcapture.MapSource{home: s.sources.(webcapture.MapSource)[home], logo: []byte("GIF89a changed since")}
	fs = audit(t, changed)
	if len(fs) != 2 || fs[0].Rule != "WC-SOURCE-MISMATCH" || fs[1].Rule != "WC-SOURCE-MISMATCH" {
		t.Errorf("with a changed logo, want WC-SOURCE-MISMATCH for the image set and the page set, and no WC-SOURCE-SHA256:%s", show(fs))
	}
}

// With the sources the file was made from, identifiers recompute: no
// finding, whatever form matched but raw.
func TestSourcesMatch(t *testing.T) {
	fs := audit(t, sourcesSpec(webcapture.AuxRaw))
	if len(fs) != 0 {
		t.Errorf("findings with matching sources:%s", show(fs))
	}
}

// /R is what Acrobat counts: the pages whose resources name the image. A
// count that is the number of every page that uses it (through patterns,
// forms and annotations too) is not reported either; only a count that is
// neither is. WC-R-ZERO says what is true, and never suggests removing an
// image that a page draws.
func TestImageUse(t *testing.T) {
	// Page 1 names the image; page 2 draws it through a tiling pattern.
	both := func(r any) spec {
		return spec{sis: func(d *pb.Dict) { d.Set("R", r) }, extra: func(b *pb.Builder, rs refs) {
			pat := tiling(b, rs.img)
			setPage(b, rs, 1, func(d *pb.Dict) { d.Set("Resources", pb.D("Pattern", pb.D("P0", pat))) })
		}}
	}
	cases := []struct {
		name string
		s    spec
		rule string // "" for no finding about /R or the image
		has  []string
		not  []string
	}{
		{"direct count (Acrobat's)", both(1), "", nil, nil},
		{"every page's count", both(2), "", nil, nil},
		{"neither count", both(3), "WC-R-COUNT", []string{"R[0] is 3", "1 page (page 1)", "2 pages (pages 1 and 2)"}, nil},
		{"0 with a page that names it", both(0), "WC-R-COUNT", []string{"R[0] is 0"}, nil},
		{"0, drawn through a pattern", drawnThrough(0), "WC-R-ZERO", []string{"tiling pattern", "page 1", "keep it"}, []string{"remove", "no page uses the image"}},
		{"0, drawn by nobody", spec{sis: set0R(), page: func(i int, d *pb.Dict) { d.Set("Resources", pb.D()) }}, "WC-R-ZERO", []string{"at all", "may be removed"}, nil},
		{"0, a widget's icon", spec{sis: set0R(), extra: func(b *pb.Builder, rs refs) {
			icon := b.Add(&pb.Stream{Dict: pb.D("Type", pb.Name("XObject"), "Subtype", pb.Name("Form"), "BBox", pb.Array{0, 0, 1, 1},
				"Resources", pb.D("XObject", pb.D("Im0", rs.img))), Data: []byte("/Im0 Do")})
			ap := b.Add(&pb.Stream{Dict: pb.D("Type", pb.Name("XObject"), "Subtype", pb.Name("Form"), "BBox", pb.Array{0, 0, 1, 1},
				"Resources", pb.D("XObject", pb.D("FRM", icon))), Data: []byte("/FRM Do")})
			w := b.Add(pb.D("Type", pb.Name("Annot"), "Subtype", pb.Name("Widget"), "Rect", pb.Array{0, 0, 1, 1},
				"AP", pb.D("N", ap), "MK", pb.D("I", icon)))
			setPage(b, rs, 0, func(d *pb.Dict) { d.Set("Resources", pb.D()); d.Set("Annots", pb.Array{w}) })
		}}, "WC-R-ZERO", []string{"annotation's appearance", "keep it"}, []string{"remove"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := audit(t, tc.s)
			var got []Finding
			for _, f := range fs {
				switch f.Rule {
				case "WC-R-COUNT", "WC-R-ZERO":
					got = append(got, f)
				}
			}
			if tc.rule == "" {
				if len(got) != 0 {
					t.Fatalf("findings about /R:%s", show(got))
				}
				return
			}
			if len(got) != 1 || got[0].Rule != tc.rule {
				t.Fatalf("findings about /R:%s\nwant one %s", show(got), tc.rule)
			}
			for _, s := range tc.has {
				if !strings.Contains(got[0].Message, s) {
					t.Errorf("message %q lacks %q", got[0].Message, s)
				}
			}
			for _, s := range tc.not {
				if strings.Contains(got[0].Message, s) {
					t.Errorf("message %q says %q", got[0].Message, s)
				}
			}
		})
	}
}

func set0R() func(d *pb.Dict) { return func(d *pb.Dict) { d.Set("R", 0) } }

// A command that only a source information's /C reaches is checked as
// SpiderInfo's are; a direct /C is WC-SI-C, and its command is checked too.
func TestSourceCommands(t *testing.T) {
	cases := map[string]spec{
		"indirect, not in SpiderInfo": {info: func(d *pb.Dict) { d.Set("C", pb.Array{}) }, cmd: func(d *pb.Dict) { d.Set("F", 9) }},
		"direct":                      {spsSI: func(d *pb.Dict) { d.Set("C", pb.D("URL", pb.Lit(home), "F", 9)) }},
	}
	for name, s := range cases {
		t.Run(name, func(t *testing.T) {
			fs := audit(t, s)
			n := 0
			for _, f := range fs {
				if f.Rule == "WC-CMD-FLAGS" {
					n++
				}
			}
			if n != 1 {
				t.Errorf("%d WC-CMD-FLAGS findings, want 1:%s", n, show(fs))
			}
		})
	}
}

// A page /ID in a file that keeps Web Capture structures and finds no
// parent is still WC-PARENT, an error; only in a file with none left is it
// residue.
func TestIDResidue(t *testing.T) {
	for _, s := range []spec{{residue: true}, {page: func(i int, d *pb.Dict) { d.Set("ID", pb.Hex("\x42")) }}} {
		rules := map[string]bool{}
		for _, f := range audit(t, s) {
			rules[f.Rule] = true
		}
		if s.residue == rules["WC-PARENT"] || s.residue != rules["WC-ID-RESIDUE"] {
			t.Errorf("residue %v: rules %v", s.residue, rules)
		}
	}
}

// A page set's /O entry that is a page the page tree names but that cannot
// be located (a damaged file's) is one WC-DANGLING, not also a
// WC-CS-O-TARGET: the page tree does list it.
func TestDanglingPageNotOTarget(t *testing.T) {
	s := spec{
		extra: func(b *pb.Builder, r refs) {
			parent := b.Get(r.pages[0]).(pb.Dict).Get("Parent").(pb.Ref)
			d := b.Get(parent).(pb.Dict)
			d.Set("Kids", append(d.Get("Kids").(pb.Array), pb.Ref(999)))
			d.Set("Count", len(r.pages)+1)
			b.Set(parent, d)
		},
		sps: func(d *pb.Dict) { d.Set("O", append(d.Get("O").(pb.Array), pb.Ref(999))) },
	}
	var got []string
	for _, f := range audit(t, s) {
		got = append(got, f.Rule)
	}
	if !slices.Contains(got, "WC-DANGLING") || slices.Contains(got, "WC-CS-O-TARGET") {
		t.Errorf("rules %v, want WC-DANGLING and no WC-CS-O-TARGET", got)
	}
}

// xrefEntry matches an in-use entry of a cross-reference table.
var xrefEntry = regexp.MustCompile(`(?m)^(\d{10}) 00000 n\s*$`)

// startXRefOff moves the file's startxref 7 bytes off, so that it reaches
// no cross-reference section.
func startXRefOff(b []byte) []byte {
	i := bytes.LastIndex(b, []byte("startxref"))
	f := bytes.Fields(b[i+len("startxref"):])
	off, _ := strconv.Atoi(string(f[0]))
	return fmt.Appendf(b[:i:i], "startxref\n%d\n%%%%EOF\n", off+7)
}

// certify adds a DocMDP certification with permission p whose /ByteRange
// ends at signed bytes (not a real signature: what the reader reads).
func certify(p, signed int) func(b *pb.Builder, d *pb.Dict) {
	return func(b *pb.Builder, d *pb.Dict) {
		sig := b.Add(pb.D("Type", pb.Name("Sig"), "ByteRange", pb.Array{0, 1, 1, signed - 1},
			"Reference", pb.Array{pb.D("Type", pb.Name("SigRef"), "TransformMethod", pb.Name("DocMDP"),
				"TransformParams", pb.D("Type", pb.Name("TransformParams"), "V", pb.Name("1.2"), "P", p))}))
		d.Set("Perms", pb.D("DocMDP", sig))
	}
}

// A raw byte in a host is not mended by percent-encoding (canon rejects a
// host that is not UTF-8, escaped or not): WC-URL-NONASCII does not
// suggest it there, and does in a path.
func TestURLNonASCIIHost(t *testing.T) {
	for _, tc := range []struct{ au, want, not string }{
		{"http://m\xfcnchen.de/", "converted to UTF-8", "percent-encoded:"},
		{"http://www.example.com/caf\xe9", `percent-encoded: "http://www.example.com/caf%E9"`, "converted"},
	} {
		var msgs []string
		for _, f := range audit(t, spec{spsSI: func(d *pb.Dict) { d.Set("AU", pb.Lit(tc.au)) }}) {
			if f.Rule == "WC-URL-NONASCII" {
				msgs = append(msgs, f.Message)
			}
		}
		if len(msgs) != 1 || !strings.Contains(msgs[0], tc.want) || strings.Contains(msgs[0], tc.not) {
			t.Errorf("%q: WC-URL-NONASCII %q, want one saying %q", tc.au, msgs, tc.want)
		}
	}
}

// Rule.Detail is docs/rules.md's paragraphs after the table, without their
// Markdown: each paragraph, in order, and only rules of the table.
func TestRuleDetailsAreDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, _ := strings.Cut(string(doc), fmt.Sprintf("| `%s` |", Rules[len(Rules)-1].ID))
	after, _, _ = strings.Cut(after, "\n## ")
	emphasis := regexp.MustCompile(`\*(\w+)\*`)
	var paras []string
	for i, p := range strings.Split(after, "\n\n") {
		if i == 0 || strings.TrimSpace(p) == "" {
			continue // the table's last row
		}
		p = emphasis.ReplaceAllString(strings.ReplaceAll(p, "`", ""), "$1")
		paras = append(paras, strings.Join(strings.Fields(p), " "))
	}
	if len(paras) != len(details) {
		t.Errorf("docs/rules.md has %d paragraphs after its table, audit %d details", len(paras), len(details))
	}
	for i, d := range details {
		text := strings.Join(strings.Fields(d.text), " ")
		if i < len(paras) && paras[i] != text {
			t.Errorf("detail %d (%v) is not docs/rules.md's paragraph %d:\n got %q\nwant %q", i, d.rules, i, text, paras[i])
		}
		for _, id := range d.rules {
			r, ok := ruleByID[id]
			if !ok {
				t.Errorf("detail %d: no rule %s", i, id)
				continue
			}
			if !strings.Contains(text, id) && !strings.Contains(text, id[:strings.LastIndex(id, "-")+1]+"*") {
				t.Errorf("detail %d does not name %s", i, id)
			}
			if r.Detail() != text {
				t.Errorf("%s.Detail() = %q, want detail %d", id, r.Detail(), i)
			}
		}
	}
}
