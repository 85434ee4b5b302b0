package pdfio

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// What the auditor needs beyond the Web Capture dictionaries themselves:
// which pages use each image XObject, and how (an image set's /R counts
// pages, PDF 1.7 §10.9.3); the /PA of link annotations (PDF 1.7 Table 8.24,
// ISO 32000-1 Table 173); Form XObjects that carry /ID, which only pages
// and image XObjects carry (PDF 1.7 §10.9.5); the command dictionaries that
// only a source information's /C reaches; and URL alias dictionaries whose
// /C holds no chain (ISO 32000-1 Table 356 wants one or more).
//
// The page resources are read quietly: a broken reference in a font or a
// form is no defect of the capture, so it is skipped, not recorded.

// A PriorAction is a link annotation's /PA: the URI action Web Capture
// keeps when it turns a URI link into a go-to link.
type PriorAction struct {
	Annot  webcapture.Ref // the link annotation; zero if direct
	Page   int            // the page whose /Annots holds it
	Kind   string         // what /PA is: "a dictionary", "a name", ...; "a missing object" for a dangling reference
	Action string         // the dictionary's /S, when it is a name
	URI    bool           // the dictionary has a string /URI
	Target string         // that /URI string's bytes, when URI
}

// A Form is a Form XObject that carries /ID.
type Form struct {
	Ref webcapture.Ref
	ID  *webcapture.RawID // nil when /ID is not a string
}

// A Place is where something is: its object (zero if direct) and its path.
type Place struct {
	Object webcapture.Ref
	Path   string
}

// maxUseVisits bounds the resource entries the image-use walk visits in
// all; past it Document.ImageUseKnown is false.
const maxUseVisits = 1 << 20

// readUse reads what this file describes, after the Web Capture structures
// and the image XObjects have been read. Where r.parallel allows it, the
// image-use walk (which says no defect, and writes only the images,
// PriorActions and ImageUseKnown) runs alongside sourceExtras.
func (r *reader) readUse() {
	if r.pagesTaken() {
		r.takenUse() // (result_pages.go)
		r.sourceExtras()
		return
	}
	w := &useWalk{r: r, images: map[webcapture.Ref]*Image{}, memo: map[webcapture.Ref][]webcapture.Ref{},
		onPath: map[webcapture.Ref]bool{}, complete: true}
	for _, im := range r.doc.Images {
		w.images[im.Ref] = im
	}
	walk := func() {
		for _, p := range r.doc.Pages {
			if u := p.use; u != nil {
				p.use = nil // (the Document does not keep it)
				w.page(p, *u)
			} else if d := w.dict(refObject(p.Ref)); d != nil {
				w.page(p, pageUseOf(d))
			}
		}
		r.doc.ImageUseKnown = w.complete
	}
	wait := func() {}
	if r.parallel {
		wait = inGoroutine(walk)
	} else {
		walk()
		r.idForms() // (else alongside the name trees: it reads only the objects, and says no defect)
	}
	r.sourceExtras()
	wait()
}

// refObject is a reference to ref (nil for the zero Ref).
func refObject(ref webcapture.Ref) types.Object {
	if ref.IsZero() {
		return nil
	}
	return indirect(ref)
}

// quiet follows references from o without recording a defect: nil when one
// finds no object.
func (r *reader) quiet(o types.Object) types.Object {
	for range maxChain {
		ir, ok := o.(types.IndirectRef)
		if !ok {
			return o
		}
		e := r.entry(ir.ObjectNumber.Value())
		if e.none() || e.free() || e.object() == nil {
			return nil
		}
		ob, err := r.dec.load(e)
		if err != nil {
			return nil
		}
		o = ob
	}
	return nil
}

type useWalk struct {
	r        *reader
	images   map[webcapture.Ref]*Image
	memo     map[webcapture.Ref][]webcapture.Ref // the images a form, pattern, font or appearance reaches
	onPath   map[webcapture.Ref]bool             // containers being walked: a loop if met again
	visits   int
	complete bool // no bound stopped the walk
}

