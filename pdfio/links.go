package pdfio

import (
	"fmt"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// A LinkURI is a link annotation whose action opens a URI.
type LinkURI struct {
	Annot webcapture.Ref
	URI   string
}

// LinkURIs returns a page's link annotations with URI actions, in /Annots
// order. Direct annotations are left out (they cannot be replaced alone).
func (u *Update) LinkURIs(page webcapture.Ref) ([]LinkURI, error) {
	var out []LinkURI
	err := u.eachLink(page, func(r types.IndirectRef, ad types.Dict) {
		act, _ := u.dictAt(ad["A"])
		if s, _ := act["S"].(types.Name); s != "URI" {
			return
		}
		uo := act["URI"]
		if r, ok := uo.(types.IndirectRef); ok {
			uo, _ = u.lookup(r)
		}
		if uri, ok := rawString(uo); ok {
			out = append(out, LinkURI{Annot: refOf(r), URI: uri})
		}
	})
	return out, err
}

// eachLink calls f with each indirect link annotation of a page, in
// /Annots order.
func (u *Update) eachLink(page webcapture.Ref, f func(types.IndirectRef, types.Dict)) error {
	d, err := u.pageDict(page)
	if err != nil {
		return err
	}
	arr, err := u.arrayAt(d["Annots"])
	if err != nil {
		return err
	}
	for _, a := range arr {
		r, ok := a.(types.IndirectRef)
		if !ok {
			continue
		}
		ad, err := u.dictAt(r)
		if err != nil || ad == nil {
			continue
		}
		if st, _ := ad["Subtype"].(types.Name); st == "Link" {
			f(r, ad)
		}
	}
	return nil
}

// SetLinkGoTo makes a link annotation go to the named destination dest,
// keeping its previous action in /PA (PDF 1.7 Table 8.24: the URI it was
// made from, for Web Capture).
func (u *Update) SetLinkGoTo(annot webcapture.Ref, dest string) error {
	o, err := u.lookup(indirect(annot))
	if err != nil {
		return err
	}
	d, ok := o.(types.Dict)
	if !ok {
		return fmt.Errorf("object %s is not an annotation", annot)
	}
	d = copyDict(d)
	if a, ok := d["A"]; ok {
		d["PA"] = u.previousAction(a)
	}
	d["A"] = types.Dict{"S": types.Name("GoTo"), "D": literalString(dest)}
	u.replace(indirect(annot), d)
	return nil
}

// previousAction is a link's action as /PA keeps it: as it is, unless its
// /Type is other than /Action (real files carry a stray /Type /A, which
// readers let pass under /A and reject under /PA; PDF 1.7 Table 8.44: Type,
// if present, shall be Action). Then a copy without it, as a direct
// dictionary, so that the file is as valid after the move as before; the
// original action object is left as it is.
func (u *Update) previousAction(a types.Object) types.Object {
	d, _ := resolveAs[types.Dict](u, a)
	t, hasType := d["Type"].(types.Name)
	if d == nil || !hasType || t == "Action" {
		return a
	}
	d = copyDict(d)
	delete(d, "Type")
	return d
}

// SetDests sets the /Dests name tree: each name in dests goes to its page
// and view. The tree's other names are kept, except
// that a destination on a page that moved (a key of moved, as ReplacePages
// moves them) goes to the page's replacement.
func (u *Update) SetDests(dests map[string]Dest, moved map[webcapture.Ref]webcapture.Ref) error {
	kept, err := u.treeEntries("Dests")
	if err != nil {
		return err
	}
	entries := make([]treeEntry, 0, len(kept)+len(dests))
	for _, e := range kept {
		if _, ok := dests[e.Key]; ok {
			continue
		}
		e.Value = u.movedDest(e.Value, moved)
		entries = append(entries, e)
	}
	for name, dest := range dests {
		a := types.Array{indirect(dest.Page), types.Name("Fit")}
		if dest.View.XYZ {
			a = types.Array{indirect(dest.Page), types.Name("XYZ"), types.Float(dest.View.Left), types.Float(dest.View.Top), nil}
		}
		entries = append(entries, treeEntry{Key: name, Value: u.add(a)})
	}
	root, err := buildNameTree(entries, TreeShape{}, u.alloc)
	if err != nil {
		return err
	}
	if u.names == nil {
		if err := u.loadNames(); err != nil {
			return err
		}
	}
	u.names["Dests"] = root
	return nil
}

// movedDest returns a destination (an array, or a dictionary with /D,
// direct or not) whose page moved as a new object going to the new page;
// any other value as it is.
func (u *Update) movedDest(v types.Object, moved map[webcapture.Ref]webcapture.Ref) types.Object {
	if len(moved) == 0 {
		return v
	}
	o := v
	if r, ok := v.(types.IndirectRef); ok {
		o, _ = u.lookup(r)
	}
	switch d := o.(type) {
	case types.Array:
		if len(d) > 0 {
			if p, ok := d[0].(types.IndirectRef); ok {
				if to, ok := moved[refOf(p)]; ok {
					a := append(types.Array{indirect(to)}, d[1:]...)
					return u.add(a)
				}
			}
		}
	case types.Dict:
		if nd := u.movedDest(d["D"], moved); nd != d["D"] {
			c := copyDict(d)
			c["D"] = nd
			return u.add(c)
		}
	}
	return v
}

// treeEntries reads the catalog's /Names tree name as raw entries (keys as
// bytes, values as they are), bounded like the reader's walk: a malformed
// node is an error, since what is kept must be kept whole.
func (u *Update) treeEntries(name string) ([]treeEntry, error) {
	if u.names == nil {
		if err := u.loadNames(); err != nil {
			return nil, err
		}
	}
	root, ok := u.names[name]
	if !ok {
		return nil, nil
	}
	var out []treeEntry
	seen := map[int]bool{}
	nodes := 0
	var walk func(o types.Object, depth int) error
	walk = func(o types.Object, depth int) error {
		if r, ok := o.(types.IndirectRef); ok {
			if seen[r.ObjectNumber.Value()] {
				return fmt.Errorf("the %s tree reaches object %d twice", name, r.ObjectNumber.Value())
			}
			seen[r.ObjectNumber.Value()] = true
		}
		nodes++
		if depth > u.opts.MaxTreeDepth || nodes > u.opts.MaxTreeNodes {
			return fmt.Errorf("the %s tree is deeper than %d or larger than %d nodes", name, u.opts.MaxTreeDepth, u.opts.MaxTreeNodes)
		}
		d, err := u.dictAt(o)
		if err != nil || d == nil {
			return fmt.Errorf("a node of the %s tree is not a dictionary", name)
		}
		if kids, ok := d["Kids"]; ok {
			k, _ := u.arrayAt(kids)
			for _, kid := range k {
				if err := walk(kid, depth+1); err != nil {
					return err
				}
			}
			return nil
		}
		names, _ := u.arrayAt(d["Names"])
		for i := 0; i+1 < len(names); i += 2 {
			ko := names[i]
			if r, ok := ko.(types.IndirectRef); ok {
				ko, _ = u.lookup(r)
			}
			key, ok := rawString(ko)
			if !ok {
				return fmt.Errorf("a key of the %s tree is %s, not a string", name, typeName(ko))
			}
			out = append(out, treeEntry{Key: key, Value: names[i+1]})
		}
		return nil
	}
	if err := walk(root, 1); err != nil {
		return nil, err
	}
	return out, nil
}

func (u *Update) arrayAt(o types.Object) (types.Array, error) { return resolveAs[types.Array](u, o) }

// DestNames returns the names of the /Names /Dests tree.
func (u *Update) DestNames() (map[string]bool, error) {
	es, err := u.treeEntries("Dests")
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(es))
	for _, e := range es {
		out[e.Key] = true
	}
	return out, nil
}

// DestPages returns the /Names /Dests tree's names with the page each
// goes to (names whose value is not an array or /D dictionary starting
// with a page reference are left out).
func (u *Update) DestPages() (map[string]webcapture.Ref, error) {
	es, err := u.treeEntries("Dests")
	if err != nil {
		return nil, err
	}
	out := map[string]webcapture.Ref{}
	for _, e := range es {
		v := e.Value
		if r, ok := v.(types.IndirectRef); ok {
			v, _ = u.lookup(r)
		}
		if d, ok := v.(types.Dict); ok {
			v = d["D"]
		}
		if a, ok := v.(types.Array); ok && len(a) > 0 {
			if p, ok := a[0].(types.IndirectRef); ok {
				out[e.Key] = refOf(p)
			}
		}
	}
	return out, nil
}
