package pdfio

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unique"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// inheritable are the page attributes a page tree node passes down to its
// pages (PDF 1.7 Table 3.27).
var inheritable = []string{"Resources", "MediaBox", "CropBox", "Rotate"}

// pageTree is the file's page tree as an update edits it: every
// intermediate node's kids, and each page's and node's parent. Nodes whose
// kids change are rewritten by flushPages, with their ancestors' /Count.
type pageTree struct {
	root   int                // the root node's object number
	nodes  map[int]*pageNode  // intermediate nodes by object number
	parent map[int]int        // page or node -> its parent node
	order  []int              // nodes in walk order, root first
	newPgs map[int]types.Dict // pages this update adds, written at flush
	refs   map[int]types.IndirectRef
}

type pageNode struct {
	dict  types.Dict
	kids  []types.IndirectRef
	dirty bool
}

// walkPages walks a page tree, root first, as editing and copying need
// it: every kid an indirect reference (PDF 1.7 §3.6.2), every node a
// /Pages dictionary other than the catalog, no object reached twice, no
// deeper than maxPageDepth. node is called with each intermediate node
// and its kids, before them; page with each page and the nodes above it,
// the root first.
func walkPages(root types.Object, catalog int, lookup func(types.IndirectRef) (types.Object, error),
	node func(ref types.IndirectRef, d types.Dict, kids []types.IndirectRef), page func(ref types.IndirectRef, d types.Dict, above []types.Dict)) error {
	seen := map[int]bool{}
	var walk func(ref types.IndirectRef, above []types.Dict) error
	walk = func(ref types.IndirectRef, above []types.Dict) error {
		num := ref.ObjectNumber.Value()
		if seen[num] {
			return fmt.Errorf("the page tree reaches object %d twice", num)
		}
		seen[num] = true
		o, err := lookup(ref)
		if err != nil {
			return err
		}
		d, ok := o.(types.Dict)
		if !ok {
			return fmt.Errorf("page tree object %d is not a dictionary", num)
		}
		kids, hasKids := d["Kids"]
		if typ, _ := d["Type"].(types.Name); typ == "Page" || !hasKids {
			page(ref, d, above)
			return nil
		}
		if len(above) >= maxPageDepth {
			return fmt.Errorf("the page tree is deeper than %d levels", maxPageDepth)
		}
		if typ, ok := d["Type"].(types.Name); (ok && typ != "Pages") || num == catalog {
			return fmt.Errorf("page tree node %d is not a /Pages node", num)
		}
		if r, ok := kids.(types.IndirectRef); ok {
			if kids, err = lookup(r); err != nil {
				return err
			}
		}
		arr, ok := kids.(types.Array)
		if !ok {
			return fmt.Errorf("page tree node %d: /Kids is not an array", num)
		}
		refs := make([]types.IndirectRef, len(arr))
		for i, k := range arr {
			if refs[i], ok = k.(types.IndirectRef); !ok {
				return fmt.Errorf("page tree node %d: /Kids[%d] is a direct object", num, i)
			}
		}
		node(ref, d, refs)
		for _, k := range refs {
			if err := walk(k, append(above, d)); err != nil {
				return err
			}
		}
		return nil
	}
	rootRef, ok := root.(types.IndirectRef)
	if !ok {
		return errors.New("the catalog's /Pages is not an indirect reference")
	}
	return walk(rootRef, nil)
}

// loadPages reads the page tree once, for editing.
func (u *Update) loadPages() (*pageTree, error) {
	if u.pages != nil {
		return u.pages, nil
	}
	cat, err := u.dictAt(u.root())
	if err != nil || cat == nil {
		return nil, errors.New("the catalog is not a dictionary")
	}
	rootRef, _ := cat["Pages"].(types.IndirectRef)
	t := &pageTree{root: rootRef.ObjectNumber.Value(), nodes: map[int]*pageNode{}, parent: map[int]int{},
		newPgs: map[int]types.Dict{}, refs: map[int]types.IndirectRef{rootRef.ObjectNumber.Value(): rootRef}}
	err = walkPages(cat["Pages"], u.root().ObjectNumber.Value(), u.lookup,
		func(ref types.IndirectRef, d types.Dict, kids []types.IndirectRef) {
			num := ref.ObjectNumber.Value()
			t.nodes[num] = &pageNode{dict: d, kids: kids}
			t.order = append(t.order, num)
			for _, k := range kids {
				t.parent[k.ObjectNumber.Value()] = num
				t.refs[k.ObjectNumber.Value()] = k
			}
		}, func(types.IndirectRef, types.Dict, []types.Dict) {})
	if err != nil {
		return nil, err
	}
	if t.nodes[t.root] == nil {
		return nil, errors.New("the page tree's root is a page, not a node")
	}
	u.pages = t
	return t, nil
}

