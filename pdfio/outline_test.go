package pdfio

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/webcapture"
)

// structFile builds a file of three pages (StructParents 0, 1, 2) whose
// catalog gets the entries mk returns (/Outlines, /StructTreeRoot, ...).
func structFile(t *testing.T, mk func(b *pb.Builder, pages []pb.Ref) pb.Dict) *Document {
	t.Helper()
	b := pb.New()
	root, pages := b.PageTree(3, func(i int) pb.Dict { return pb.D("StructParents", i) })
	cat := append(pb.D("Type", pb.Name("Catalog"), "Pages", root), mk(b, pages)...)
	b.Root = b.Add(cat)
	d, err := ReadBytes(b.Bytes(), "outline.pdf", Options{})
	if err != nil {
		t.Fatalf("ReadBytes: %v", err)
	}
	return d
}

// ref is the reader's reference for a builder's.
func ref(r pb.Ref) webcapture.Ref { return webcapture.Ref{Num: int(r)} }

// webCaptureShape adds what Acrobat writes for one site of two page sets:
// a site item with two tagged items, each with /SE to its set's SpdrArt
// Article, the first over pages 1 and 2 (an MCID on /Pg, MCRs on both
// pages, kids not in page order), the second on page 3, reached by a /GoTo
// action, its /S /Art mapped to Article by /RoleMap and its /C an array.
func webCaptureShape(b *pb.Builder, pages []pb.Ref) (cat pb.Dict, items, arts [4]pb.Ref) {
	str, doc := b.Reserve(), b.Reserve()
	arts[0] = b.Add(pb.D("S", pb.Name("Article"), "C", pb.Name("SpdrArt"), "P", doc, "Pg", pages[0],
		"K", pb.Array{0, pb.D("Type", pb.Name("MCR"), "MCID", 0, "Pg", pages[1]), 1, pb.D("Type", pb.Name("MCR"), "MCID", 1, "Pg", pages[0])}))
	arts[1] = b.Add(pb.D("S", pb.Name("Art"), "C", pb.Array{pb.Name("Other"), 2, pb.Name("SpdrArt")}, "P", doc, "Pg", pages[2], "K", 0))
	plain := b.Add(pb.D("S", pb.Name("Article"), "P", doc, "Pg", pages[2], "K", 1)) // not SpdrArt
	b.Set(doc, pb.D("S", pb.Name("Document"), "P", str, "K", pb.Array{arts[0], arts[1], plain}))
	b.Set(str, pb.D("Type", pb.Name("StructTreeRoot"), "K", doc, "RoleMap", pb.D("Art", pb.Name("Article")),
		"ClassMap", pb.D("SpdrArt", pb.D("O", pb.Name("WebCapture")))))
	root, site := b.Reserve(), b.Reserve()
	items[1] = b.Add(pb.D("Title", pb.Hex("\xfe\xff\x00P\x00a\x00g\x00e"), "Parent", site, "SE", arts[0],
		"Dest", pb.Array{pages[0], pb.Name("XYZ"), 0, 792, nil}))
	items[2] = b.Reserve()
	b.Set(items[2], pb.D("Title", pb.Lit("Second (set)"), "Parent", site, "Prev", items[1], "SE", arts[1],
		"A", pb.D("S", pb.Name("GoTo"), "D", pb.Array{pages[2], pb.Name("Fit")})))
	b.Set(items[1], append(b.Get(items[1]).(pb.Dict), pb.D("Next", items[2])...))
	b.Set(site, pb.D("Title", pb.Lit("example.com"), "Parent", root, "First", items[1], "Last", items[2], "Count", 2))
	b.Set(root, pb.D("Type", pb.Name("Outlines"), "First", site, "Last", site, "Count", 3))
	items[0] = site
	return pb.D("Outlines", root, "StructTreeRoot", str), items, arts
}