func (w *useWalk) dict(o types.Object) types.Dict {
	d, _ := w.r.quiet(o).(types.Dict)
	return d
}

func (w *useWalk) stream(o types.Object) (types.StreamDict, bool) {
	s, ok := w.r.quiet(o).(types.StreamDict)
	return s, ok
}

func (w *useWalk) visit() bool {
	if w.visits++; w.visits > maxUseVisits {
		w.complete = false
	}
	return w.complete
}

// page records the images page p uses: named in its resources (its own or
// inherited), and through forms, patterns, Type 3 fonts, soft masks,
// another image's mask, annotation appearances and its thumbnail; and its
// links' /PA.
// A pageUse is what readUse reads of a page's dictionary: /Resources
// (hasRes: present), /Parent, /Thumb and /Annots.
type pageUse struct {
	res, parent, thumb, annots types.Object
	hasRes                     bool
}

func pageUseOf(d types.Dict) pageUse {
	res, hasRes := d["Resources"]
	return pageUse{res: res, hasRes: hasRes, parent: d["Parent"], thumb: d["Thumb"], annots: d["Annots"]}
}

func (w *useWalk) page(p *Page, u pageUse) {
	direct := map[webcapture.Ref]bool{}
	via := map[webcapture.Ref]map[string]bool{}
	use := func(img webcapture.Ref, how string) {
		if how == "" {
			direct[img] = true
			return
		}
		if via[img] == nil {
			via[img] = map[string]bool{}
		}
		via[img][how] = true
	}
	w.resources(w.pageResources(u), 0, use)
	if ref := refIn(u.thumb); !ref.IsZero() {
		use(ref, "thumbnail")
	}
	annots, _ := w.r.quiet(u.annots).(types.Array)
	for _, a := range annots {
		ad := w.dict(a)
		if ad == nil {
			continue
		}
		w.appearances(ad, use)
		if st, _ := ad["Subtype"].(types.Name); st == "Link" {
			if pa, ok := ad["PA"]; ok {
				w.r.doc.PriorActions = append(w.r.doc.PriorActions, w.r.priorAction(a, pa, p.Number))
			}
		}
	}
	w.record(p.Number, direct, via)
}

// record adds page n to the users of each image it reaches.
func (w *useWalk) record(n int, direct map[webcapture.Ref]bool, via map[webcapture.Ref]map[string]bool) {
	for ref := range direct {
		if im := w.images[ref]; im != nil {
			im.Direct = append(im.Direct, n)
			im.Pages = append(im.Pages, n)
		}
	}
	for ref, hows := range via {
		im := w.images[ref]
		if im == nil || direct[ref] {
			continue
		}
		im.Pages = append(im.Pages, n)
		for how := range hows {
			if !slices.Contains(im.Via, how) {
				im.Via = append(im.Via, how)
			}
		}
		sort.Strings(im.Via)
	}
}

// pageResources returns a page's /Resources, its own or inherited from the
// page tree.
func (w *useWalk) pageResources(u pageUse) types.Object {
	if u.hasRes {
		return u.res
	}
	d := w.dict(u.parent)
	if d == nil {
		return nil
	}
	for range maxPageDepth - 1 {
		if res, ok := d["Resources"]; ok {
			return res
		}
		if d = w.dict(d["Parent"]); d == nil {
			return nil
		}
	}
	return nil
}

// appearances calls use for the images an annotation's appearance streams
// (/AP /N, /R, /D, each a stream or a dictionary of states) and a widget's
// icons (/MK /I, /RI, /IX) reach.
func (w *useWalk) appearances(ad types.Dict, use func(webcapture.Ref, string)) {
	var streams []types.Object
	if ap := w.dict(ad["AP"]); ap != nil {
		for _, k := range []string{"N", "R", "D"} {
			if v, ok := ap[k]; ok {
				if states := w.dict(v); states != nil {
					for _, s := range states {
						streams = append(streams, s)
					}
				} else {
					streams = append(streams, v)
				}
			}
		}
	}
	if mk := w.dict(ad["MK"]); mk != nil {
		for _, k := range []string{"I", "RI", "IX"} {
			if v, ok := mk[k]; ok {
				streams = append(streams, v)
			}
		}
	}
	for _, s := range streams {
		for _, img := range w.reach(s, 1) {
			use(img, "annotation")
		}
	}
}

