package pdfio

import (
	"errors"
	"fmt"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// Bookmarks: the document outline (PDF 1.7 §8.2.2) an update extends. The
// file's outline is kept: items are added after its last top-level item,
// or under a top-level item already there (Acrobat's one item per site),
// and an item is changed only where the caller says (a page set whose
// pages were replaced). Items are written through outlineKeys, the table
// the reader reads them by.

// outlineState is the outline an update extends, loaded once.
type outlineState struct {
	err     error             // why the outline cannot be extended
	rootRef types.IndirectRef // zero until flush when the file has none
	root    types.Dict        // as it will be written
	top     []int             // the top-level items, in order
	last    map[int]int       // an item's last kid as the walk found it (0: the root's)
	items   map[int]types.Dict
	changed map[int]bool
	pending map[int]types.Dict // items this update adds, written at flush
	created bool               // the file has no outline: this update makes it
	dirty   bool
}

func (u *Update) loadOutline() *outlineState {
	if u.outline != nil {
		return u.outline
	}
	o := &outlineState{items: map[int]types.Dict{}, changed: map[int]bool{}, last: map[int]int{}}
	u.outline = o
	cat, err := u.dictAt(u.root())
	if err != nil || cat == nil {
		o.err = errors.New("the catalog is not a dictionary")
		return o
	}
	v, has := cat["Outlines"]
	if !has || v == nil {
		o.root, o.created = types.Dict{"Type": types.Name("Outlines")}, true
		return o
	}
	ref, ok := v.(types.IndirectRef)
	if !ok {
		o.err = errors.New("the catalog's /Outlines is not an indirect reference")
		return o
	}
	root, err := dictOf(ref, u.lookup)
	if err != nil || root == nil {
		o.err = fmt.Errorf("the outline (object %d) is not a dictionary", ref.ObjectNumber.Value())
		return o
	}
	o.rootRef, o.root = ref, copyDict(root)
	seen := map[int]bool{ref.ObjectNumber.Value(): true}
	var level func(parent types.Dict, pnum, depth int) error
	level = func(parent types.Dict, pnum, depth int) error {
		if depth > maxOutlineDepth {
			return fmt.Errorf("the outline is deeper than %d levels", maxOutlineDepth)
		}
		for next := parent["First"]; next != nil; {
			r, ok := next.(types.IndirectRef)
			if !ok {
				return errors.New("an outline item is not an indirect reference")
			}
			num := r.ObjectNumber.Value()
			if seen[num] {
				return fmt.Errorf("the outline reaches object %d twice", num)
			}
			if seen[num] = true; len(seen) > maxOutlineItems {
				return fmt.Errorf("the outline has more than %d items", maxOutlineItems)
			}
			d, err := dictOf(r, u.lookup)
			if err != nil || d == nil {
				return fmt.Errorf("outline item %d is not a dictionary", num)
			}
			o.items[num] = copyDict(d)
			o.last[pnum] = num
			if pnum == 0 {
				o.top = append(o.top, num)
			}
			if err := level(d, num, depth+1); err != nil {
				return err
			}
			next = d["Next"]
		}
		return nil
	}
	if err := level(root, 0, 1); err != nil {
		o.err = err
	}
	return o
}

// AddBookmarks adds items to the outline, making one when the file has
// none: each after the last top-level item, except an item without a page
// whose title is that of a top-level item already there without a
// destination (a site's item): its kids are added under that item.
// Titles are text strings (webcapture.EncodeText). An outline that cannot
// be extended (not a tree of dictionaries, a cycle, past the bounds the
// reader keeps) is an error, and nothing is added.
func (u *Update) AddBookmarks(items []*OutlineItem) error {
	o := u.loadOutline()
	if o.err != nil {
		return &Error{File: u.name, Op: "add bookmarks", Err: o.err}
	}
	for _, it := range items {
		if at := o.site(it); at != 0 && it.Page.IsZero() {
			if err := u.addUnder(at, it.Kids); err != nil {
				return err
			}
			continue
		}
		if err := u.addUnder(0, []*OutlineItem{it}); err != nil {
			return err
		}
	}
	return nil
}

// SetBookmark puts item at the outline's top level in place of the kids
// of a top-level item of the same title without a destination (so that
// "New and Changed Pages" says the last refresh only), or after the last.
func (u *Update) SetBookmark(item *OutlineItem) error {
	o := u.loadOutline()
	if o.err != nil {
		return &Error{File: u.name, Op: "add bookmarks", Err: o.err}
	}
	at := o.site(item)
	if at == 0 {
		return u.addUnder(0, []*OutlineItem{item})
	}
	d := o.items[at]
	delete(d, "First")
	delete(d, "Last")
	delete(d, "Count")
	delete(o.last, at)
	o.changed[at] = true
	return u.addUnder(at, item.Kids)
}

// site is the top-level item titled as it, without a destination; 0 if none.
func (o *outlineState) site(it *OutlineItem) int {
	want := it.Title.String()
	for _, num := range o.top {
		d := o.items[num]
		if _, dest := d["Dest"]; dest {
			continue
		}
		if _, action := d["A"]; action {
			continue
		}
		if s, ok := rawString(d["Title"]); ok && webcapture.Text(s).String() == want {
			return num
		}
	}
	return 0
}

// addUnder adds items after the last kid of item parent (0: the root).
func (u *Update) addUnder(parent int, items []*OutlineItem) error {
	o := u.outline
	if len(items) == 0 {
		return nil
	}
	if o.rootRef.ObjectNumber == 0 {
		o.rootRef = *types.NewIndirectRef(u.objs.reserve(), 0)
	}
	pd, pref := o.root, o.rootRef
	if parent != 0 {
		pd, pref = o.items[parent], *types.NewIndirectRef(parent, 0)
		o.changed[parent] = true
	}
	refs, visible, err := u.writeItems(items, pref)
	if err != nil {
		return err
	}
	// After the last kid the walk found (by /Next from /First: a /Last
	// that says otherwise is not trusted).
	if last, ok := o.last[parent]; ok {
		o.items[last]["Next"] = refs[0]
		o.changed[last] = true
		o.pending[refs[0].ObjectNumber.Value()]["Prev"] = *types.NewIndirectRef(last, 0)
	} else {
		pd["First"] = refs[0]
	}
	pd["Last"] = refs[len(refs)-1]
	o.last[parent] = refs[len(refs)-1].ObjectNumber.Value()
	if parent == 0 {
		for _, r := range refs {
			o.top = append(o.top, r.ObjectNumber.Value())
		}
	} else {
		n, _ := pd["Count"].(types.Integer)
		if n < 0 {
			pd["Count"] = n - types.Integer(visible)
		} else {
			pd["Count"] = n + types.Integer(visible)
		}
	}
	o.dirty = true
	return nil
}

// writeItems makes items (and their kids) under parent, linked, and
// returns their references and how many items they show when their
// parent is open (each is open).
func (u *Update) writeItems(items []*OutlineItem, parent types.IndirectRef) ([]types.IndirectRef, int, error) {
	w := &writer{u}
	refs := make([]types.IndirectRef, len(items))
	for i := range items {
		refs[i] = *types.NewIndirectRef(u.objs.reserve(), 0)
	}
	visible := 0
	for i, it := range items {
		d, err := writeKeys(w, "outline item", outlineKeys, it)
		if err != nil {
			return nil, 0, err
		}
		d["Parent"] = parent
		if i > 0 {
			d["Prev"] = refs[i-1]
		}
		if i+1 < len(refs) {
			d["Next"] = refs[i+1]
		}
		if len(it.Kids) > 0 {
			kids, n, err := u.writeItems(it.Kids, refs[i])
			if err != nil {
				return nil, 0, err
			}
			d["First"], d["Last"], d["Count"] = kids[0], kids[len(kids)-1], types.Integer(n)
			visible += n
		}
		visible++
		o := u.outline
		if o.pending == nil {
			o.pending = map[int]types.Dict{}
		}
		num := refs[i].ObjectNumber.Value()
		o.pending[num], o.items[num] = d, d
		if len(it.Kids) > 0 {
			o.last[num] = d["Last"].(types.IndirectRef).ObjectNumber.Value()
		}
	}
	return refs, visible, nil
}

// MoveBookmarks points every outline item that opens one of the pages old
// at page instead, with se as its structure element and title as its
// title (the items of a page set whose pages were replaced).
func (u *Update) MoveBookmarks(old []webcapture.Ref, page, se webcapture.Ref, title webcapture.Text) error {
	o := u.loadOutline()
	if o.err != nil {
		return &Error{File: u.name, Op: "move bookmarks", Err: o.err}
	}
	gone := map[int]bool{}
	for _, p := range old {
		gone[p.Num] = true
	}
	w := &writer{u}
	for num, d := range o.items {
		dest := d["Dest"]
		if a, ok := d["A"].(types.Dict); ok && a["S"] == types.Name("GoTo") {
			dest = a["D"]
		}
		arr, ok := dest.(types.Array)
		if !ok || len(arr) == 0 {
			continue
		}
		if r, ok := arr[0].(types.IndirectRef); !ok || !gone[r.ObjectNumber.Value()] {
			continue
		}
		it := &OutlineItem{Title: title, Page: page, SE: se}
		nd, err := writeKeys(w, "outline item", outlineKeys, it)
		if err != nil {
			return err
		}
		delete(d, "A")
		delete(d, "SE")
		for k, v := range nd {
			d[k] = v
		}
		o.changed[num] = true
		o.dirty = true
	}
	return nil
}

// SetPageMode sets the catalog's /PageMode (UseOutlines: the viewer opens
// with the bookmarks shown).
func (u *Update) SetPageMode(mode string) { u.editCatalog("PageMode", types.Name(mode)) }

// flushOutline writes the items added and changed, and the root with its
// /Count (the items shown: each top-level item, and the kids of an open one).
func (u *Update) flushOutline() error {
	o := u.outline
	if o == nil || !o.dirty {
		return nil
	}
	u.outline = nil
	for num, d := range o.pending {
		u.objs.put(num, d)
		delete(o.changed, num)
	}
	for num := range o.changed {
		u.replace(*types.NewIndirectRef(num, 0), o.items[num])
	}
	count := 0
	for _, num := range o.top {
		count++
		if n, ok := o.items[num]["Count"].(types.Integer); ok && n > 0 {
			count += int(n)
		}
	}
	o.root["Count"] = types.Integer(count)
	if o.created {
		u.objs.put(o.rootRef.ObjectNumber.Value(), o.root)
		u.editCatalog("Outlines", o.rootRef)
	} else {
		u.replace(o.rootRef, o.root)
	}
	return nil
}

// pageTop is the top of a page's MediaBox (792 for US Letter), where a
// bookmark opens it.
func (u *Update) pageTop(page webcapture.Ref) types.Object {
	var d types.Dict
	if u.pages != nil {
		d = u.pages.newPgs[page.Num]
	}
	if d == nil {
		d, _ = u.pageDict(page)
	}
	if mb, err := arrayOf(d["MediaBox"], u.lookup); err == nil && len(mb) == 4 {
		return mb[3]
	}
	return types.Integer(792)
}