// AppendPages copies the pages of src, a PDF file (such as the pages a
// browser printed), after the file's last page, with everything they use,
// and returns the new pages' references and what ReadPrinted reads of src
// (its named destinations: they are not copied). src is only read.
func (u *Update) AppendPages(src []byte, name string) ([]webcapture.Ref, *Printed, error) {
	t, err := u.loadPages()
	if err != nil {
		return nil, nil, &Error{File: u.name, Op: "append pages", Err: err}
	}
	refs, pr, err := u.copyPages(src, name)
	if err != nil {
		return nil, nil, err
	}
	root := t.nodes[t.root]
	root.kids = append(root.kids, refs...)
	root.dirty = true
	out := make([]webcapture.Ref, len(refs))
	for i, r := range refs {
		t.parent[r.ObjectNumber.Value()] = t.root
		out[i] = refOf(r)
	}
	return out, pr, nil
}

// ReplacePages puts the pages of src where the pages old were: the first
// of them takes old[0]'s place in its parent's /Kids, the other old pages
// leave the tree (their objects stay in the file, unreachable). It returns
// the new pages' references and what ReadPrinted reads of src.
func (u *Update) ReplacePages(old []webcapture.Ref, src []byte, name string) ([]webcapture.Ref, *Printed, error) {
	t, err := u.loadPages()
	if err != nil {
		return nil, nil, &Error{File: u.name, Op: "replace pages", Err: err}
	}
	if len(old) == 0 {
		return nil, nil, errors.New("pdfio: no page to replace")
	}
	for _, o := range old {
		if _, ok := t.parent[o.Num]; !ok || t.nodes[o.Num] != nil {
			return nil, nil, &Error{File: u.name, Op: "replace pages", Err: fmt.Errorf("object %s is not a page of the page tree", o)}
		}
	}
	refs, pr, err := u.copyPages(src, name)
	if err != nil {
		return nil, nil, err
	}
	u.untag(old, pr.Article.Num)
	for i, o := range old {
		p := t.nodes[t.parent[o.Num]]
		at := slices.IndexFunc(p.kids, func(k types.IndirectRef) bool { return k.ObjectNumber.Value() == o.Num })
		if i == 0 {
			p.kids = slices.Concat(p.kids[:at], refs, p.kids[at+1:])
			for _, r := range refs {
				t.parent[r.ObjectNumber.Value()] = t.parent[o.Num]
			}
		} else {
			p.kids = slices.Delete(p.kids, at, at+1)
		}
		p.dirty = true
		delete(t.parent, o.Num)
	}
	out := make([]webcapture.Ref, len(refs))
	for i, r := range refs {
		out[i] = refOf(r)
	}
	return out, pr, nil
}

// Pages returns the file's pages in order as the update has them so far
// (with what AppendPages and ReplacePages did), without writing anything.
func (u *Update) Pages() ([]webcapture.Ref, error) {
	t, err := u.loadPages()
	if err != nil {
		return nil, &Error{File: u.name, Op: "read pages", Err: err}
	}
	var out []webcapture.Ref
	var walk func(num int)
	walk = func(num int) {
		for _, k := range t.nodes[num].kids {
			if n := k.ObjectNumber.Value(); t.nodes[n] != nil {
				walk(n)
			} else {
				out = append(out, refOf(k))
			}
		}
	}
	walk(t.root)
	return out, nil
}

// flushPages writes the pages this update added, each with its /Parent and
// with every attribute it would otherwise inherit from its new ancestors
// set on itself, and the nodes whose kids changed, with the /Count of every
// node recomputed.
func (u *Update) flushPages() error {
	t := u.pages
	if t == nil {
		return nil
	}
	u.pages = nil
	count := map[int]int{}
	var countOf func(num int) int
	countOf = func(num int) int {
		n := t.nodes[num]
		if n == nil {
			return 1
		}
		if c, ok := count[num]; ok {
			return c
		}
		c := 0
		for _, k := range n.kids {
			c += countOf(k.ObjectNumber.Value())
		}
		count[num] = c
		return c
	}
	countOf(t.root)
	for _, num := range slices.Sorted(maps.Keys(t.newPgs)) { // (written in number order: the same bytes each time)
		d := t.newPgs[num]
		p, ok := t.parent[num]
		if !ok {
			continue // replaced again: never reachable
		}
		d["Parent"] = t.refs[p]
		for _, k := range inheritable {
			if _, has := d[k]; has {
				continue
			}
			for a, ok := p, true; ok; a, ok = t.parent[a] {
				if _, inherited := t.nodes[a].dict[k]; inherited {
					d[k] = pageDefault(k, d)
					break
				}
			}
		}
		u.objs.put(num, d)
	}
	for _, num := range t.order {
		n := t.nodes[num]
		old, _ := n.dict["Count"].(types.Integer)
		if !n.dirty && int(old) == count[num] {
			continue
		}
		d := copyDict(n.dict)
		kids := make(types.Array, len(n.kids))
		for i, k := range n.kids {
			kids[i] = k
		}
		d["Kids"], d["Count"] = kids, types.Integer(count[num])
		u.replace(t.refs[num], d)
	}
	return nil
}