// resources calls use for every image a resource dictionary reaches: how
// is "" for an image its /XObject names, else the way it is reached.
func (w *useWalk) resources(res types.Object, depth int, use func(img webcapture.Ref, how string)) {
	d := w.dict(res)
	if d == nil {
		return
	}
	for _, v := range w.dict(d["XObject"]) {
		if !w.visit() {
			return
		}
		s, ok := w.stream(v)
		if !ok {
			continue
		}
		switch st, _ := s.Dict["Subtype"].(types.Name); st {
		case "Image":
			use(refIn(v), "")
			w.masks(s.Dict, func(m webcapture.Ref) { use(m, "mask") })
		case "Form":
			for _, img := range w.reach(v, depth+1) {
				use(img, "form")
			}
		}
	}
	for _, v := range w.dict(d["Pattern"]) {
		if !w.visit() {
			return
		}
		if s, ok := w.stream(v); ok {
			if t, _ := s.Dict["PatternType"].(types.Integer); t == 1 { // tiling
				for _, img := range w.reach(v, depth+1) {
					use(img, "pattern")
				}
			}
		}
	}
	for _, v := range w.dict(d["ExtGState"]) {
		if !w.visit() {
			return
		}
		if sm := w.dict(w.dict(v)["SMask"]); sm != nil {
			for _, img := range w.reach(sm["G"], depth+1) {
				use(img, "soft mask")
			}
		}
	}
	for _, v := range w.dict(d["Font"]) {
		if !w.visit() {
			return
		}
		if st, _ := w.dict(v)["Subtype"].(types.Name); st == "Type3" {
			for _, img := range w.reach(v, depth+1) {
				use(img, "Type 3 font")
			}
		}
	}
}

// masks calls f with an image's soft mask, stencil mask and alternates.
func (w *useWalk) masks(d types.Dict, f func(webcapture.Ref)) {
	for _, k := range []string{"SMask", "Mask"} {
		if ref := refIn(d[k]); !ref.IsZero() {
			f(ref)
		}
	}
	alts, _ := w.r.quiet(d["Alternates"]).(types.Array)
	for _, a := range alts {
		if ref := refIn(w.dict(a)["Image"]); !ref.IsZero() {
			f(ref)
		}
	}
}

// reach returns the images a form, tiling pattern, Type 3 font or
// appearance stream reaches through its /Resources, once per object.
func (w *useWalk) reach(o types.Object, depth int) []webcapture.Ref {
	ref := refIn(o)
	if !ref.IsZero() {
		if imgs, ok := w.memo[ref]; ok {
			return imgs
		}
		if w.onPath[ref] {
			return nil // a loop
		}
		w.onPath[ref] = true
		defer delete(w.onPath, ref)
	}
	if depth > maxObjectDepth {
		w.complete = false
		return nil
	}
	var d types.Dict
	switch v := w.r.quiet(o).(type) {
	case types.StreamDict:
		d = v.Dict
	case types.Dict:
		d = v
	default:
		return nil
	}
	seen := map[webcapture.Ref]bool{}
	var imgs []webcapture.Ref
	w.resources(d["Resources"], depth, func(img webcapture.Ref, _ string) {
		if !seen[img] {
			seen[img] = true
			imgs = append(imgs, img)
		}
	})
	if !ref.IsZero() {
		w.memo[ref] = imgs
	}
	return imgs
}

// priorAction reads a link annotation's /PA.
func (r *reader) priorAction(annot, pa types.Object, page int) *PriorAction {
	out := &PriorAction{Annot: refIn(annot), Page: page}
	obj := r.quiet(pa)
	out.Kind = typeName(obj)
	if obj == nil && !refIn(pa).IsZero() {
		out.Kind = "a missing object"
	}
	if d, ok := obj.(types.Dict); ok {
		if s, ok := r.quiet(d["S"]).(types.Name); ok {
			out.Action = string(s)
		}
		out.Target, out.URI = rawString(r.quiet(d["URI"]))
	}
	return out
}

