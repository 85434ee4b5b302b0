package pdfio

import (
	"fmt"
	"slices"
	"testing"

	pb "github.com/webcap/webcap/internal/pdfbuild"
)

// dumpParentTree lists the tree's entries as "key resolves [elements]".
func dumpParentTree(pt *ParentTree) []string {
	if pt == nil {
		return nil
	}
	var keys []int64
	for k := range pt.Entries {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var out []string
	for _, k := range keys {
		out = append(out, fmt.Sprintf("%d %v %v", k, pt.Entries[k].Resolves, pt.Entries[k].Elems))
	}
	return out
}

func TestParentTree(t *testing.T) {
	for _, tc := range []struct {
		name    string
		tree    func(b *pb.Builder, art pb.Ref) any
		want    []string
		defects []DefectKind
	}{
		{"flat Nums, indirect arrays", func(b *pb.Builder, art pb.Ref) any {
			return b.Add(pb.D("Nums", pb.Array{0, b.Add(pb.Array{art, art}), 1, pb.Array{art}}))
		}, []string{"0 true [7 0 R 7 0 R]", "1 true [7 0 R]"}, nil},
		{"Kids, an element value, a null value", func(b *pb.Builder, art pb.Ref) any {
			leaf1 := b.Add(pb.D("Limits", pb.Array{0, 1}, "Nums", pb.Array{0, pb.Array{art}, 1, art}))
			leaf2 := b.Add(pb.D("Limits", pb.Array{2, 2}, "Nums", pb.Array{2, nil}))
			return b.Add(pb.D("Kids", pb.Array{leaf1, leaf2}))
		}, []string{"0 true [7 0 R]", "1 true [7 0 R]", "2 false []"}, nil},
		{"a node reached twice", func(b *pb.Builder, art pb.Ref) any {
			leaf := b.Add(pb.D("Nums", pb.Array{0, pb.Array{art}}))
			return b.Add(pb.D("Kids", pb.Array{leaf, leaf}))
		}, []string{"0 true [7 0 R]"}, []DefectKind{Cycle}},
		{"a key that is not an integer, an odd Nums", func(b *pb.Builder, art pb.Ref) any {
			return pb.D("Nums", pb.Array{pb.Name("x"), pb.Array{art}, 1})
		}, nil, []DefectKind{StructEntry, StructEntry}},
		{"Nums not an array, a node not a dictionary", func(b *pb.Builder, art pb.Ref) any {
			return pb.D("Nums", 3, "Kids", pb.Array{7})
		}, nil, []DefectKind{StructEntry, StructEntry}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := structFile(t, func(b *pb.Builder, pages []pb.Ref) pb.Dict {
				str := b.Reserve()
				art := b.Add(pb.D("S", pb.Name("Article"), "C", pb.Name("SpdrArt"), "P", str, "Pg", pages[0], "K", 0))
				if art != 7 {
					t.Fatalf("the Article is object %d, the table expects 7", art)
				}
				b.Set(str, pb.D("Type", pb.Name("StructTreeRoot"), "K", art, "ParentTree", tc.tree(b, art), "ParentTreeNextKey", 3))
				return pb.D("StructTreeRoot", str)
			})
			if got := dumpParentTree(d.ParentTree); !slices.Equal(got, tc.want) {
				t.Errorf("ParentTree %q, want %q", got, tc.want)
			}
			if d.ParentTree == nil || d.ParentTree.NextKey == nil || *d.ParentTree.NextKey != 3 {
				t.Errorf("ParentTreeNextKey not read as 3")
			}
			var kinds []DefectKind
			for _, df := range d.Defects {
				kinds = append(kinds, df.Kind)
			}
			if !slices.Equal(kinds, tc.defects) {
				t.Errorf("defects %v, want kinds %v", d.Defects, tc.defects)
			}
		})
	}
}

// Outline items whose /SE are many elements outside the tree, each over
// one large /K array, are read within one budget, not each in full.
func TestTaggedBookmarksBudget(t *testing.T) {
	const items, mcids = 400, 20000 // 8 M kids in all, past the budget of maxStructElems
	d := structFile(t, func(b *pb.Builder, pages []pb.Ref) pb.Dict {
		k := make(pb.Array, mcids)
		for i := range k {
			k[i] = i
		}
		kids := b.Add(k)
		root, site := b.Reserve(), b.Reserve()
		var first, prev pb.Ref
		for i := range items {
			art := b.Add(pb.D("S", pb.Name("Article"), "C", pb.Name("SpdrArt"), "Pg", pages[0], "K", kids))
			it := b.Add(pb.D("Title", pb.Lit("x"), "Parent", site, "SE", art, "Dest", pb.Array{pages[0], pb.Name("Fit")}))
			if i == 0 {
				first = it
			} else {
				d := b.Get(prev).(pb.Dict)
				d.Set("Next", it)
				b.Set(prev, d)
			}
			prev = it
		}
		b.Set(site, pb.D("Title", pb.Lit("site"), "Parent", root, "First", first, "Last", prev, "Count", items))
		b.Set(root, pb.D("Type", pb.Name("Outlines"), "First", site, "Last", site, "Count", items+1))
		return pb.D("Outlines", root)
	})
	read := 0
	for _, it := range d.Outline[0].Kids {
		if it.SEArticle != nil && it.SEArticle.MCIDs == mcids {
			read++
		}
	}
	if read == 0 || read >= items {
		t.Errorf("%d of %d Articles read whole; want some, within the budget, not all", read, items)
	}
}
