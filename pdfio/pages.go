package pdfio

import (
	"strconv"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// maxPageDepth bounds the page tree's depth.
const maxPageDepth = 256

// readPages walks the page tree in order, numbering pages from 1, with cycle
// detection and a depth bound, and reads each page's /ID and /PZ.
func (r *reader) readPages(root types.Object) {
	if root != nil {
		w := &pageWalk{r: r, seen: map[webcapture.Ref]bool{}}
		w.walk(root, "Pages", -1, 0)
	}
	r.indexPages()
}

// indexPages makes the index of the pages' numbers by object (PageOf,
// PageNumber): a slice by object number, made once, up to what the pages
// alone could be numbered (webcapture.DenseBound), so that it is bounded by
// the file's pages, and made of them alone (two reads of one file make
// equal Documents). A page object that is twice in the tree is its last
// page, as it was in the map this replaces.
func (r *reader) indexPages() {
	bound := webcapture.DenseBound(len(r.doc.Pages))
	x := webcapture.NewRefIndex[int32](bound)
	hi := 0
	for _, p := range r.doc.Pages {
		if p.Ref.Num < bound {
			hi = max(hi, p.Ref.Num)
		}
	}
	x.Grow(hi + 1)
	for _, p := range r.doc.Pages {
		if !p.Ref.IsZero() {
			x.Put(p.Ref, int32(p.Number))
		}
	}
	r.doc.pageByRef = x
}

type pageWalk struct {
	r    *reader
	seen map[webcapture.Ref]bool
}

// walk reads the node o, kid i of the node at parent ("Pages/Kids[3]"), or
// the root at parent when i < 0. Its path is built only when a defect says
// it, or when it has kids: a leaf's, once per page, is rarely wanted.
func (w *pageWalk) walk(o types.Object, parent string, i, depth int) {
	r := w.r
	path := func() string {
		if i < 0 {
			return parent
		}
		return parent + "/Kids[" + strconv.Itoa(i) + "]"
	}
	ref := refIn(o)
	if !ref.IsZero() {
		if w.seen[ref] {
			r.defect(ref, path(), Cycle, "the page tree reaches %s twice", ref)
			return
		}
		w.seen[ref] = true
	}
	mark := r.dec.mark()
	obj, _, ok := r.resolveAt(o, path)
	if !ok {
		return
	}
	d, isDict := obj.(types.Dict)
	fresh := isDict && r.dec.fresh(mark, d)
	if !isDict {
		p := path()
		r.defect(ref, p, WrongType, "%s is %s, want a page tree node", p, typeName(obj))
		return
	}
	kids, hasKids := d["Kids"]
	if typ, _ := d["Type"].(types.Name); typ == "Page" || !hasKids {
		r.page(d, ref, fresh)
		return
	}
	p := path()
	if depth >= maxPageDepth {
		r.defect(ref, p, TooDeep, "the page tree is deeper than %d levels", maxPageDepth)
		return
	}
	ko, _, ok := r.resolve(kids, p+"/Kids")
	a, isArr := ko.(types.Array)
	if !ok || !isArr {
		r.defect(ref, p+"/Kids", WrongType, "%s/Kids is %s, want an array", p, typeName(ko))
		return
	}
	for i, k := range a {
		w.walk(k, p, i, depth+1)
	}
}

// page reads a page; fresh: d was parsed by the walk's look-up
// (decoder.fresh).
func (r *reader) page(d types.Dict, ref webcapture.Ref, fresh bool) {
	p := &Page{Number: len(r.doc.Pages) + 1, Ref: ref}
	path := "page " + strconv.Itoa(p.Number)
	if raw, ok := d["ID"]; ok {
		p.IDRef = refIn(raw)
		p.ID = r.rawID(ref, d, "ID", path)
	}
	if n, ok := r.number(ref, d, "PZ", path); ok {
		p.PZ = &n.Value
	}
	if n, ok := r.integer(ref, d, "StructParents", path); ok {
		p.StructParents = &n
	}
	r.doc.Pages = append(r.doc.Pages, p)
	if r.repack(ref, d) {
		u := pageUseOf(d)
		p.use = &u
		if fresh {
			r.dec.recycle(d)
		}
	}
}
