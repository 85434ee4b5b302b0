package pdfio

import (
	"errors"
	"fmt"
	"slices"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// Tags: the structure tree (PDF 1.7 §10.6) pages come with when an update
// appends or replaces them, in the shape Acrobat Web Capture wrote (read
// from the real captures): StructTreeRoot → /Document → one Article
// element of class SpdrArt per page set (/ClassMap << /SpdrArt << /O
// /WebCapture >> >>), whose /Pg is the set's first page, and a
// /ParentTree entry per page (and per annotation with /StructParent).
//
// Pages a browser printed come with their own tags (Chromium tags what it
// prints): the printed file's /Document element becomes the set's
// Article, so its headings, paragraphs, lists and links stay, each
// resolving to its own page, and every /StructParents and /StructParent
// key is moved past the keys the file already uses. Pages with no tags
// get their content wrapped in one marked-content sequence, the Article's
// kid on each page, as Acrobat wrapped its pages. When the file's tree
// cannot be extended (a /StructTreeRoot or /ParentTree that is not what
// the PDF format says) the pages get no tags at all rather than wrong
// ones, and Printed.Untagged says why.

// Bounds of the structure walks an update makes.
const (
	maxTagDepth   = 64
	maxTagNodes   = 1 << 16
	maxTagEntries = 1 << 20
	parentLeaf    = 4096 // entries per /ParentTree leaf when it is written in two levels
)

// tagState is the structure tree an update extends, loaded once.
type tagState struct {
	off       string            // why new pages get no tags ("" when they do)
	root      types.Dict        // the StructTreeRoot as it will be written
	rootRef   types.IndirectRef // its reference (reserved when the file has none)
	created   bool              // the file had no tree: this update makes it
	container types.IndirectRef // the element new Articles go under (a /Document element, or the root)
	contDict  types.Dict        // the container as it will be written (the root's when it is the root)
	kids      []types.Object    // the container's /K as it will be written
	entries   map[int]types.Object
	next      int                // the next free /ParentTree key
	articles  map[int]types.Dict // new Articles by object number, written at flush with their /P
	lang      types.Object       // the first tagged page set's /Lang (for a new tree's catalog)
	dirty     bool
	// untagged: the file's pages without /StructParents, and the page
	// sets this update could not tag; /MarkInfo is set when both are 0.
	untagged int
}

// numberTree reads a number tree (PDF 1.7 §3.8.6) into a map, bounded and
// cycle-checked; lookup resolves references.
func numberTree(o types.Object, lookup func(types.IndirectRef) (types.Object, error)) (map[int]types.Object, error) {
	out := map[int]types.Object{}
	seen := map[int]bool{}
	nodes := 0
	var node func(o types.Object, depth int) error
	node = func(o types.Object, depth int) error {
		if r, ok := o.(types.IndirectRef); ok {
			if seen[r.ObjectNumber.Value()] {
				return fmt.Errorf("the number tree reaches object %d twice", r.ObjectNumber.Value())
			}
			seen[r.ObjectNumber.Value()] = true
			var err error
			if o, err = lookup(r); err != nil {
				return err
			}
		}
		if nodes++; nodes > maxTagNodes || depth > maxTagDepth {
			return fmt.Errorf("the number tree has more than %d nodes or %d levels", maxTagNodes, maxTagDepth)
		}
		d, ok := o.(types.Dict)
		if !ok {
			return fmt.Errorf("a number tree node is %s, not a dictionary", typeName(o))
		}
		if n, has := d["Nums"]; has {
			a, err := arrayOf(n, lookup)
			if err != nil || len(a)%2 != 0 {
				return errors.New("a number tree's /Nums is not an array of key and value pairs")
			}
			for i := 0; i < len(a); i += 2 {
				k, ok := a[i].(types.Integer)
				if !ok {
					return fmt.Errorf("a number tree key is %s, not an integer", typeName(a[i]))
				}
				if len(out) >= maxTagEntries {
					return fmt.Errorf("the number tree has more than %d entries", maxTagEntries)
				}
				if _, dup := out[int(k)]; !dup {
					out[int(k)] = a[i+1]
				}
			}
		}
		if k, has := d["Kids"]; has {
			a, err := arrayOf(k, lookup)
			if err != nil {
				return errors.New("a number tree's /Kids is not an array")
			}
			for _, kid := range a {
				if err := node(kid, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return out, node(o, 1)
}

// arrayOf resolves o to an array.
func arrayOf(o types.Object, lookup func(types.IndirectRef) (types.Object, error)) (types.Array, error) {
	if r, ok := o.(types.IndirectRef); ok {
		var err error
		if o, err = lookup(r); err != nil {
			return nil, err
		}
	}
	a, ok := o.(types.Array)
	if !ok {
		return nil, fmt.Errorf("%s, not an array", typeName(o))
	}
	return a, nil
}

// dictOf resolves o to a dictionary (nil, nil when o is null).
func dictOf(o types.Object, lookup func(types.IndirectRef) (types.Object, error)) (types.Dict, error) {
	if r, ok := o.(types.IndirectRef); ok {
		var err error
		if o, err = lookup(r); err != nil {
			return nil, err
		}
	}
	if o == nil {
		return nil, nil
	}
	d, ok := o.(types.Dict)
	if !ok {
		return nil, fmt.Errorf("%s, not a dictionary", typeName(o))
	}
	return d, nil
}

// structKey is a /StructParents or /StructParent value, or -1.
func structKey(d types.Dict, key string) int {
	if v, ok := d[key].(types.Integer); ok && v >= 0 {
		return int(v)
	}
	return -1
}

// loadTags reads the file's structure tree once, for extending.
func (u *Update) loadTags() *tagState {
	if u.tags != nil {
		return u.tags
	}
	t := &tagState{entries: map[int]types.Object{}, articles: map[int]types.Dict{}}
	u.tags = t
	if err := u.readTags(t); err != nil {
		t.off = fmt.Sprintf("the file's structure tree cannot be extended (%v): the new pages are not tagged", err)
	}
	return t
}

func (u *Update) readTags(t *tagState) error {
	cat, err := u.dictAt(u.root())
	if err != nil || cat == nil {
		return errors.New("the catalog is not a dictionary")
	}
	// Keys pages already have count as used even without a tree, so that
	// no two pages share one.
	pages, err := u.Pages()
	if err != nil {
		return err
	}
	for _, p := range pages {
		d, err := u.pageDict(p)
		if err == nil {
			t.next = max(t.next, structKey(d, "StructParents")+1)
		}
		if err != nil || structKey(d, "StructParents") < 0 {
			t.untagged++
		}
	}
	o, has := cat["StructTreeRoot"]
	if !has || o == nil {
		t.created = true // the root and its /Document are numbered with the first Article
		t.root = types.Dict{"Type": types.Name("StructTreeRoot")}
		return nil
	}
	ref, ok := o.(types.IndirectRef)
	if !ok {
		return errors.New("the catalog's /StructTreeRoot is not an indirect reference")
	}
	root, err := dictOf(ref, u.lookup)
	if err != nil || root == nil {
		return fmt.Errorf("the /StructTreeRoot (object %d) is not a dictionary", ref.ObjectNumber.Value())
	}
	t.root, t.rootRef = copyDict(root), ref
	if pt, has := root["ParentTree"]; has && pt != nil {
		if t.entries, err = numberTree(pt, u.lookup); err != nil {
			return fmt.Errorf("its /ParentTree: %w", err)
		}
		for k := range t.entries {
			t.next = max(t.next, k+1)
		}
	}
	if n, ok := root["ParentTreeNextKey"].(types.Integer); ok && int(n) > t.next && n < maxTagEntries {
		t.next = int(n)
	}
	t.container, t.contDict = ref, t.root
	k := root["K"]
	if a, ok := k.(types.Array); ok && len(a) == 1 {
		k = a[0] // [Document]: the same as Document
	}
	if kr, ok := k.(types.IndirectRef); ok {
		if d, err := dictOf(kr, u.lookup); err == nil && d != nil && d["S"] == types.Name("Document") {
			t.container, t.contDict = kr, copyDict(d)
			k = d["K"]
		}
	}
	switch v := k.(type) {
	case nil:
	case types.Array:
		t.kids = slices.Clone(v)
	case types.IndirectRef:
		if a, err := arrayOf(v, u.lookup); err == nil {
			t.kids = slices.Clone(a)
		} else {
			t.kids = types.Array{v}
		}
	default:
		t.kids = types.Array{v}
	}
	return nil
}

// srcTags is the structure of a file whose pages are copied.
type srcTags struct {
	root    int // the StructTreeRoot's object number
	doc     int // its single /Document element's, or 0
	docDict types.Dict
	k       types.Object // the root's /K (when there is no single /Document)
	entries map[int]types.Object
	next    int
}

// readSrcTags reads src's structure tree; nil when it has none. An error
// says why a tree it has cannot be used.
func (c *pageCopier) readSrcTags() (*srcTags, error) {
	lookup := func(r types.IndirectRef) (types.Object, error) { return c.lookup(r.ObjectNumber.Value()) }
	cat, err := c.dict(*c.src.XRefTable.Root)
	if err != nil {
		return nil, err
	}
	o, has := cat["StructTreeRoot"]
	if !has || o == nil {
		return nil, nil
	}
	ref, ok := o.(types.IndirectRef)
	if !ok {
		return nil, errors.New("its /StructTreeRoot is not an indirect reference")
	}
	root, err := dictOf(ref, lookup)
	if err != nil || root == nil {
		return nil, errors.New("its /StructTreeRoot is not a dictionary")
	}
	s := &srcTags{root: ref.ObjectNumber.Value(), k: root["K"], entries: map[int]types.Object{}}
	if pt, has := root["ParentTree"]; has && pt != nil {
		if s.entries, err = numberTree(pt, lookup); err != nil {
			return nil, fmt.Errorf("its /ParentTree: %w", err)
		}
	}
	for k := range s.entries {
		s.next = max(s.next, k+1)
	}
	if n, ok := root["ParentTreeNextKey"].(types.Integer); ok && int(n) > s.next && n < maxTagEntries {
		s.next = int(n)
	}
	if kr, ok := s.k.(types.IndirectRef); ok {
		if d, err := dictOf(kr, lookup); err == nil && d != nil && d["S"] == types.Name("Document") {
			s.doc, s.docDict = kr.ObjectNumber.Value(), d
		}
	}
	return s, nil
}

// tagMode is how copied pages are tagged.
type tagMode int

const (
	tagNone tagMode = iota // no tags: /StructParents and /StructParent dropped
	tagCopy                // the printed file's tree, under the set's Article
	tagWrap                // untagged pages: their content wrapped, the Article's kids
)

// planTags decides how the pages of the file c copies are tagged, and
// prepares c to renumber their keys. It returns the Article's reserved
// number (0 with tagNone) and why the pages are not tagged.
func (u *Update) planTags(c *pageCopier, pages []srcPage) (mode tagMode, s *srcTags, art int, why string) {
	t := u.loadTags()
	defer func() {
		if mode == tagNone {
			t.untagged++
		}
	}()
	if t.off != "" {
		return tagNone, nil, 0, t.off
	}
	s, err := c.readSrcTags()
	if err != nil {
		return tagNone, nil, 0, fmt.Sprintf("the printed file's structure tree cannot be read (%v): its pages are not tagged", err)
	}
	if s == nil {
		for _, p := range pages {
			if structKey(p.dict, "StructParents") >= 0 {
				return tagNone, nil, 0, "the printed pages have marked content but no structure tree: they are not tagged"
			}
		}
		return tagWrap, nil, u.objs.reserve(), ""
	}
	if len(s.entries) == 0 {
		return tagNone, nil, 0, "the printed file's structure tree has no /ParentTree: its pages are not tagged"
	}
	if t.next+s.next >= maxTagEntries {
		return tagNone, nil, 0, fmt.Sprintf("the structure tree would have more than %d keys: the new pages are not tagged", maxTagEntries)
	}
	art = u.objs.reserve()
	c.keys, c.keyBase = true, t.next
	if s.doc != 0 {
		c.mapped[s.doc] = art // the printed /Document is the Article
		c.skip[s.root] = true
	} else {
		c.mapped[s.root] = art // the root's kids are the Article's
	}
	return tagCopy, s, art, ""
}

// tagCopied makes the Article of pages just copied (refs, in order), and
// their /ParentTree entries, as planTags decided.
func (u *Update) tagCopied(c *pageCopier, mode tagMode, s *srcTags, art int, refs []types.IndirectRef) error {
	t := u.tags
	if mode != tagNone && t.created && t.rootRef.ObjectNumber == 0 {
		t.rootRef = *types.NewIndirectRef(u.objs.reserve(), 0)
		t.container = *types.NewIndirectRef(u.objs.reserve(), 0)
		t.contDict = types.Dict{"Type": types.Name("StructElem"), "S": types.Name("Document"), "P": t.rootRef}
	}
	a := types.Dict{"Type": types.Name("StructElem"), "S": types.Name("Article"), "C": types.Name("SpdrArt"), "Pg": refs[0]}
	switch mode {
	case tagNone:
		return nil
	case tagCopy:
		if s.doc != 0 {
			for k, v := range s.docDict {
				switch k {
				case "P", "S", "Type", "C", "Pg", "ID":
					continue
				}
				cp, err := c.copy(v, 0)
				if err != nil {
					return err
				}
				a[k] = cp
			}
		} else if s.k != nil {
			k, err := c.copy(s.k, 0)
			if err != nil {
				return err
			}
			a["K"] = k
		}
		for k, v := range s.entries {
			if k < 0 {
				continue
			}
			cp, err := c.copy(v, 0)
			if err != nil {
				return err
			}
			t.entries[c.keyBase+k] = cp
		}
		t.next = c.keyBase + max(s.next, c.maxKey+1)
		if t.lang == nil {
			t.lang = a["Lang"]
		}
	case tagWrap:
		kids := types.Array{}
		ref := *types.NewIndirectRef(art, 0)
		for i, r := range refs {
			d := u.pages.newPgs[r.ObjectNumber.Value()]
			pre := u.add(types.StreamDict{Dict: types.Dict{}, Raw: []byte("/Article <</MCID 0>> BDC\n")})
			post := u.add(types.StreamDict{Dict: types.Dict{}, Raw: []byte("\nEMC\n")})
			contents := types.Array{pre}
			switch v := d["Contents"].(type) {
			case types.Array:
				contents = append(contents, v...)
			case nil:
			default:
				contents = append(contents, v)
			}
			d["Contents"] = append(contents, post)
			d["StructParents"] = types.Integer(t.next)
			t.entries[t.next] = types.Array{ref}
			t.next++
			if i == 0 {
				kids = append(kids, types.Integer(0))
			} else {
				kids = append(kids, types.Dict{"Type": types.Name("MCR"), "Pg": r, "MCID": types.Integer(0)})
			}
		}
		a["K"] = kids
	}
	t.articles[art] = a
	t.kids = append(t.kids, *types.NewIndirectRef(art, 0))
	t.dirty = true
	return nil
}

// untag takes the Web Capture Articles of pages old out of the tree, and
// their keys out of the /ParentTree, putting the Article art (just made
// for the pages that replace them; 0 if none) where the first was.
func (u *Update) untag(old []webcapture.Ref, art int) {
	t := u.loadTags()
	if t.off != "" || t.created {
		return
	}
	gone := map[int]bool{}
	for _, p := range old {
		gone[p.Num] = true
		d, err := u.pageDict(p)
		if err != nil {
			continue
		}
		if k := structKey(d, "StructParents"); k >= 0 {
			delete(t.entries, k)
			t.dirty = true
		}
		annots, _ := arrayOf(d["Annots"], u.lookup)
		for _, a := range annots {
			if ad, err := dictOf(a, u.lookup); err == nil && ad != nil {
				if k := structKey(ad, "StructParent"); k >= 0 {
					delete(t.entries, k)
					t.dirty = true
				}
			}
		}
	}
	newRef := types.Object(nil)
	if art != 0 {
		newRef = *types.NewIndirectRef(art, 0)
		t.kids = slices.DeleteFunc(t.kids, func(k types.Object) bool { return k == newRef })
	}
	placed := false
	var kids []types.Object
	for _, k := range t.kids {
		if r, ok := k.(types.IndirectRef); ok && t.articles[r.ObjectNumber.Value()] == nil {
			if d, err := dictOf(r, u.lookup); err == nil && d != nil && d["C"] == types.Name("SpdrArt") {
				if pg, ok := d["Pg"].(types.IndirectRef); ok && gone[pg.ObjectNumber.Value()] {
					t.dirty = true
					if !placed && newRef != nil {
						kids = append(kids, newRef)
						placed = true
					}
					continue
				}
			}
		}
		kids = append(kids, k)
	}
	if !placed && newRef != nil {
		kids = append(kids, newRef)
	}
	t.kids = kids
}

// flushTags writes the structure tree this update extended: the new
// Articles, the element they are under, the /ParentTree, the root, and for
// a new tree the catalog's /StructTreeRoot, /MarkInfo and /Lang.
func (u *Update) flushTags() error {
	t := u.tags
	if t == nil || !t.dirty {
		return nil
	}
	u.tags = nil
	for num, a := range t.articles {
		a["P"] = t.container
		u.objs.put(num, a)
	}
	kids := make(types.Array, len(t.kids))
	copy(kids, t.kids)
	if t.container == t.rootRef {
		t.root["K"] = kids
	} else {
		t.contDict["K"] = kids
		if t.created {
			u.objs.put(t.container.ObjectNumber.Value(), t.contDict)
			t.root["K"] = t.container
		} else {
			u.replace(t.container, t.contDict)
		}
	}
	t.root["ParentTree"] = u.writeNumberTree(t.entries)
	t.root["ParentTreeNextKey"] = types.Integer(t.next)
	// SpdrArt is Acrobat's class; Article is not a standard structure type
	// (Art is), so it is role-mapped: Acrobat did not, and poppler then
	// drops every Article ("StructElem object is wrong type (Article)").
	u.mapEntry(t.root, "ClassMap", "SpdrArt", types.Dict{"O": types.Name("WebCapture")})
	u.mapEntry(t.root, "RoleMap", "Article", types.Name("Art"))
	if t.created {
		u.objs.put(t.rootRef.ObjectNumber.Value(), t.root)
		u.editCatalog("StructTreeRoot", t.rootRef)
		cat, _ := u.dictAt(u.root())
		if _, has := cat["Lang"]; !has && t.lang != nil {
			u.editCatalog("Lang", t.lang)
		}
		if _, has := cat["MarkInfo"]; !has && t.untagged == 0 {
			u.editCatalog("MarkInfo", types.Dict{"Marked": types.Boolean(true)})
		}
	} else {
		u.replace(t.rootRef, t.root)
	}
	return nil
}

// mapEntry sets entry k of the root's dictionary m (/ClassMap, /RoleMap),
// direct or indirect, to v unless it has k already.
func (u *Update) mapEntry(root types.Dict, m, k string, v types.Object) {
	switch d := root[m].(type) {
	case types.Dict:
		if _, has := d[k]; !has {
			d = copyDict(d)
			d[k] = v
			root[m] = d
		}
		return
	case types.IndirectRef:
		if dd, err := dictOf(d, u.lookup); err == nil && dd != nil {
			if _, has := dd[k]; !has {
				dd = copyDict(dd)
				dd[k] = v
				u.replace(d, dd)
			}
			return
		}
	}
	root[m] = types.Dict{k: v}
}

// writeNumberTree writes entries as a number tree: one node with /Nums,
// or under a root with /Kids of leaves with /Limits when there are many.
func (u *Update) writeNumberTree(entries map[int]types.Object) types.IndirectRef {
	keys := make([]int, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	nums := func(ks []int) types.Array {
		a := make(types.Array, 0, 2*len(ks))
		for _, k := range ks {
			a = append(a, types.Integer(k), entries[k])
		}
		return a
	}
	if len(keys) <= parentLeaf {
		return u.add(types.Dict{"Nums": nums(keys)})
	}
	var kids types.Array
	for i := 0; i < len(keys); i += parentLeaf {
		ks := keys[i:min(i+parentLeaf, len(keys))]
		kids = append(kids, u.add(types.Dict{"Nums": nums(ks), "Limits": types.Array{types.Integer(ks[0]), types.Integer(ks[len(ks)-1])}}))
	}
	return u.add(types.Dict{"Kids": kids})
}

// editCatalog sets a catalog entry at flush.
func (u *Update) editCatalog(k string, v types.Object) {
	if u.catalogEdits == nil {
		u.catalogEdits = types.Dict{}
	}
	u.catalogEdits[k] = v
}
