package pdfio

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// Result's document, in part from what the update was given instead of a
// walk of what it wrote. A name tree SetNameTree built is balanced,
// sorted, without duplicates, its /Limits the keys below them: a walk of
// it (walkTree) finds no defect and reads back the entries it was given,
// in key order. A build of 100,000 page sets spent a second on walking
// its own two trees again, for the audit that follows. Result's reader
// takes such a tree from the update's plan (plannedTree): its nodes,
// paths and depth from the dictionaries written, its keys from the
// entries. The values are still read as the walk reads them (entryValue,
// in the same order): the content sets, with their defects, are the
// reader's.
//
// The plan is taken only where the walk is sure to give the same tree;
// anywhere else (the tree in the output's /Names is not the one the plan
// wrote, a key object that does not read back as its key, a tree past
// Options.MaxTreeNodes or MaxTreeDepth, a leaf that does not hold the
// entries in order) the reader walks the tree, as it reads any file.
// TestUpdateResultIsTheReadOfTheBytes holds the two to the same
// Document.

// A treePlan is a name tree SetNameTree built and wrote.
type treePlan struct {
	entries []NameEntry        // as given (not in key order)
	root    types.IndirectRef  // the root written
	nodes   map[int]types.Dict // every node written, by object number
	used    bool               // Result's reader took it (for tests)
}

// planTree returns a plan for the tree SetNameTree is to build over
// entries, and the alloc that records its nodes.
func planTree(entries []NameEntry, alloc func(types.Dict) types.IndirectRef) (*treePlan, func(types.Dict) types.IndirectRef) {
	p := &treePlan{entries: entries, nodes: map[int]types.Dict{}}
	return p, func(d types.Dict) types.IndirectRef {
		ref := alloc(d)
		p.nodes[ref.ObjectNumber.Value()] = d
		return ref
	}
}

// keepPlan keeps the plan of tree name, built with its root, for
// Result's reader.
func (u *Update) keepPlan(name string, p *treePlan, root types.IndirectRef) {
	p.root = root
	if u.plans == nil {
		u.plans = map[string]*treePlan{}
	}
	u.plans[name] = p
}

// plannedLeaf is a leaf of a planned tree as a walk meets it.
type plannedLeaf struct {
	ref   webcapture.Ref
	path  string
	names types.Array
}

// nameTree is the tree the catalog's /Names holds under name (root): the
// update's plan of it where Result's reader may take it, else walked.
func (r *reader) nameTree(name string, root types.Object) *Tree {
	if t := r.plannedTree(name, root); t != nil {
		return t
	}
	return r.walkTree(name, root)
}

// plannedTree is the tree walkTree would read from root, made from the
// update's plan; nil where the plan cannot say it (then nothing was
// read, and the walk reads the tree).
func (r *reader) plannedTree(name string, root types.Object) *Tree {
	p := r.plans[name]
	ir, isRef := root.(types.IndirectRef)
	if p == nil || !isRef || refOf(ir) != refOf(p.root) {
		return nil
	}
	t := &Tree{Name: name, Root: refOf(ir)}
	leaves, ok := p.shape(t, r.opts)
	if !ok {
		return nil
	}
	sorted := p.sorted()
	if !r.planMatches(leaves, sorted) {
		return nil
	}
	if len(sorted) > 0 {
		t.Entries = make([]*Entry, 0, len(sorted)) // (nil for none, as the walk leaves it)
	}
	i := 0
	for _, l := range leaves {
		r.checkStop()
		for j := 0; j+1 < len(l.names); j += 2 {
			ne := sorted[i]
			i++
			e := &Entry{Key: ne.Key, KeyRef: ne.KeyObject, Node: l.ref, nodePath: l.path, index: j}
			r.entryValue(e, l.names[j+1])
			e.Key = sharedKey(name, e)
			t.Entries = append(t.Entries, e)
		}
	}
	p.used = true
	return t
}

