package pdfio

import (
	"strconv"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// The document outline (PDF 1.7 §8.2.2; ISO 32000-1 §12.3.3), read for
// what Web Capture puts there: Acrobat files each page set under an item
// for its site, as an item whose /SE is the set's Article (§10.6.2) and
// whose /Dest is the set's first page. Only what an auditor or a writer
// needs is read; the walk is bounded and cycle-checked.

// Bounds of the outline walk: a deeper outline, or one with more items, is
// a TooDeep or TooMany defect and the rest is not read.
const (
	maxOutlineDepth = 64
	maxOutlineItems = 100_000
)

// An OutlineItem is an item of the document outline.
type OutlineItem struct {
	Ref   webcapture.Ref  // the item's object; zero if direct
	Title webcapture.Text // /Title, its bytes exactly
	Dest  int             // the page /Dest (or a /GoTo /A's /D) names; 0 when none, named, or not a page
	// Page is the page object of an explicit destination; zero when none.
	// An item written with a Page opens it at its top left, as Acrobat's
	// do: [page /XYZ 0 top null], top the page's MediaBox top.
	Page     webcapture.Ref
	DestForm string         // the explicit destination's form ("XYZ", "Fit", ...; "?" when the array has none); "" when there is none
	SE       webcapture.Ref // /SE, the structure element the item points at; zero if none
	// SEArticle is the SpdrArt Article /SE is, read from the element
	// itself (it need not hang under the catalog's structure tree:
	// Issue621's does not); nil when /SE is none or not such an Article.
	SEArticle *Article
	Kids      []*OutlineItem // the items under it (/First, then /Next), in order
}

// outlineKeys are the outline item's keys that the reader reads and an
// update writes (PDF 1.7 Table 8.4), but for /A, which is only read.
// /First, /Next, /Prev, /Last, /Parent and /Count are the walk's and the
// writer's links.
var outlineKeys = []key[OutlineItem]{
	{"Title", true, "1.0", func(r *reader, m *OutlineItem, k string, d types.Dict, ref webcapture.Ref, path string) {
		if o, ok := r.outlineValue(d, k, path); ok {
			s, isStr := rawString(o)
			if !isStr {
				r.defect(ref, path+"/"+k, OutlineEntry, "%s/%s is %s, want a string", path, k, typeName(o))
				return
			}
			m.Title = webcapture.Text(s)
		}
	}, func(_ *writer, m *OutlineItem) (types.Object, error) {
		return literalString(string(m.Title)), nil
	}},
	{"Dest", false, "1.0", func(r *reader, m *OutlineItem, k string, d types.Dict, ref webcapture.Ref, path string) {
		if o, ok := r.outlineValue(d, k, path); ok {
			m.Dest, m.DestForm = r.destination(o, ref, path+"/"+k)
			m.Page = destPage(o)
		}
	}, func(w *writer, m *OutlineItem) (types.Object, error) {
		if m.Page.IsZero() {
			return nil, nil
		}
		return types.Array{indirect(m.Page), types.Name("XYZ"), types.Integer(0), w.u.pageTop(m.Page), nil}, nil
	}},
	readOnlyKey("A", false, "1.1", func(r *reader, m *OutlineItem, k string, d types.Dict, ref webcapture.Ref, path string) {
		o, ok := r.outlineValue(d, k, path)
		if !ok {
			return
		}
		a, isDict := o.(types.Dict)
		if !isDict {
			r.defect(ref, path+"/"+k, OutlineEntry, "%s/%s is %s, want an action dictionary", path, k, typeName(o))
			return
		}
		if s, _ := a["S"].(types.Name); s != "GoTo" || m.DestForm != "" {
			return // another action, or /Dest said it (an item has one or the other)
		}
		if dst, ok := r.outlineValue(a, "D", path+"/"+k); ok {
			m.Dest, m.DestForm = r.destination(dst, ref, path+"/"+k+"/D")
			m.Page = destPage(dst)
		}
	}),
	{"SE", false, "1.3", func(r *reader, m *OutlineItem, k string, d types.Dict, ref webcapture.Ref, path string) {
		o, ok := d[k]
		if !ok || o == nil {
			return
		}
		ir, isRef := o.(types.IndirectRef)
		if !isRef {
			r.defect(ref, path+"/"+k, OutlineEntry, "%s/%s is %s, want a reference to a structure element", path, k, typeName(o))
			return
		}
		m.SE = refOf(ir)
	}, func(_ *writer, m *OutlineItem) (types.Object, error) {
		if m.SE.IsZero() {
			return nil, nil
		}
		return indirect(m.SE), nil
	}},
}

// readOnlyKey is a key that is read and never written.
func readOnlyKey[M any](name string, required bool, since string, read func(r *reader, m *M, k string, d types.Dict, ref webcapture.Ref, path string)) key[M] {
	return key[M]{name, required, since, read, func(*writer, *M) (types.Object, error) { return nil, nil }}
}

// outlineValue is d's value at k, resolved; false when absent or null (a
// dangling reference is recorded by resolve).
func (r *reader) outlineValue(d types.Dict, k, path string) (types.Object, bool) {
	o, ok := d[k]
	if !ok {
		return nil, false
	}
	v, _, ok := r.resolveKey(o, path, k)
	return v, ok && v != nil
}

// destination reads an explicit destination [page /Form ...]: the page's
// number (0 when it is not a page of the page tree) and the form. A named
// destination (a name or a string) gives 0 and "".
func (r *reader) destination(o types.Object, ref webcapture.Ref, path string) (int, string) {
	switch v := o.(type) {
	case types.Name, types.StringLiteral, types.HexLiteral:
		return 0, ""
	case types.Array:
		form := ""
		if len(v) > 1 {
			if n, ok := v[1].(types.Name); ok {
				form = internName(string(n))
			}
		}
		if form == "" {
			form = "?" // an array without a form ([null 0 0 1] in a real file): malformed, left to the auditor
		}
		if len(v) > 0 {
			if ir, ok := v[0].(types.IndirectRef); ok {
				if n := r.doc.PageNumber(refOf(ir)); n > 0 {
					return n, form
				}
			}
		}
		return 0, form
	}
	r.defect(ref, path, OutlineEntry, "%s is %s, want a destination (an array, a name or a string)", path, typeName(o))
	return 0, ""
}

// destPage is the page object of an explicit destination; zero if none.
func destPage(o types.Object) webcapture.Ref {
	if a, isArr := o.(types.Array); isArr && len(a) > 0 {
		if ir, isRef := a[0].(types.IndirectRef); isRef {
			return refOf(ir)
		}
	}
	return webcapture.Ref{}
}

// readOutline reads the catalog's /Outlines (nil when absent).
func (r *reader) readOutline(o types.Object) []*OutlineItem {
	root, ref, ok := r.resolve(o, "Outlines")
	if !ok || root == nil {
		return nil
	}
	d, isDict := root.(types.Dict)
	if !isDict {
		r.defect(ref, "Outlines", OutlineEntry, "the catalog's /Outlines is %s, want a dictionary", typeName(root))
		return nil
	}
	w := &outlineWalk{r: r, seen: map[webcapture.Ref]bool{}}
	if !ref.IsZero() {
		w.seen[ref] = true
	}
	items := w.level(d, ref, "Outlines", 1)
	if items == nil {
		items = []*OutlineItem{} // an outline without items is there, and empty
	}
	return items
}

type outlineWalk struct {
	r     *reader
	seen  map[webcapture.Ref]bool // every item reached
	items int
	stop  bool // a bound was met: nothing more is read
}

// level reads the items under parent (/First, then each /Next), at depth
// (1: the root's items).
func (w *outlineWalk) level(parent types.Dict, pref webcapture.Ref, ppath string, depth int) []*OutlineItem {
	r := w.r
	next, ok := parent["First"]
	if !ok || next == nil {
		return nil
	}
	if depth > maxOutlineDepth {
		r.defect(pref, ppath, TooDeep, "the outline is deeper than %d levels; the rest is not read", maxOutlineDepth)
		w.stop = true
		return nil
	}
	var items []*OutlineItem
	path := ppath + "/First"
	for i := 0; next != nil && !w.stop; i++ {
		if i > 0 {
			path = ppath + "/First/Next[" + strconv.Itoa(i) + "]" // the i-th /Next from the first
		}
		ref := refIn(next)
		if ref.IsZero() {
			r.defect(pref, path, OutlineEntry, "%s is %s, want a reference to an outline item", path, typeName(next))
			break
		}
		if w.seen[ref] {
			r.defect(ref, path, Cycle, "the outline reaches %s twice", ref)
			break
		}
		w.seen[ref] = true
		if w.items++; w.items > maxOutlineItems {
			r.defect(ref, path, TooMany, "the outline has more than %d items; the rest is not read", maxOutlineItems)
			w.stop = true
			break
		}
		o, _, ok := r.resolve(next, path)
		if !ok {
			break
		}
		d, isDict := o.(types.Dict)
		if !isDict {
			r.defect(ref, path, OutlineEntry, "%s is %s, want an outline item dictionary", path, typeName(o))
			break
		}
		it := &OutlineItem{Ref: ref}
		readKeys(r, outlineKeys, it, d, ref, path)
		items = append(items, it)
		it.Kids = w.level(d, ref, path, depth+1)
		next = d["Next"]
	}
	return items
}