// pageDefault is what a page that has none of k means by it, so that it
// does not take its new ancestors' value.
func pageDefault(k string, d types.Dict) types.Object {
	switch k {
	case "Rotate":
		return types.Integer(0)
	case "CropBox":
		if mb, ok := d["MediaBox"]; ok {
			return mb
		}
		return types.Array{types.Integer(0), types.Integer(0), types.Integer(612), types.Integer(792)}
	case "Resources":
		return types.Dict{}
	}
	return types.Array{types.Integer(0), types.Integer(0), types.Integer(612), types.Integer(792)} // MediaBox: US Letter
}

// maxCopiedObjects bounds what copyPages takes from one file.
const maxCopiedObjects = 1 << 20

// copyPages copies src's pages and every object they reach into the
// update under new numbers. Pages are written at flush (their parent is
// known then); other objects at once. A reference to a page of src
// becomes a reference to its copy; one to src's other page tree nodes or
// its catalog becomes null, so nothing else of src comes along.
func (u *Update) copyPages(src []byte, name string) ([]types.IndirectRef, *Printed, error) {
	fail := func(err error) ([]types.IndirectRef, *Printed, error) {
		return nil, nil, &Error{File: name, Op: "copy pages", Err: err}
	}
	sctx, err := updateParse(src, u.opts)
	if err != nil {
		return fail(err)
	}
	if sctx.Encrypt != nil {
		return fail(ErrEncryptedWrite)
	}
	c := &pageCopier{u: u, src: sctx, dec: newDecoder(sctx.XRefTable, u.opts), mapped: map[int]int{}, skip: map[int]bool{}}
	if sctx.XRefTable.Root != nil {
		c.skip[sctx.XRefTable.Root.ObjectNumber.Value()] = true
	}
	pages, err := c.srcPages()
	if err != nil {
		return fail(err)
	}
	pr, err := c.printed(pages)
	if err != nil {
		return fail(err)
	}
	mode, st, art, why := u.planTags(c, pages)
	pr.Untagged = why
	refs := make([]types.IndirectRef, len(pages))
	for i, p := range pages {
		num := u.objs.reserve()
		c.mapped[p.num] = num
		refs[i] = *types.NewIndirectRef(num, 0)
	}
	for i, p := range pages {
		d := types.Dict{}
		for _, k := range slices.Sorted(maps.Keys(p.dict)) { // (objects are numbered as they are met)
			if k == "Parent" {
				continue
			}
			cp, keep, err := c.entry(k, p.dict[k], 0)
			if err != nil {
				return fail(err)
			}
			if keep {
				d[k] = cp
			}
		}
		u.pages.newPgs[refs[i].ObjectNumber.Value()] = d
		u.pages.refs[refs[i].ObjectNumber.Value()] = refs[i]
	}
	if err := u.tagCopied(c, mode, st, art, refs); err != nil {
		return fail(err)
	}
	if mode != tagNone {
		pr.Article = webcapture.Ref{Num: art}
	}
	for len(c.queue) > 0 {
		from := c.queue[0]
		c.queue = c.queue[1:]
		o, err := c.lookup(from)
		if err != nil {
			return fail(err)
		}
		cp, err := c.copy(o, 0)
		if err != nil {
			return fail(err)
		}
		u.objs.put(c.mapped[from], cp)
	}
	return refs, pr, nil
}

type pageCopier struct {
	u      *Update
	src    *model.Context
	dec    *decoder     // src's
	mapped map[int]int  // src object number -> new number
	skip   map[int]bool // src's catalog and page tree nodes
	queue  []int        // src objects mapped, not yet written
	// keys: /StructParents and /StructParent values are moved up by
	// keyBase (the largest seen is maxKey); without it they are dropped.
	keys            bool
	keyBase, maxKey int
}

