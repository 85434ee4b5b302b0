package audit

import (
	"slices"
	"testing"

	pb "github.com/webcap/webcap/internal/pdfbuild"
)

const pageID2 = "\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff\x01"

// tagShape is a tagged capture as Acrobat writes it unless a field says
// otherwise: a StructTreeRoot with one SpdrArt Article over the page set's
// pages, a /ParentTree entry per page, and an outline site item with one
// tagged item whose /Dest is the set's first page and /SE the Article.
type tagShape struct {
	twoSets       bool  // page 2 is a second page set of its own
	artPages      []int // the pages (0-based) of the Article's marked content, in kid order; default 1, 0 (not page order)
	structParents []any // each page's /StructParents (nil: none); default 0, 1
	nums          func(art pb.Ref) pb.Array
	dest          int                                    // the tagged item's destination page (0-based)
	se            func(b *pb.Builder, art pb.Ref) pb.Ref // the tagged item's /SE; default the Article
	artS          any                                    // the Article's /S; default /Article
	title         any                                    // the tagged item's /Title; default (Home)
}

func tagged(ts tagShape) spec {
	if ts.artPages == nil {
		ts.artPages = []int{1, 0}
	}
	if ts.structParents == nil {
		ts.structParents = []any{0, 1}
	}
	if ts.nums == nil {
		ts.nums = func(art pb.Ref) pb.Array { return pb.Array{0, pb.Array{art}, 1, pb.Array{art}} }
	}
	if ts.artS == nil {
		ts.artS = pb.Name("Article")
	}
	if ts.title == nil {
		ts.title = pb.Lit("Home")
	}
	var cat pb.Dict
	s := spec{
		page: func(i int, d *pb.Dict) {
			if sp := ts.structParents[i]; sp != nil {
				d.Set("StructParents", sp)
			}
			if ts.twoSets && i == 1 {
				d.Set("ID", pb.Hex(pageID2))
			}
		},
		extra: func(b *pb.Builder, r refs) {
			str, doc := b.Reserve(), b.Reserve()
			var kids pb.Array
			for _, p := range ts.artPages {
				kids = append(kids, pb.D("Type", pb.Name("MCR"), "MCID", 0, "Pg", r.pages[p]))
			}
			art := b.Add(pb.D("S", ts.artS, "C", pb.Name("SpdrArt"), "P", doc, "Pg", r.pages[ts.artPages[0]], "K", kids))
			b.Set(doc, pb.D("S", pb.Name("Document"), "P", str, "K", art))
			b.Set(str, pb.D("Type", pb.Name("StructTreeRoot"), "K", doc, "ParentTree", b.Add(pb.D("Nums", ts.nums(art))),
				"ParentTreeNextKey", 2, "ClassMap", pb.D("SpdrArt", pb.D("O", pb.Name("WebCapture")))))
			se := art
			if ts.se != nil {
				se = ts.se(b, art)
			}
			root, site, item := b.Reserve(), b.Reserve(), b.Reserve()
			b.Set(item, pb.D("Title", ts.title, "Parent", site, "SE", se, "Dest", pb.Array{r.pages[ts.dest], pb.Name("XYZ"), 0, 792, nil}))
			b.Set(site, pb.D("Title", pb.Lit("example.com"), "Parent", root, "First", item, "Last", item, "Count", 1))
			b.Set(root, pb.D("Type", pb.Name("Outlines"), "First", site, "Last", site, "Count", 2))
			cat = pb.D("Outlines", root, "StructTreeRoot", str)
			if ts.twoSets {
				d := b.Get(r.sps).(pb.Dict)
				d.Set("O", pb.Array{r.pages[0]})
				b.Set(r.sps, d)
				sps2 := b.Add(pb.D("S", pb.Name("SPS"), "ID", pb.Hex(pageID2), "O", pb.Array{r.pages[1]},
					"SI", pb.D("AU", pb.Lit(home+"b")), "T", pb.Lit("B")))
				cat = append(cat, pb.D("sps2", sps2)...) // carried to the ids hook below, removed there
			}
		},
		catalog: func(b *pb.Builder, d *pb.Dict) {
			for _, e := range cat {
				if e.Key != "sps2" {
					d.Set(e.Key, e.Value)
				}
			}
		},
	}
	if ts.twoSets {
		s.ids = func(b *pb.Builder, kv []pb.KV) []pb.KV {
			return append(kv, pb.KV{Key: pageID2, Value: cat.Get("sps2")})
		}
	}
	return s
}

// structureRules are the rules structure.go reports and the two its
// reader defects map to.
var structureRules = []string{"WC-OUTLINE-ENTRY", "WC-STRUCT-ENTRY", "WC-SE-ARTICLE", "WC-ARTICLE-SETS", "WC-STRUCTPARENTS-SHARED", "WC-PARENTTREE-KEY"}

func TestStructureRules(t *testing.T) {
	for _, tc := range []struct {
		name string
		ts   tagShape
		want []string
	}{
		{"as Acrobat writes it, kids not in page order", tagShape{}, nil},
		{"a tagged item to the set's second page", tagShape{dest: 1}, nil},
		{"two sets, the second without an Article (pdfium's linearized file)", tagShape{twoSets: true, artPages: []int{0},
			structParents: []any{0, nil}, nums: func(art pb.Ref) pb.Array { return pb.Array{0, pb.Array{art}} }}, nil},
		{"/SE not on the destination's set", tagShape{twoSets: true, artPages: []int{0}, dest: 1}, []string{"WC-SE-ARTICLE"}},
		{"/SE not an Article", tagShape{se: func(b *pb.Builder, art pb.Ref) pb.Ref {
			return b.Add(pb.D("S", pb.Name("P"), "P", art))
		}}, []string{"WC-SE-ARTICLE"}},
		{"/SE an Article outside the tree (Issue621)", tagShape{se: func(b *pb.Builder, art pb.Ref) pb.Ref {
			return b.Add(b.Get(art))
		}}, nil},
		{"an Article over two sets", tagShape{twoSets: true}, []string{"WC-ARTICLE-SETS"}},
		{"two pages share a key", tagShape{structParents: []any{0, 0}}, []string{"WC-STRUCTPARENTS-SHARED"}},
		{"a key the ParentTree does not hold", tagShape{structParents: []any{0, 5}}, []string{"WC-PARENTTREE-KEY"}},
		{"an entry that is null", tagShape{nums: func(art pb.Ref) pb.Array { return pb.Array{0, pb.Array{art}, 1, nil} }}, []string{"WC-PARENTTREE-KEY"}},
		{"an entry that is a number", tagShape{nums: func(art pb.Ref) pb.Array { return pb.Array{0, pb.Array{art}, 1, 7} }}, []string{"WC-PARENTTREE-KEY"}},
		{"an entry to no object", tagShape{nums: func(art pb.Ref) pb.Array { return pb.Array{0, pb.Array{art}, 1, pb.Ref(999)} }}, []string{"WC-PARENTTREE-KEY"}},
		{"/S not a name", tagShape{artS: pb.Lit("Article")}, []string{"WC-STRUCT-ENTRY", "WC-SE-ARTICLE"}},
		{"/Title not a string", tagShape{title: 3}, []string{"WC-OUTLINE-ENTRY"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := audit(t, tagged(tc.ts))
			var got []string
			for _, f := range fs {
				if slices.Contains(structureRules, f.Rule) {
					got = append(got, f.Rule)
				}
			}
			slices.Sort(got)
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("rules %v, want %v:%s", got, want, show(fs))
			}
		})
	}
}