// shape walks the plan's nodes from its root as walkTree walks them,
// counting t's Nodes and Depth, and returns its leaves in walk order.
// ok is false where the walk would record a defect (a tree past the
// bounds) or the nodes are not the plan's.
func (p *treePlan) shape(t *Tree, opts Options) (leaves []plannedLeaf, ok bool) {
	var walk func(num int, ref webcapture.Ref, path string, depth int) bool
	walk = func(num int, ref webcapture.Ref, path string, depth int) bool {
		d := p.nodes[num]
		t.Nodes++
		t.Depth = max(t.Depth, depth)
		if d == nil || t.Nodes > opts.MaxTreeNodes {
			return false
		}
		kids, hasKids := d["Kids"].(types.Array)
		names, hasNames := d["Names"].(types.Array)
		switch {
		case hasKids == hasNames || len(d) != 1+min(depth-1, 1):
			return false // (a node with both, or neither; /Limits on every node but the root)
		case hasNames:
			leaves = append(leaves, plannedLeaf{ref, path, names})
			return true
		case depth >= opts.MaxTreeDepth:
			return false
		}
		for i, k := range kids {
			kr, isRef := k.(types.IndirectRef)
			if !isRef || !walk(kr.ObjectNumber.Value(), refOf(kr), fmt.Sprintf("%s/Kids[%d]", path, i), depth+1) {
				return false
			}
		}
		return true
	}
	if !walk(p.root.ObjectNumber.Value(), refOf(p.root), t.Name, 1) || t.Nodes != len(p.nodes) {
		return nil, false
	}
	return leaves, true
}

// sorted is the plan's entries in key order, as buildNameTree wrote them
// (its keys are distinct).
func (p *treePlan) sorted() []NameEntry {
	cmp := func(a, b NameEntry) int { return strings.Compare(a.Key, b.Key) }
	if slices.IsSortedFunc(p.entries, cmp) {
		return p.entries
	}
	s := slices.Clone(p.entries)
	slices.SortFunc(s, cmp)
	return s
}

// planMatches reports whether the leaves hold the entries sorted, in
// order (each value its sets, each key object the entry's, its string
// the key), so that a walk would read them back.
func (r *reader) planMatches(leaves []plannedLeaf, sorted []NameEntry) bool {
	i := 0
	for _, l := range leaves {
		if len(l.names)%2 != 0 || i+len(l.names)/2 > len(sorted) {
			return false
		}
		for j := 0; j < len(l.names); j += 2 {
			e := sorted[i]
			i++
			if !sameSets(l.names[j+1], e.Sets) || !r.keyReadsBack(l.names[j], e) {
				return false
			}
		}
	}
	return i == len(sorted)
}

// sameSets reports whether v, a tree value written, is sets: one
// reference, or an array of more.
func sameSets(v types.Object, sets []webcapture.Ref) bool {
	switch v := v.(type) {
	case types.IndirectRef:
		return len(sets) == 1 && refOf(v) == sets[0]
	case types.Array:
		if len(v) != len(sets) || len(v) < 2 {
			return false
		}
		for i, el := range v {
			if ir, ok := el.(types.IndirectRef); !ok || refOf(ir) != sets[i] {
				return false
			}
		}
		return true
	}
	return false
}

// keyReadsBack reports whether k, a key written for e, reads as e.Key: a
// new string does (hexString, literalString); an existing string object
// (KeyObject) must be in the table, read, and hold e.Key.
func (r *reader) keyReadsBack(k types.Object, e NameEntry) bool {
	ir, isRef := k.(types.IndirectRef)
	if e.KeyObject.IsZero() {
		return !isRef
	}
	if !isRef || refOf(ir) != e.KeyObject {
		return false
	}
	if _, ok := r.recovered[e.KeyObject.Num]; ok {
		return false
	}
	te := r.entry(e.KeyObject.Num)
	if te == nil || te.Free || te.Object == nil {
		return false
	}
	o, err := r.dec.load(te)
	if err != nil {
		return false
	}
	s, isStr := rawString(o)
	return isStr && s == e.Key
}