// entry copies the value of key k of a dictionary: a structure key is
// renumbered (or dropped), anything else copied.
func (c *pageCopier) entry(k string, v types.Object, depth int) (types.Object, bool, error) {
	if k == "StructParents" || k == "StructParent" {
		n, ok := v.(types.Integer)
		if !c.keys || !ok || n < 0 || n >= maxTagEntries {
			return nil, false, nil
		}
		c.maxKey = max(c.maxKey, int(n))
		return types.Integer(c.keyBase + int(n)), true, nil
	}
	cp, err := c.copy(v, depth)
	return cp, true, err
}

type srcPage struct {
	num  int
	dict types.Dict // with the inherited attributes set on it
}

// srcPages lists src's pages in order, each with the attributes it
// inherits made its own.
func (c *pageCopier) srcPages() ([]srcPage, error) {
	root := *c.src.XRefTable.Root
	cat, err := c.dict(root)
	if err != nil {
		return nil, err
	}
	var out []srcPage
	lookup := func(r types.IndirectRef) (types.Object, error) { return c.lookup(r.ObjectNumber.Value()) }
	err = walkPages(cat["Pages"], root.ObjectNumber.Value(), lookup,
		func(ref types.IndirectRef, _ types.Dict, _ []types.IndirectRef) {
			c.skip[ref.ObjectNumber.Value()] = true
		},
		func(ref types.IndirectRef, d types.Dict, above []types.Dict) {
			p := copyDict(d)
			for _, k := range inheritable {
				for i := len(above) - 1; i >= 0; i-- {
					if _, has := p[k]; has {
						break
					}
					if v, ok := above[i][k]; ok {
						p[k] = v
					}
				}
			}
			out = append(out, srcPage{ref.ObjectNumber.Value(), p})
		})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("the file has no page")
	}
	return out, nil
}

func (c *pageCopier) lookup(num int) (types.Object, error) {
	e, ok := c.src.XRefTable.Table[num]
	if !ok || e == nil || e.Free {
		return nil, nil // a dangling reference reads as null (PDF 1.7 §3.2.9)
	}
	return c.dec.load(pent(e))
}

func (c *pageCopier) dict(r types.IndirectRef) (types.Dict, error) {
	o, err := c.lookup(r.ObjectNumber.Value())
	if err != nil {
		return nil, err
	}
	d, ok := o.(types.Dict)
	if !ok {
		return nil, fmt.Errorf("object %d is %s, want a dictionary", r.ObjectNumber.Value(), typeName(o))
	}
	return d, nil
}

// copy returns o with its references renumbered, queueing what they name.
func (c *pageCopier) copy(o types.Object, depth int) (types.Object, error) {
	if depth > 256 {
		return nil, errors.New("objects nested deeper than 256 levels")
	}
	switch v := o.(type) {
	case types.IndirectRef:
		num := v.ObjectNumber.Value()
		if c.skip[num] {
			return nil, nil
		}
		if n, ok := c.mapped[num]; ok {
			return *types.NewIndirectRef(n, 0), nil
		}
		if len(c.mapped) >= maxCopiedObjects {
			return nil, fmt.Errorf("the pages use more than %d objects", maxCopiedObjects)
		}
		n := c.u.objs.reserve()
		c.mapped[num] = n
		c.queue = append(c.queue, num)
		return *types.NewIndirectRef(n, 0), nil
	case types.Dict:
		d := make(types.Dict, len(v))
		for _, k := range slices.Sorted(maps.Keys(v)) {
			cp, keep, err := c.entry(k, v[k], depth+1)
			if err != nil {
				return nil, err
			}
			if keep {
				d[own(k)] = cp
			}
		}
		return d, nil
	case types.Array:
		a := make(types.Array, len(v))
		for i, e := range v {
			var err error
			if a[i], err = c.copy(e, depth+1); err != nil {
				return nil, err
			}
		}
		return a, nil
	case types.StreamDict:
		d := make(types.Dict, len(v.Dict))
		for _, k := range slices.Sorted(maps.Keys(v.Dict)) {
			if k == "Length" {
				continue // written from the bytes
			}
			var err error
			if d[own(k)], err = c.copy(v.Dict[k], depth+1); err != nil {
				return nil, err
			}
		}
		return types.StreamDict{Dict: d, Raw: v.Raw}, nil
	case types.Name:
		return types.Name(own(string(v))), nil
	case types.StringLiteral:
		return types.StringLiteral(strings.Clone(string(v))), nil
	case types.HexLiteral:
		return types.HexLiteral(strings.Clone(string(v))), nil
	}
	return o, nil
}

// own is s in memory of its own, shared by every copy of the same name:
// pdfcpu parses an object's names and strings as parts of the text it
// read the object from, and a copy that kept them would keep each of
// those texts (a merged capture of 20 pages of 3,000 links held 480 MB of
// them for 40 MB of PDF).
func own(s string) string { return unique.Make(s).Value() }
