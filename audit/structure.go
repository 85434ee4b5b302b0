package audit

import (
	"slices"
	"strconv"

	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// structure checks the tagged bookmarks and the structure elements Web
// Capture writes (PDF 1.7 §10.6, §10.9.5; ISO 32000-1 §14.7, §14.10.6):
// each page set is one Article of class SpdrArt, a tagged bookmark's /SE
// is its set's Article, and each page's /StructParents is its own key in
// the /ParentTree. What real files do and these rules let pass: an Article
// that hangs under a second, unreferenced StructTreeRoot (Issue621), a page
// set with no Article (pdfium's linearized file), kids in no page order.
func (a *auditor) structure() {
	if len(a.d.Outline) > 0 || len(a.d.Articles) > 0 { // the two that ask which set a page is in
		setOf := a.pageSets()
		a.taggedBookmarks(a.d.Outline, setOf)
		a.articleSets(setOf)
	}
	a.structParents()
}

// pageSets returns each page's page set by page number (the first set that
// lists it); nil for a page in none.
func (a *auditor) pageSets() []*pdfio.ContentSet {
	setOf := make([]*pdfio.ContentSet, len(a.d.Pages)+1)
	for _, cs := range a.d.Sets {
		if cs.Subtype != webcapture.PageSet {
			continue
		}
		for _, o := range cs.Objects {
			if n := a.d.PageNumber(o); n > 0 && n < len(setOf) && setOf[n] == nil {
				setOf[n] = cs
			}
		}
	}
	return setOf
}

// setOfPage returns page n's page set (pageSets), or nil.
func setOfPage(setOf []*pdfio.ContentSet, n int) *pdfio.ContentSet {
	if n > 0 && n < len(setOf) {
		return setOf[n]
	}
	return nil
}

// taggedBookmarks: each item with /SE reaches an SpdrArt Article with
// marked content on its destination's page set (or, for a page in no set,
// on that page).
func (a *auditor) taggedBookmarks(items []*pdfio.OutlineItem, setOf []*pdfio.ContentSet) {
	for _, it := range items {
		a.taggedBookmarks(it.Kids, setOf)
		if it.SE.IsZero() || a.dangling(it.SE) {
			continue
		}
		art := it.SEArticle
		switch {
		case art == nil:
			if a.hasWebCapture() {
				a.add("WC-SE-ARTICLE", it.Ref, "/SE", "the outline item %q has /SE %s, which is not an Article of class SpdrArt (Web Capture's element for a page set)", it.Title.String(), it.SE)
			}
		case it.Dest > 0:
			pages := []int{it.Dest}
			if cs := setOfPage(setOf, it.Dest); cs != nil {
				pages = a.d.PageNumbers(cs)
			}
			if !slices.ContainsFunc(art.Pages, func(p int) bool { return slices.Contains(pages, p) }) {
				a.add("WC-SE-ARTICLE", it.Ref, "/SE", "the outline item %q goes to page %d, but its /SE %s has marked content on pages %v, none of that page's set %v", it.Title.String(), it.Dest, it.SE, art.Pages, pages)
			}
		}
	}
}

// articleSets: an SpdrArt Article's pages are in one page set.
func (a *auditor) articleSets(setOf []*pdfio.ContentSet) {
	arts := slices.Clone(a.d.Articles)
	var walk func(items []*pdfio.OutlineItem)
	walk = func(items []*pdfio.OutlineItem) {
		for _, it := range items {
			if it.SEArticle != nil && !slices.Contains(arts, it.SEArticle) {
				arts = append(arts, it.SEArticle)
			}
			walk(it.Kids)
		}
	}
	walk(a.d.Outline)
	for _, art := range arts {
		var sets []*pdfio.ContentSet
		for _, p := range art.Pages {
			if cs := setOfPage(setOf, p); cs != nil && !slices.Contains(sets, cs) {
				sets = append(sets, cs)
			}
		}
		if len(sets) > 1 {
			var names []string
			for _, cs := range sets {
				names = append(names, cs.Ref.String())
			}
			a.add("WC-ARTICLE-SETS", art.Ref, "/K", "the SpdrArt Article %s has marked content on pages %v, which belong to %d page sets (%v); Web Capture makes one Article per page set", art.Ref, art.Pages, len(sets), names)
		}
	}
}

// structParents: each page's /StructParents is its own key, and the key
// resolves in the /ParentTree.
func (a *auditor) structParents() {
	first := map[int64]*pdfio.Page{}
	pt := a.d.ParentTree
	for _, p := range a.d.Pages {
		if p.StructParents == nil {
			continue
		}
		k := *p.StructParents
		if q, ok := first[k]; ok {
			a.add("WC-STRUCTPARENTS-SHARED", p.Ref, "/StructParents", "pages %d and %d share /StructParents %d: the marked content of one is mapped to the other's structure elements", q.Number, p.Number, k)
		} else {
			first[k] = p
		}
		if pt == nil {
			continue
		}
		if _, ok := pt.Entries[k]; !ok {
			a.add("WC-PARENTTREE-KEY", p.Ref, "/StructParents", "page %d has /StructParents %d, a key the /ParentTree does not hold: its marked content has no structure element", p.Number, k)
		}
	}
	if pt == nil {
		return
	}
	keys := make([]int64, 0, len(pt.Entries))
	for k, e := range pt.Entries {
		if !e.Resolves {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		a.add("WC-PARENTTREE-KEY", pt.Ref, pt.Entries[k].Path, "the /ParentTree entry %s points at nothing (want an array of structure elements, or an element)", strconv.FormatInt(k, 10))
	}
}