func TestOutlineAndArticles(t *testing.T) {
	var items, arts [4]pb.Ref
	d := structFile(t, func(b *pb.Builder, pages []pb.Ref) pb.Dict {
		cat, it, ar := webCaptureShape(b, pages)
		items, arts = it, ar
		return cat
	})
	if len(d.Defects) != 0 {
		t.Errorf("defects: %v", d.Defects)
	}
	want := []*OutlineItem{{Ref: ref(items[0]), Title: "example.com", Kids: []*OutlineItem{
		{Ref: ref(items[1]), Title: "\xfe\xff\x00P\x00a\x00g\x00e", Dest: 1, DestForm: "XYZ", Page: d.Pages[0].Ref, SE: ref(arts[0])},
		{Ref: ref(items[2]), Title: "Second (set)", Dest: 3, DestForm: "Fit", Page: d.Pages[2].Ref, SE: ref(arts[1])},
	}}}
	wantArts := []*Article{{Ref: ref(arts[0]), Pages: []int{1, 2}, MCIDs: 4}, {Ref: ref(arts[1]), Pages: []int{3}, MCIDs: 1}}
	for i, it := range d.Outline[0].Kids { // a tagged bookmark's /SE is the Article the tree holds
		if it.SEArticle != d.Articles[i] {
			t.Errorf("item %d: SEArticle %v, want the tree's Article %v", i, it.SEArticle, d.Articles[i])
		}
		it.SEArticle = nil
	}
	if !reflect.DeepEqual(d.Outline, want) {
		t.Errorf("Outline = %s, want %s", dumpOutline(d.Outline), dumpOutline(want))
	}
	if !reflect.DeepEqual(d.Articles, wantArts) {
		t.Errorf("Articles = %s, want %s", dumpArticles(d.Articles), dumpArticles(wantArts))
	}
	for i, p := range d.Pages {
		if p.StructParents == nil || *p.StructParents != int64(i) {
			t.Errorf("page %d: StructParents %v, want %d", p.Number, p.StructParents, i)
		}
	}
}

// Malformed outlines and structure trees are defects, read as far as they
// can be, and never a hang or a panic.
func TestOutlineDefects(t *testing.T) {
	item := func(b *pb.Builder, kv ...any) pb.Ref {
		return b.Add(pb.D(append([]any{"Title", pb.Lit("x")}, kv...)...))
	}
	tests := []struct {
		name  string
		mk    func(b *pb.Builder, pages []pb.Ref) pb.Dict
		kind  DefectKind
		items int // items read, at every level
		arts  int
	}{
		{"no outline", func(b *pb.Builder, pages []pb.Ref) pb.Dict { return nil }, "", -1, 0},
		{"empty outline", func(b *pb.Builder, pages []pb.Ref) pb.Dict {
			return pb.D("Outlines", b.Add(pb.D("Type", pb.Name("Outlines"), "Count", 0)))
		}, "", 0, 0},
		{"cycle in /Next", func(b *pb.Builder, pages []pb.Ref) pb.Dict {
			a, c := b.Reserve(), b.Reserve()
			b.Set(a, pb.D("Title", pb.Lit("a"), "Next", c))
			b.Set(c, pb.D("Title", pb.Lit("c"), "Next", a))
			return pb.D("Outlines", b.Add(pb.D("First", a)))
		}, Cycle, 2, 0},
		{"item that is its own kid", func(b *pb.Builder, pages []pb.Ref) pb.Dict {
			a := b.Reserve()
			b.Set(a, pb.D("Title", pb.Lit("a"), "First", a))
			return pb.D("Outlines", b.Add(pb.D("First", a)))
		}, Cycle, 1, 0},
		{"first is the root", func(b *pb.Builder, pages []pb.Ref) pb.Dict {
			root := b.Reserve()
			b.Set(root, pb.D("First", root))
			return pb.D("Outlines", root)
		}, Cycle, 0, 0},
		{"too deep", func(b *pb.Builder, pages []pb.Ref) pb.Dict {
			first := item(b)
			for range maxOutlineDepth {
				first = item(b, "First", first)
			}
			return pb.D("Outlines", b.Add(pb.D("First", first)))
		}, TooDeep, maxOutlineDepth, 0},
		{"title not a string", func(b *pb.Builder, pages []pb.Ref) pb.Dict {
			return pb.D("Outlines", b.Add(pb.D("First", b.Add(pb.D("Title", 7)))))
		}, OutlineEntry, 1, 0},
		{"direct item", func(b *pb.Builder, pages []pb.Ref) pb.Dict {
			return pb.D("Outlines", b.Add(pb.D("First", pb.D("Title", pb.Lit("x")))))
		}, OutlineEntry, 0, 0},
		{"item not a dictionary", func(b *pb.Builder, pages []pb.Ref) pb.Dict {
			return pb.D("Outlines", b.Add(pb.D("First", b.Add(pb.Array{1}))))
		}, OutlineEntry, 0, 0},
		{"outlines not a dictionary", func(b *pb.Builder, pages []pb.Ref) pb.Dict {
			return pb.D("Outlines", b.Add(pb.Lit("x")))
		}, OutlineEntry, -1, 0},
		{"dest a number, action a name, SE direct", func(b *pb.Builder, pages []pb.Ref) pb.Dict {
			return pb.D("Outlines", b.Add(pb.D("First", item(b, "Dest", 3, "Next", item(b, "A", pb.Name("GoTo"), "Next", item(b, "SE", pb.D()))))))
		}, OutlineEntry, 3, 0},
		{"dangling next", func(b *pb.Builder, pages []pb.Ref) pb.Dict {
			return pb.D("Outlines", b.Add(pb.D("First", item(b, "Next", pb.Ref(999)))))
		}, Dangling, 1, 0},
		{"structure element that is its own kid", func(b *pb.Builder, pages []pb.Ref) pb.Dict {
			a := b.Reserve()
			b.Set(a, pb.D("S", pb.Name("Article"), "C", pb.Name("SpdrArt"), "Pg", pages[0], "K", pb.Array{0, a}))
			return pb.D("StructTreeRoot", b.Add(pb.D("Type", pb.Name("StructTreeRoot"), "K", a)))
		}, Cycle, -1, 1},
		{"structure kid of the wrong type", func(b *pb.Builder, pages []pb.Ref) pb.Dict {
			a := b.Add(pb.D("S", pb.Name("Article"), "C", pb.Name("SpdrArt"), "Pg", pb.Lit("p"), "K", pb.Array{0, pb.Lit("x")}))
			return pb.D("StructTreeRoot", b.Add(pb.D("Type", pb.Name("StructTreeRoot"), "K", a)))
		}, StructEntry, -1, 1},
		{"role map loop", func(b *pb.Builder, pages []pb.Ref) pb.Dict {
			a := b.Add(pb.D("S", pb.Name("A"), "C", pb.Name("SpdrArt"), "Pg", pages[0], "K", 0))
			return pb.D("StructTreeRoot", b.Add(pb.D("K", a, "RoleMap", pb.D("A", pb.Name("B"), "B", pb.Name("A")))))
		}, "", -1, 0},
		{"Article mapped by /RoleMap stays an Article", func(b *pb.Builder, pages []pb.Ref) pb.Dict {
			a := b.Add(pb.D("S", pb.Name("Article"), "C", pb.Name("SpdrArt"), "Pg", pages[0], "K", 0))
			return pb.D("StructTreeRoot", b.Add(pb.D("K", a, "RoleMap", pb.D("Article", pb.Name("P")))))
		}, "", -1, 1},
		{"structure too deep", func(b *pb.Builder, pages []pb.Ref) pb.Dict {
			k := b.Add(pb.D("S", pb.Name("Article"), "C", pb.Name("SpdrArt"), "Pg", pages[0], "K", 0))
			for range maxStructDepth {
				k = b.Add(pb.D("S", pb.Name("Div"), "K", k))
			}
			return pb.D("StructTreeRoot", b.Add(pb.D("K", k)))
		}, TooDeep, -1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := structFile(t, tc.mk)
			var kinds []DefectKind
			for _, df := range d.Defects {
				kinds = append(kinds, df.Kind)
			}
			if tc.kind == "" && len(kinds) != 0 || tc.kind != "" && (len(defectsOf(d, tc.kind)) == 0 || len(kinds) != len(defectsOf(d, tc.kind))) {
				t.Errorf("defects %v, want only %q", d.Defects, tc.kind)
			}
			if n := countItems(d.Outline); tc.items < 0 && d.Outline != nil || tc.items >= 0 && (d.Outline == nil || n != tc.items) {
				t.Errorf("outline of %d items (nil: %v), want %d", n, d.Outline == nil, tc.items)
			}
			if len(d.Articles) != tc.arts {
				t.Errorf("%d Articles, want %d", len(d.Articles), tc.arts)
			}
		})
	}
}

