package pdfio

import (
	"slices"
	"strconv"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// The structure tree (PDF 1.7 §10.6; ISO 32000-1 §14.7), read for what Web
// Capture puts there (§10.9.5, "Structure and Web Capture"): each page set
// of a capture is an Article element of the class SpdrArt, whose kids are
// the marked content of the set's pages. The walk follows /StructTreeRoot
// /K down through the elements, bounded and cycle-checked; it does not
// follow /P, /ParentTree or /IDTree.

// Bounds of the structure walk.
const (
	maxStructDepth = 256
	maxStructElems = 1 << 20
)

// SpiderArticle is the class Web Capture gives its Articles (/C).
const SpiderArticle = "SpdrArt"

// An Article is a structure element of type Article (after /RoleMap) and
// class SpdrArt: Web Capture's element for one page set.
type Article struct {
	Ref   webcapture.Ref // the element; zero if direct
	Pages []int          // the pages its marked content is on (its MCIDs' /Pg, its /MCR kids' /Pg), ascending, each once
	MCIDs int            // how many marked-content kids it has (MCIDs and /MCR dictionaries)
}

// structElem is what the walk reads of an element (Table 10.10).
type structElem struct {
	S  string         // /S, the structure type, as written
	C  []string       // /C, its classes (a name or an array of names)
	Pg webcapture.Ref // /Pg, the page its MCIDs are on
}

// structKeys are the element's keys the reader reads; /K is the walk's.
var structKeys = []key[structElem]{
	readOnlyKey("S", true, "1.3", func(r *reader, m *structElem, k string, d types.Dict, ref webcapture.Ref, path string) {
		if o, ok := r.outlineValue(d, k, path); ok {
			n, isName := o.(types.Name)
			if !isName {
				r.defect(ref, path+"/"+k, StructEntry, "%s/%s is %s, want a name", path, k, typeName(o))
				return
			}
			m.S = internName(string(n))
		}
	}),
	readOnlyKey("C", false, "1.3", func(r *reader, m *structElem, k string, d types.Dict, ref webcapture.Ref, path string) {
		o, ok := r.outlineValue(d, k, path)
		if !ok {
			return
		}
		switch v := o.(type) {
		case types.Name:
			m.C = []string{internName(string(v))}
		case types.Array:
			for _, el := range v { // names, each optionally followed by a revision number
				if n, isName := el.(types.Name); isName {
					m.C = append(m.C, internName(string(n)))
				}
			}
		default:
			r.defect(ref, path+"/"+k, StructEntry, "%s/%s is %s, want a name or an array", path, k, typeName(o))
		}
	}),
	readOnlyKey("Pg", false, "1.3", func(r *reader, m *structElem, k string, d types.Dict, ref webcapture.Ref, path string) {
		if o, ok := d[k]; ok && o != nil {
			m.Pg = r.pageRef(o, ref, path+"/"+k)
		}
	}),
}

// pageRef is the reference o, which must be indirect.
func (r *reader) pageRef(o types.Object, ref webcapture.Ref, path string) webcapture.Ref {
	ir, isRef := o.(types.IndirectRef)
	if !isRef {
		r.defect(ref, path, StructEntry, "%s is %s, want a reference to a page", path, typeName(o))
		return webcapture.Ref{}
	}
	return refOf(ir)
}

// readStructure reads the Articles under the catalog's /StructTreeRoot.
func (r *reader) readStructure(o types.Object) {
	root, ref, ok := r.resolve(o, "StructTreeRoot")
	if !ok || root == nil {
		return
	}
	d, isDict := root.(types.Dict)
	if !isDict {
		r.defect(ref, "StructTreeRoot", StructEntry, "the catalog's /StructTreeRoot is %s, want a dictionary", typeName(root))
		return
	}
	w := &structWalk{r: r, seen: map[webcapture.Ref]bool{}, roles: map[string]string{}, articles: &r.doc.Articles}
	if !ref.IsZero() {
		w.seen[ref] = true
	}
	r.roles = w.roles
	if rm, ok := r.outlineValue(d, "RoleMap", "StructTreeRoot"); ok {
		if m, isDict := rm.(types.Dict); isDict {
			for k, v := range m {
				if n, isName := v.(types.Name); isName {
					w.roles[internName(k)] = internName(string(n))
				}
			}
		} else {
			r.defect(ref, "StructTreeRoot/RoleMap", StructEntry, "StructTreeRoot/RoleMap is %s, want a dictionary", typeName(rm))
		}
	}
	if k, ok := d["K"]; ok {
		w.kids(k, ref, "StructTreeRoot/K", structElem{}, nil, 1)
	}
	if pt, ok := d["ParentTree"]; ok && pt != nil {
		r.doc.ParentTree = r.readParentTree(pt)
		if n, ok := r.integer(ref, d, "ParentTreeNextKey", "StructTreeRoot"); ok {
			r.doc.ParentTree.NextKey = &n
		}
	}
}

type structWalk struct {
	r     *reader
	seen  map[webcapture.Ref]bool // every element reached
	roles map[string]string       // /RoleMap
	elems int
	stop  bool
	// articles collects the SpdrArt Articles met; nil to collect none.
	articles *[]*Article
	last     *Article // the last Article met
	// steps, if not nil, is what is left of a budget of kids shared by
	// several walks (readTaggedBookmarks'): at 0 the walk stops.
	steps *int
}

// role maps a structure type through /RoleMap to the type it stands for,
// following at most a few steps (a map that loops ends where it started).
// Article, a standard type, is not mapped: a role map maps the types a
// producer made up to standard ones, and "standard structure types shall
// not be remapped" (ISO 32000-2 §14.8.6.1). Tika's PDF/A copy of a Web
// Capture file maps /Article to /P; its SpdrArt element is an Article all
// the same.
func (w *structWalk) role(s string) string {
	if s == "Article" {
		return s
	}
	for range 8 {
		t, ok := w.roles[s]
		if !ok || t == s {
			break
		}
		s = t
	}
	return s
}

// kids reads the /K value o of the element parent (its object pref, its
// path): an element, an MCID, a marked-content reference, an object
// reference, or an array of them. art, if not nil, is the Article parent
// is, which collects the pages of its marked content.
func (w *structWalk) kids(o types.Object, pref webcapture.Ref, path string, parent structElem, art *Article, depth int) {
	r := w.r
	if w.steps != nil {
		if *w.steps <= 0 {
			w.stop = true
		}
		*w.steps--
	}
	if w.stop {
		return
	}
	v, ref, ok := r.resolve(o, path)
	if !ok || v == nil {
		return
	}
	switch k := v.(type) {
	case types.Integer: // an MCID on the parent's page
		if art != nil {
			art.MCIDs++
			w.onPage(art, parent.Pg)
		}
	case types.Array:
		if !ref.IsZero() && w.visit(ref, path) {
			return
		}
		for i, el := range k {
			w.kids(el, pref, path+"["+strconv.Itoa(i)+"]", parent, art, depth)
		}
	case types.Dict:
		switch t, _ := k["Type"].(types.Name); t {
		case "MCR":
			if art != nil {
				art.MCIDs++
				pg := parent.Pg
				if p, ok := k["Pg"]; ok && p != nil {
					pg = r.pageRef(p, ref, path+"/Pg")
				}
				w.onPage(art, pg)
			}
		case "OBJR":
		default:
			w.elem(k, ref, path, depth, art, parent.Pg)
		}
	default:
		r.defect(pref, path, StructEntry, "%s is %s, want a structure element, an MCID or a reference dictionary", path, typeName(v))
	}
}

// visit marks ref reached; true (with a Cycle defect) when it was already.
func (w *structWalk) visit(ref webcapture.Ref, path string) bool {
	if w.seen[ref] {
		w.r.defect(ref, path, Cycle, "the structure tree reaches %s twice", ref)
		return true
	}
	w.seen[ref] = true
	return false
}

// elem reads the structure element d (object ref, at path) and its kids.
// in is the Article d is inside (nil if none), whose pages its marked
// content is on too (Chromium's headings and paragraphs under a page
// set's Article); pg is its parent's /Pg, which it inherits.
func (w *structWalk) elem(d types.Dict, ref webcapture.Ref, path string, depth int, in *Article, pg webcapture.Ref) {
	r := w.r
	if !ref.IsZero() && w.visit(ref, path) {
		return
	}
	if w.elems++; w.elems > maxStructElems {
		r.defect(ref, path, TooMany, "the structure tree has more than %d elements; the rest is not read", maxStructElems)
		w.stop = true
		return
	}
	if depth > maxStructDepth {
		r.defect(ref, path, TooDeep, "the structure tree is deeper than %d levels; the rest is not read", maxStructDepth)
		w.stop = true
		return
	}
	var se structElem
	readKeys(r, structKeys, &se, d, ref, path)
	if se.Pg.IsZero() {
		se.Pg = pg
	}
	art, own := in, false
	if w.role(se.S) == "Article" && slices.Contains(se.C, SpiderArticle) {
		art, own = &Article{Ref: ref}, true
		if w.articles != nil {
			*w.articles = append(*w.articles, art)
		}
		w.last = art
	}
	if k, ok := d["K"]; ok {
		w.kids(k, ref, path+"/K", se, art, depth+1)
	}
	if own {
		slices.Sort(art.Pages)
		art.Pages = slices.Compact(art.Pages)
	}
}

// onPage adds the page pg is to the Article's pages; 0 when pg is not a
// page of the page tree.
func (w *structWalk) onPage(art *Article, pg webcapture.Ref) {
	n := w.r.doc.PageNumber(pg)
	if len(art.Pages) == 0 || art.Pages[len(art.Pages)-1] != n {
		art.Pages = append(art.Pages, n)
	}
}
