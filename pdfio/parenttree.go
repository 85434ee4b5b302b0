package pdfio

import (
	"strconv"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// The structure tree's /ParentTree (PDF 1.7 §10.6.4, Table 10.9): a number
// tree (§3.8.6) from each page's /StructParents key to the array of the
// elements that own the page's marked content. The walk reads /Nums and
// /Kids, bounded and cycle-checked; the name-tree walk (tree.go) checks
// order and /Limits of string keys for the IDS and URLS rules, which this
// tree does not need, so it is not reused.

// Bounds of the /ParentTree walk.
const (
	maxParentTreeDepth = 64
	maxParentTreeNodes = 1 << 16
	maxParentEntries   = 1 << 20
)

// A ParentTree is the structure tree's /ParentTree.
type ParentTree struct {
	Ref     webcapture.Ref         // the root; zero if direct
	Entries map[int64]*ParentEntry // by key; a key written twice keeps its first value
	NextKey *int64                 // the StructTreeRoot's /ParentTreeNextKey; nil if absent
}

// A ParentEntry is one key's value.
type ParentEntry struct {
	Path string // where the value is
	// Resolves: the value is an array (of elements, one per MCID) or a
	// dictionary (an element), not null or a reference to nothing.
	Resolves bool
	Elems    []webcapture.Ref // the indirect elements the value names, in order
}

// readParentTree reads the number tree o.
func (r *reader) readParentTree(o types.Object) *ParentTree {
	pt := &ParentTree{Entries: map[int64]*ParentEntry{}}
	seen := map[webcapture.Ref]bool{}
	nodes := 0
	var node func(o types.Object, path string, depth int)
	node = func(o types.Object, path string, depth int) {
		v, ref, ok := r.resolve(o, path)
		if !ok || v == nil {
			return
		}
		if depth == 1 {
			pt.Ref = ref
		}
		if !ref.IsZero() {
			if seen[ref] {
				r.defect(ref, path, Cycle, "the /ParentTree reaches %s twice", ref)
				return
			}
			seen[ref] = true
		}
		if nodes++; nodes > maxParentTreeNodes || depth > maxParentTreeDepth {
			r.defect(ref, path, TooMany, "the /ParentTree has more than %d nodes or %d levels; the rest is not read", maxParentTreeNodes, maxParentTreeDepth)
			return
		}
		d, isDict := v.(types.Dict)
		if !isDict {
			r.defect(ref, path, StructEntry, "%s is %s, want a number-tree node (a dictionary)", path, typeName(v))
			return
		}
		if n, ok := r.outlineValue(d, "Nums", path); ok {
			a, isArr := n.(types.Array)
			if !isArr {
				r.defect(ref, path+"/Nums", StructEntry, "%s/Nums is %s, want an array", path, typeName(n))
			} else {
				for i := 0; i+1 < len(a) && len(pt.Entries) < maxParentEntries; i += 2 {
					kp := path + "/Nums[" + strconv.Itoa(i) + "]"
					kv, _, _ := r.resolve(a[i], kp)
					k, isInt := kv.(types.Integer)
					if !isInt {
						r.defect(ref, kp, StructEntry, "%s is %s, want an integer key", kp, typeName(kv))
						continue
					}
					if _, dup := pt.Entries[int64(k)]; dup {
						continue
					}
					pt.Entries[int64(k)] = r.parentEntry(a[i+1], path+"/Nums["+strconv.Itoa(i+1)+"]")
				}
				if len(a)%2 != 0 {
					r.defect(ref, path+"/Nums", StructEntry, "%s/Nums has %d elements, want key and value pairs", path, len(a))
				}
			}
		}
		if k, ok := r.outlineValue(d, "Kids", path); ok {
			a, isArr := k.(types.Array)
			if !isArr {
				r.defect(ref, path+"/Kids", StructEntry, "%s/Kids is %s, want an array", path, typeName(k))
				return
			}
			for i, kid := range a {
				node(kid, path+"/Kids["+strconv.Itoa(i)+"]", depth+1)
			}
		}
	}
	node(o, "StructTreeRoot/ParentTree", 1)
	return pt
}

// parentEntry reads a /ParentTree value: an element, or an array of
// elements (null for an MCID no element owns).
func (r *reader) parentEntry(o types.Object, path string) *ParentEntry {
	e := &ParentEntry{Path: path}
	if ir, isRef := o.(types.IndirectRef); isRef {
		if v, _, ok := r.resolve(o, path); ok && v != nil {
			if _, isDict := v.(types.Dict); isDict {
				e.Resolves = true
				e.Elems = []webcapture.Ref{refOf(ir)}
				return e
			}
		}
	}
	v, _, ok := r.resolve(o, path)
	if !ok || v == nil {
		return e
	}
	a, isArr := v.(types.Array)
	if !isArr {
		return e
	}
	e.Resolves = true
	for _, el := range a {
		if ir, isRef := el.(types.IndirectRef); isRef {
			e.Elems = append(e.Elems, refOf(ir))
		}
	}
	return e
}

// readTaggedBookmarks reads, for each outline item with /SE, the element
// /SE names: an SpdrArt Article already met in the structure tree, or one
// read from the element itself.
func (r *reader) readTaggedBookmarks() {
	byRef := map[webcapture.Ref]*Article{} // every /SE read, nil when it is not an Article
	steps := maxStructElems                // for all the elements read here: items to one big element, or many, read it within this budget
	for _, a := range r.doc.Articles {
		if !a.Ref.IsZero() {
			byRef[a.Ref] = a
		}
	}
	var walk func(items []*OutlineItem)
	walk = func(items []*OutlineItem) {
		for _, it := range items {
			if !it.SE.IsZero() {
				a, ok := byRef[it.SE]
				if !ok {
					a = r.articleAt(it.SE, &steps)
					byRef[it.SE] = a
				}
				it.SEArticle = a
			}
			walk(it.Kids)
		}
	}
	walk(r.doc.Outline)
}

// articleAt reads the element ref as an SpdrArt Article; nil if it is not
// one (or the budget steps ran out). The walk's defects are dropped: the
// element is read again where the tree reaches it, and reported there.
func (r *reader) articleAt(ref webcapture.Ref, steps *int) *Article {
	o := types.IndirectRef{ObjectNumber: types.Integer(ref.Num), GenerationNumber: types.Integer(ref.Gen)}
	v, _, ok := r.resolve(o, "SE")
	if !ok || v == nil {
		return nil
	}
	d, isDict := v.(types.Dict)
	if !isDict {
		return nil
	}
	roles := r.roles
	if roles == nil {
		roles = map[string]string{}
	}
	w := &structWalk{r: r, seen: map[webcapture.Ref]bool{}, roles: roles, steps: steps}
	n := len(r.doc.Defects)
	w.elem(d, ref, "SE", 1, nil, webcapture.Ref{})
	r.doc.Defects = r.doc.Defects[:n] // the element is not part of the tree: its defects are not the tree's
	if w.last != nil && w.last.Ref == ref {
		return w.last
	}
	return nil
}
