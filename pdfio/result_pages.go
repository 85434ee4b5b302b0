package pdfio

import (
	"fmt"
	"slices"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// Result's pages, images and their use, from the Document of the input
// (Update.Document) instead of a walk of the output. A build of 100,000
// page sets gives every page an /ID (SetID) and changes nothing else a
// page reaches: the walk of the page tree, the scan for image XObjects
// and Form XObjects with /ID, and the walk of every page's resources
// read again what the input's read found, /ID aside.
//
// The input's are taken (takePages) where the update is one this plan
// describes whole:
//   - Document read the input, and found no defect and no damage;
//   - the catalog written still has the input's /Pages;
//   - every object the update replaced is the catalog, the /Names
//     dictionary, the input's SpiderInfo, a content set, or a page or
//     image XObject of the input that only SetID changed (its /ID is the
//     one SetID set);
//   - no new object is a stream (an image or a form the scan would find);
//   - the page tree and the structure tree are not edited (AppendPages,
//     ReplacePages).
//
// Anything else (why says which) and the reader reads the pages, the
// images and their use from the output, as it reads any file.
// TestUpdateResultIsTheReadOfTheBytes, TestResultPagesFromInput and
// record's readBack hold the Document to a parse of the bytes
// (reflect.DeepEqual).

// A pagesPlan is what Result's reader may take of the input's pages.
type pagesPlan struct {
	input   *Document      // the input's Document; nil until Document read it
	inPages types.Object   // the input catalog's /Pages
	inInfo  int            // the input's SpiderInfo object, or 0
	ids     map[int]idEdit // the /IDs SetID set, by object number
	why     string         // why the input's pages cannot be taken ("": they may be)
	taken   bool           // Result's reader took them
	images  map[int]*Image // the input's images by object number, once asked (isImage)
	// pend are the table's entries of the pages SetID only gave an /ID,
	// which absorb left as the dictionaries read (idOnly), for settle.
	pend  []pendingPage
	final bool // settle found the pages may be taken: they must be
	left  int  // pages settle left as read (for tests)
}

// A pendingPage is a page's entry absorb made, and what SetID wrote.
type pendingPage struct {
	e *model.XRefTableEntry
	v editedObject
}

// An idEdit is one SetID: the object's generation and the /ID it set
// ("": removed); setLike: the object is a dictionary with /S /SPS or
// /SIS, which scanObjects could take for a content set.
type idEdit struct {
	gen     int
	id      webcapture.RawID
	setLike bool
}

// keepInput keeps doc, the input's Document, for Result's reader.
func (p *pagesPlan) keepInput(doc *Document, cat types.Dict, info int) {
	p.input, p.inPages, p.inInfo, p.images = doc, nil, info, nil
	if cat != nil {
		p.inPages = cat["Pages"]
	}
	switch {
	case len(doc.Defects) > 0:
		p.spoil("the input has defects")
	case len(doc.Damage) > 0:
		p.spoil("the input is damaged")
	}
}

// spoil says the input's pages cannot be taken, and why (the first
// reason stands).
func (p *pagesPlan) spoil(why string) {
	if p.why == "" {
		p.why = why
	}
}

// setID records that SetID gave obj, read as o, the /ID id.
func (p *pagesPlan) setID(obj webcapture.Ref, id webcapture.RawID, o types.Object) {
	if p.ids == nil {
		p.ids = map[int]idEdit{}
	}
	e := idEdit{gen: obj.Gen, id: id}
	if d, isDict := o.(types.Dict); isDict {
		// (Asked here, where d was just read, not in idOnly.)
		s, _ := d["S"].(types.Name)
		e.setLike = s == "SPS" || s == "SIS"
	}
	p.ids[obj.Num] = e
}

// open reports whether the input's pages may still be taken.
func (p *pagesPlan) open() bool { return p.input != nil && p.why == "" }

// written checks one object the update wrote (absorb), as o; replaced:
// it was an object of the input; root: the catalog's number, names: the
// /Names dictionary's.
func (p *pagesPlan) written(num int, o types.Object, replaced bool, root, names int) {
	if p.input == nil || p.why != "" {
		return
	}
	if e, ok := p.ids[num]; ok {
		if !p.idWritten(num, e, o) {
			p.spoil(fmt.Sprintf("object %d: SetID's object is not a page or an image of the input with the /ID set", num))
		}
		return
	}
	switch d := o.(type) {
	case types.StreamDict:
		p.spoil(fmt.Sprintf("object %d written is a stream", num))
	case types.Dict:
		if replaced && num != root && num != names && num != p.inInfo && !looksLikeContentSet(d) {
			p.spoil(fmt.Sprintf("object %d replaced is not a content set", num))
		}
	default:
		if replaced {
			p.spoil(fmt.Sprintf("object %d replaced is not a dictionary", num))
		}
	}
}

// idWritten reports whether o, written as object num after SetID e, is a
// page or an image of the input with e's /ID, a direct string.
func (p *pagesPlan) idWritten(num int, e idEdit, o types.Object) bool {
	ref := webcapture.Ref{Num: num, Gen: e.gen}
	var d types.Dict
	switch v := o.(type) {
	case types.Dict:
		if p.input.PageNumber(ref) == 0 {
			return false
		}
		d = v
	case types.StreamDict:
		if im := p.image(num); im == nil || im.Ref != ref {
			return false
		}
		d = v.Dict
	default:
		return false
	}
	raw, has := d["ID"]
	if e.id == "" {
		return !has
	}
	s, isStr := rawString(raw)
	return has && isStr && s == string(e.id)
}

// idOnly returns the dictionary a page of the input was read as, where
// val, what the update wrote as object num, is that page with only the
// /ID SetID last set (editedObject): if the pages are taken (settle),
// nothing Result's reader reads looks at a page's /ID but readPages,
// which does not run, and the copy with /ID made (keptValue: 100,000
// dictionaries, for a build of 100,000 page sets) is not needed. A
// dictionary scanObjects could take for a content set (/S /SPS or /SIS)
// is not one.
func (p *pagesPlan) idOnly(num int, val any) (types.Object, bool) {
	v, edited := val.(editedObject)
	if !edited || v.e.key != "ID" {
		return nil, false
	}
	e, ok := p.ids[num]
	d, isDict := v.o.(types.Dict)
	if !ok || !isDict || e.setLike || p.input.PageNumber(webcapture.Ref{Num: num, Gen: e.gen}) == 0 {
		return nil, false
	}
	if e.id == "" {
		return d, v.e.val == nil
	}
	s, isStr := rawString(v.e.val)
	return d, isStr && s == string(e.id)
}

// settle decides, once absorb made xt the output's table, whether the
// input's pages are taken: the catalog written must still have the
// input's /Pages. Where they are not, the pages absorb left as read are
// made what was written (keptValue), for the walk to read.
func (p *pagesPlan) settle(xt *model.XRefTable) {
	if p.open() {
		cat, err := xt.Catalog()
		if ir, isRef := cat["Pages"].(types.IndirectRef); err != nil || !isRef || ir != p.inPages {
			p.spoil("the catalog's /Pages is not the input's")
		}
	}
	if p.input == nil {
		p.spoil("Document did not read the input")
	}
	p.final = p.why == ""
	if p.final {
		p.left = len(p.pend)
	} else {
		for _, pp := range p.pend {
			pp.e.Object, _ = keptValue(pp.v)
		}
	}
	p.pend = nil
}

// image is the input's image XObject num, or nil.
func (p *pagesPlan) image(num int) *Image {
	if p.images == nil {
		p.images = make(map[int]*Image, len(p.input.Images))
		for _, im := range p.input.Images {
			p.images[im.Ref.Num] = im
		}
	}
	return p.images[num]
}

// takePages gives r's document the input's pages (each with the /ID
// SetID set) and Form XObjects with /ID, where the plan describes the
// update whole and pages (the catalog's /Pages written) is the input's;
// it reports whether it did. The images and their use follow
// (takenImages, takenUse).
func (r *reader) takePages(pages types.Object) bool {
	if r.plan == nil {
		return false
	}
	p := &r.plan.pages
	if !p.final {
		return false
	}
	if ir, isRef := pages.(types.IndirectRef); !isRef || ir != p.inPages {
		// (settle read the same catalog; the pages it left as read
		// lack the /ID written.)
		panic("pdfio: Result's catalog is not the one settle read")
	}
	in := p.input
	slab := make([]Page, len(in.Pages)) // (one allocation for 100,000 pages)
	r.doc.Pages = make([]*Page, len(in.Pages))
	for i, pg := range in.Pages {
		slab[i] = *pg
		if e, ok := p.ids[pg.Ref.Num]; ok {
			slab[i].ID, slab[i].IDRef = idOf(e.id), webcapture.Ref{}
		}
		r.doc.Pages[i] = &slab[i]
	}
	r.doc.pageByRef = in.pageByRef // (read only once made)
	r.doc.IDForms = slices.Clone(in.IDForms)
	p.taken = true
	return true
}

// idOf is the /ID a page or an image read back holds after SetID(id).
func idOf(id webcapture.RawID) *webcapture.RawID {
	if id == "" {
		return nil
	}
	return &id
}

// pagesTaken reports whether takePages gave the document the input's
// pages.
func (r *reader) pagesTaken() bool { return r.plan != nil && r.plan.pages.taken }

// takenImages gives r's document the input's image XObjects, with the
// /ID SetID set and the pages that use them.
func (r *reader) takenImages() {
	p := &r.plan.pages
	if len(p.input.Images) == 0 {
		return
	}
	slab := make([]Image, len(p.input.Images))
	r.doc.Images = make([]*Image, len(slab))
	for i, im := range p.input.Images {
		slab[i] = *im
		slab[i].Direct, slab[i].Pages, slab[i].Via = slices.Clone(im.Direct), slices.Clone(im.Pages), slices.Clone(im.Via)
		if e, ok := p.ids[im.Ref.Num]; ok {
			slab[i].ID, slab[i].IDRef = idOf(e.id), webcapture.Ref{}
		}
		r.doc.Images[i] = &slab[i]
	}
}

// takenUse gives r's document what the input's resource walk found:
// the link annotations' /PA and whether the images' use is complete.
func (r *reader) takenUse() {
	in := r.plan.pages.input
	r.doc.ImageUseKnown = in.ImageUseKnown
	r.doc.PriorActions = slices.Clone(in.PriorActions)
}