// idForms finds the Form XObjects that carry /ID.
func (r *reader) idForms() {
	for _, n := range r.objectNumbers() { // (in order: entries made in order lie in order in memory)
		e := r.entry(n)
		if e.none() || e.free() {
			continue
		}
		s, ok := r.dec.streamOf(e)
		if !ok {
			continue
		}
		raw, has := s.Dict["ID"]
		if st, _ := s.Dict["Subtype"].(types.Name); st != "Form" || !has {
			continue
		}
		f := &Form{Ref: webcapture.Ref{Num: n, Gen: e.gen()}}
		if str, ok := rawString(r.quiet(raw)); ok {
			id := webcapture.RawID(str)
			f.ID = &id
		}
		r.doc.IDForms = append(r.doc.IDForms, f)
	}
	sort.Slice(r.doc.IDForms, func(i, j int) bool { return r.doc.IDForms[i].Ref.Num < r.doc.IDForms[j].Ref.Num })
}

// sourceExtras reads, from each content set's source information, the
// command dictionaries SpiderInfo /C does not list (by commandKeys, as
// SpiderInfo's are read), and the URL alias dictionaries whose /C holds no
// chain or an empty one. A set the file holds directly (not as an object)
// is known by its model only: its commands are read by their references.
func (r *reader) sourceExtras() {
	listed := map[webcapture.Ref]bool{}
	if r.doc.Info != nil {
		for _, c := range r.doc.Info.Commands {
			listed[c.Ref] = true
		}
	}
	for _, cs := range r.doc.Sets {
		// (A read that let go of the set's dictionary kept its /SI: repackSet.)
		siObj, siDict, found, planned := cs.si, cs.siDict, cs.siKept, cs.planned
		cs.si, cs.siDict, cs.siKept, cs.planned = nil, nil, false, false // (the Document does not keep them)
		switch {
		case planned && verifyKept:
			r.checkPlannedExtras(cs, siObj, siDict, found, listed)
			continue
		case planned:
			r.plannedExtras(cs, listed)
			continue
		}
		r.setExtras(cs, siObj, siDict, found, listed)
	}
}

// setExtras is sourceExtras for content set cs, its /SI siObj or siDict
// if found (kept by repackSet), else read from its dictionary.
func (r *reader) setExtras(cs *ContentSet, siObj types.Object, siDict *sourceUse, found bool, listed map[webcapture.Ref]bool) {
	if !found {
		if d, _ := r.quiet(refObject(cs.Ref)).(types.Dict); d != nil {
			siObj, found = d["SI"], true
		}
	}
	if !found {
		for _, si := range cs.Sources {
			if si.Command != nil && !si.Command.IsZero() {
				r.sourceCommand(refObject(*si.Command), cs.Path+"/SI/C", listed)
			}
		}
		return
	}
	path := func() string { return fmt.Sprintf("object %d/SI", cs.Ref.Num) }
	if siDict != nil {
		r.sourceInfoExtras(*siDict, nil, cs.Ref, path, listed) // (a direct dictionary: no reference to own it)
		return
	}
	switch si := r.quiet(siObj).(type) {
	case types.Dict:
		r.sourceInfoExtras(sourceUseOf(si), siObj, cs.Ref, path, listed)
	case types.Array:
		for i, el := range si {
			if sd, ok := r.quiet(el).(types.Dict); ok {
				r.sourceInfoExtras(sourceUseOf(sd), el, cs.Ref, func() string { return fmt.Sprintf("%s[%d]", path(), i) }, listed)
			}
		}
	}
}

