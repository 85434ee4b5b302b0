package pdfio

import (
	"fmt"
	"strconv"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// maxPageDepth bounds the page tree's depth.
const maxPageDepth = 256

// readPages walks the page tree in order, numbering pages from 1, with cycle
// detection and a depth bound, and reads each page's /ID and /PZ.
func (r *reader) readPages(root types.Object) {
	seen := map[webcapture.Ref]bool{}
	var walk func(o types.Object, path string, depth int)
	walk = func(o types.Object, path string, depth int) {
		ref := refIn(o)
		if !ref.IsZero() {
			if seen[ref] {
				r.defect(ref, path, Cycle, "the page tree reaches %s twice", ref)
				return
			}
			seen[ref] = true
		}
		obj, _, ok := r.resolve(o, path)
		if !ok {
			return
		}
		d, isDict := obj.(types.Dict)
		if !isDict {
			r.defect(ref, path, WrongType, "%s is %s, want a page tree node", path, typeName(obj))
			return
		}
		kids, hasKids := d["Kids"]
		if typ, _ := d["Type"].(types.Name); typ == "Page" || !hasKids {
			r.page(d, ref, path)
			return
		}
		if depth >= maxPageDepth {
			r.defect(ref, path, TooDeep, "the page tree is deeper than %d levels", maxPageDepth)
			return
		}
		ko, _, ok := r.resolve(kids, path+"/Kids")
		a, isArr := ko.(types.Array)
		if !ok || !isArr {
			r.defect(ref, path+"/Kids", WrongType, "%s/Kids is %s, want an array", path, typeName(ko))
			return
		}
		for i, k := range a {
			walk(k, fmt.Sprintf("%s/Kids[%d]", path, i), depth+1)
		}
	}
	if root != nil {
		walk(root, "Pages", 0)
	}
}

func (r *reader) page(d types.Dict, ref webcapture.Ref, path string) {
	p := &Page{Number: len(r.doc.Pages) + 1, Ref: ref}
	path = "page " + strconv.Itoa(p.Number)
	if raw, ok := d["ID"]; ok {
		p.IDRef = refIn(raw)
		p.ID = r.rawID(ref, d, "ID", path)
	}
	if n, ok := r.number(ref, d, "PZ", path); ok {
		p.PZ = &n.Value
	}
	r.doc.Pages = append(r.doc.Pages, p)
	if !ref.IsZero() {
		r.doc.pageByRef[ref] = p
	}
}