// An outline of more than maxOutlineItems items is read up to the bound.
func TestOutlineTooMany(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an outline of 100,001 items")
	}
	d := structFile(t, func(b *pb.Builder, pages []pb.Ref) pb.Dict {
		next := pb.Ref(0)
		for i := range maxOutlineItems + 1 {
			kv := []any{"Title", pb.Lit(fmt.Sprint(i))}
			if next != 0 {
				kv = append(kv, "Next", next)
			}
			next = b.Add(pb.D(kv...))
		}
		return pb.D("Outlines", b.Add(pb.D("First", next)))
	})
	if len(d.Defects) != 1 || d.Defects[0].Kind != TooMany {
		t.Errorf("defects %v, want one %q", d.Defects, TooMany)
	}
	if n := countItems(d.Outline); n != maxOutlineItems {
		t.Errorf("%d items, want %d", n, maxOutlineItems)
	}
}

func countItems(items []*OutlineItem) int {
	n := len(items)
	for _, it := range items {
		n += countItems(it.Kids)
	}
	return n
}

func dumpOutline(items []*OutlineItem) string {
	var sb strings.Builder
	for _, it := range items {
		fmt.Fprintf(&sb, "{%s %q dest %d %s page %s SE %s kids %s}", it.Ref, it.Title, it.Dest, it.DestForm, it.Page, it.SE, dumpOutline(it.Kids))
	}
	return "[" + sb.String() + "]"
}

func dumpArticles(as []*Article) string {
	var sb strings.Builder
	for _, a := range as {
		fmt.Fprintf(&sb, "{%s pages %v MCIDs %d}", a.Ref, a.Pages, a.MCIDs)
	}
	return "[" + sb.String() + "]"
}