// plannedExtras is setExtras for a set Result's reader took from the
// model it was written from (plannedSet, readsBack): its /SI holds its
// sources as direct dictionaries, an array of them where SourceArray
// says, each with a /C where the source has a Command (a reference to a
// dictionary, not zero), and no empty alias chain (plainURLs). Of those setExtras
// reads only the commands: the set's dictionary and its sources are not
// looked up again (on a build of 100,000 page sets, 0.17 s).
func (r *reader) plannedExtras(cs *ContentSet, listed map[webcapture.Ref]bool) {
	for i, si := range cs.Sources {
		if si.Command == nil || listed[*si.Command] {
			continue // (sourceCommand reads a command once: a build's sets share theirs)
		}
		path := fmt.Sprintf("object %d/SI", cs.Ref.Num)
		if cs.SourceArray {
			path = fmt.Sprintf("%s[%d]", path, i)
		}
		r.sourceCommand(refObject(*si.Command), path+"/C", listed)
	}
}

// checkPlannedExtras runs setExtras and plannedExtras on cs, each from
// its own copy of listed, and panics where they differ (verifyKept, in
// pdfio's tests); what setExtras found is kept.
func (r *reader) checkPlannedExtras(cs *ContentSet, siObj types.Object, siDict *sourceUse, found bool, listed map[webcapture.Ref]bool) {
	before := maps.Clone(listed)
	nc, ne := len(r.doc.SourceCommands), len(r.doc.EmptyAliasC)
	r.plannedExtras(cs, before)
	planned := slices.Clone(r.doc.SourceCommands[nc:])
	if len(r.doc.EmptyAliasC) != ne {
		panic("pdfio: plannedExtras found an empty alias chain")
	}
	r.doc.SourceCommands = r.doc.SourceCommands[:nc]
	r.setExtras(cs, siObj, siDict, found, listed)
	if len(r.doc.EmptyAliasC) != ne || !reflect.DeepEqual(planned, r.doc.SourceCommands[nc:]) || !maps.Equal(before, listed) {
		panic(fmt.Sprintf("pdfio: content set %s: its planned source extras differ from their read", cs.Ref))
	}
}

// A sourceUse is what sourceExtras reads of a source information
// dictionary: /C (hasC: present) and /AU.
type sourceUse struct {
	c, au types.Object
	hasC  bool
}

func sourceUseOf(d types.Dict) sourceUse {
	c, hasC := d["C"]
	return sourceUse{c: c, hasC: hasC, au: d["AU"]}
}

// sourceInfoExtras reads one source information dictionary's; path, built
// only when something is found, says where it is.
func (r *reader) sourceInfoExtras(si sourceUse, raw types.Object, set webcapture.Ref, path func() string, listed map[webcapture.Ref]bool) {
	if si.hasC {
		r.sourceCommand(si.c, path()+"/C", listed)
	}
	owner := set
	if ref := refIn(raw); !ref.IsZero() {
		owner = ref
	}
	au, ok := r.quiet(si.au).(types.Dict)
	if !ok {
		return
	}
	if ref := refIn(si.au); !ref.IsZero() {
		owner = ref
	}
	chains, ok := r.quiet(au["C"]).(types.Array)
	if !ok {
		return
	}
	if len(chains) == 0 {
		r.doc.EmptyAliasC = append(r.doc.EmptyAliasC, Place{owner, path() + "/AU/C"})
	}
	for i, c := range chains {
		if a, ok := r.quiet(c).(types.Array); ok && len(a) == 0 {
			r.doc.EmptyAliasC = append(r.doc.EmptyAliasC, Place{owner, fmt.Sprintf("%s/AU/C[%d]", path(), i)})
		}
	}
}

// sourceCommand reads the command dictionary a source information's /C
// reaches, once, unless SpiderInfo /C lists it.
func (r *reader) sourceCommand(c types.Object, path string, listed map[webcapture.Ref]bool) {
	ref := refIn(c)
	if !ref.IsZero() {
		if listed[ref] {
			return
		}
		listed[ref] = true
	}
	d, ok := r.quiet(c).(types.Dict)
	if !ok {
		return // the reader has said what it is
	}
	cmd := &webcapture.Command{Ref: ref}
	readKeys(r, commandKeys, cmd, d, ref, path)
	r.doc.SourceCommands = append(r.doc.SourceCommands, cmd)
}
