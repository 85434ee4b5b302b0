package pdfio

import (
	"bytes"
	"fmt"
	"iter"
	"maps"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

type reader struct {
	xt    *model.XRefTable
	dec   *decoder // decodes streams once, within the caps
	opts  Options
	roles map[string]string // the structure tree's /RoleMap, for readTaggedBookmarks
	doc   *Document
	sets  *webcapture.RefIndex[int32] // content sets by object: their place in doc.Sets (only this reader, not one alongside, reads sets)

	b           []byte                  // the file's bytes, to check against what pdfcpu built; nil: not checked
	xrefDamaged bool                    // the cross-reference data had to be rebuilt
	recovered   map[int]types.Object    // objects the lost cross-reference data located, recovered from object streams, or found near a wrong offset
	relocated   map[int]int64           // where recoverMisplaced found each object it recovered
	unloadable  map[int]bool            // objects listed, in use, that cannot be read even so (recoverMisplaced)
	nums        []int                   // the table's object numbers, sorted once, where there is no byNum (objectNumbers)
	byNum       []*model.XRefTableEntry // the table by object number, when objectNumbers could make it (entry)
	cents       []centry                // a read's own compact index of it, which replaces byNum (compactIndex)
	numCount    int                     // how many numbers objectNumbers yields
	// parallel: parts of the reading may run at once (alongside). Only
	// objects in object streams are written while reading (load keeps
	// each once parsed): without any, the reader only reads what pdfcpu
	// built.
	parallel bool
	// headers are where "N G obj" is in the bytes, by N (asOf).
	headers map[int][]int64
	// pageContents are the pages' content streams (contentsOf).
	pageContents map[webcapture.Ref]int
	// plan is what an update wrote, for Result's reader
	// (result_model.go); nil for any other read.
	plan *resultPlan
	// recent are the short strings str read last (a value: a reader
	// alongside has its own).
	recent recentStrings
}

func newReader(ctx *model.Context, dec *decoder, name string, opts Options, b []byte) *reader {
	bound := webcapture.DenseBound(len(ctx.XRefTable.Table))
	doc := &Document{File: name}
	if ctx.HeaderVersion != nil {
		doc.Version = ctx.HeaderVersion.String()
	}
	if ctx.RootVersion != nil {
		doc.Catalog = ctx.RootVersion.String()
	}
	doc.Encrypted = ctx.Encrypt != nil
	// (pdfcpu sets UsingObjectStreams before it makes the first lazy
	// object; a read that may let go of top-level dictionaries, filed,
	// writes the table too.)
	parallel := ctx.Read != nil && !ctx.Read.UsingObjectStreams && dec.filed == nil
	return &reader{xt: ctx.XRefTable, dec: dec, opts: opts, doc: doc, sets: webcapture.NewRefIndex[int32](bound), b: b, parallel: parallel}
}

func (r *reader) defect(obj webcapture.Ref, path string, kind DefectKind, format string, args ...any) {
	r.doc.Defects = append(r.doc.Defects, Defect{Object: obj, Path: path, Kind: kind, Message: fmt.Sprintf(format, args...)})
}

// read reads the document. Where r.parallel allows it, the well-formedness
// check of the objects and the page tree walk run alongside SpiderInfo and
// the name trees (which do not read the pages): the document is the same as
// read in order, its defects in the same order.
func (r *reader) read() *Document {
	r.checkStop()
	var damage damageLog
	r.checkSections(&damage)
	r.indexNumbers() // before checkObjects may run alongside
	if r.dec.readOnly {
		r.compactIndex()
		r.dec.byNum, r.dec.cents = r.byNum, r.cents
	}
	r.recoverMisplaced()
	r.readRevisions()
	if cat, err := r.xt.Catalog(); err == nil && cat != nil {
		r.readSeals(cat) // before the bytes are let go: /Contents is found in them
	}
	r.dropTable()
	if !r.parallel {
		r.checkObjects(&damage)
		// The bytes are checked: let go of them (the file's size, live
		// while the walk parses the objects of the object streams, which
		// is when the reader's memory peaks).
		r.b = nil
	}
	cat, err := r.xt.Catalog()
	if err != nil || cat == nil {
		if r.parallel {
			r.checkObjects(&damage)
		}
		r.endDamage(&damage)
		r.defect(webcapture.Ref{}, "Root", Dangling, "the trailer's /Root is not a dictionary")
		return r.doc
	}
	pages := r.alongside(func(pr *reader) {
		if r.parallel {
			pr.checkObjects(&damage)
		}
		if pr.takePages(cat["Pages"]) { // (Result: the input's, result_pages.go)
			return
		}
		pr.readPages(cat["Pages"])
		if r.parallel {
			pr.idForms() // (else in readUse, as it was)
		}
	})
	if si, ok := cat["SpiderInfo"]; ok {
		r.doc.Info = r.info(si, "SpiderInfo")
	}
	var namesDict types.Dict
	if n, ok := cat["Names"]; ok {
		names, _, _ := r.resolve(n, "Names")
		if d, ok := names.(types.Dict); ok {
			namesDict = d
			if o, ok := d["IDS"]; ok {
				r.doc.IDS = r.nameTree("IDS", o)
			}
			if o, ok := d["URLS"]; ok {
				r.doc.URLS = r.nameTree("URLS", o)
			}
		} else if names != nil {
			r.defect(webcapture.Ref{}, "Names", WrongType, "the catalog's /Names is %s, want a dictionary", typeName(names))
		}
	}
	r.readAttachments(cat, namesDict)
	pages()
	if o, ok := cat["Outlines"]; ok && o != nil {
		r.doc.Outline = r.readOutline(o)
	}
	if o, ok := cat["StructTreeRoot"]; ok && o != nil {
		r.readStructure(o)
	}
	r.readTaggedBookmarks()
	r.endDamage(&damage)
	r.scanObjects()
	r.setsAfter()
	r.readUse()
	r.doc.Certification = r.certification(cat)
	r.readDSS(cat)
	r.readRoles(cat)
	r.certifiedAfter(r.doc.Certification)
	return r.doc
}

// alongside runs f with a reader of its own: in a goroutine when
// r.parallel, else now. The function it returns waits for f, and puts the
// pages, forms and defects f found in r's document as if f had run first
// (before anything r found since); a panic in f is raised again there, in
// the reader's goroutine, whose caller recovers it.
func (r *reader) alongside(f func(fr *reader)) (join func()) {
	if !r.parallel {
		f(r)
		return func() {}
	}
	fr := *r
	fr.doc = &Document{File: r.doc.File, Encrypted: r.doc.Encrypted}
	before := len(r.doc.Defects)
	wait := inGoroutine(func() { f(&fr) })
	return func() {
		wait()
		r.doc.Pages, r.doc.pageByRef, r.doc.IDForms = fr.doc.Pages, fr.doc.pageByRef, fr.doc.IDForms
		r.doc.Defects = slices.Concat(r.doc.Defects[:before], fr.doc.Defects, r.doc.Defects[before:])
	}
}

// inGoroutine runs f in a goroutine of its own; wait waits for it to end,
// and raises again a panic in f, with f's stack (goroutinePanic).
func inGoroutine(f func()) (wait func()) {
	done := make(chan *goroutinePanic, 1)
	go func() {
		defer func() {
			var gp *goroutinePanic
			if p := recover(); p != nil {
				gp = &goroutinePanic{p, debug.Stack()}
			}
			done <- gp
		}()
		f()
	}()
	return func() {
		if gp := <-done; gp != nil {
			panic(gp)
		}
	}
}

// A goroutinePanic is a panic in a reader's goroutine, with its stack.
type goroutinePanic struct {
	value any
	stack []byte
}

// Typed getters: each returns the key's value and whether it is present with
// the right type; a present value of the wrong type is a defect.

func (r *reader) get(d types.Dict, key, path string) (types.Object, bool) {
	o, ok := d[key]
	if !ok {
		return nil, false
	}
	v, _, ok := r.resolveKey(o, path, key)
	return v, ok && v != nil
}

func (r *reader) wrong(obj webcapture.Ref, path, key string, got types.Object, want string) {
	r.defect(obj, path+"/"+key, WrongType, "%s is %s, want %s", key, typeName(got), want)
}

// array is the array d holds at key; a value of another type is a
// WrongType defect ("want" says what the key takes).
func (r *reader) array(obj webcapture.Ref, d types.Dict, key, path, want string) (types.Array, bool) {
	v, ok := r.get(d, key, path)
	if !ok {
		return nil, false
	}
	a, isArr := v.(types.Array)
	if !isArr {
		r.wrong(obj, path, key, v, want)
	}
	return a, isArr
}

func (r *reader) str(obj webcapture.Ref, d types.Dict, key, path string) (string, bool) {
	v, ok := r.get(d, key, path)
	if !ok {
		return "", false
	}
	s, ok := r.recent.rawString(v)
	if !ok {
		r.wrong(obj, path, key, v, "a string")
	}
	return s, ok
}

// recentStrings are the last short strings a reader read (str), kept to
// give the same string again when the next is equal: a capture's sets
// mostly hold the same /CT, and a set's /TS the same date as its
// source's, and the sets of a page or a second after one another the
// same dates; each was a copy of its own (rawString), 3 MB of the 62 MB
// Document of 50,000 sets. A ring of a few, compared byte by byte: no
// map, nothing kept but what the Document holds anyway.
type recentStrings struct {
	s    [8]string
	next int
}

// maxRecent is the longest string recentStrings keeps: a date, a
// content type; longer ones (URLs, titles) are seldom equal.
const maxRecent = 32

// rawString is rawString, giving a string kept when o's bytes are equal.
func (rs *recentStrings) rawString(o types.Object) (string, bool) {
	lit, ok := o.(types.StringLiteral)
	if !ok || len(lit) > maxRecent || needsUnescape(string(lit)) {
		return rawString(o)
	}
	for _, s := range rs.s {
		if s == string(lit) {
			return s, true
		}
	}
	s := strings.Clone(string(lit))
	rs.s[rs.next] = s
	rs.next = (rs.next + 1) % len(rs.s)
	return s, true
}

func (r *reader) name(obj webcapture.Ref, d types.Dict, key, path string) (string, bool) {
	v, ok := r.get(d, key, path)
	if !ok {
		return "", false
	}
	n, ok := v.(types.Name)
	if !ok {
		r.wrong(obj, path, key, v, "a name")
		return "", false
	}
	return internName(string(n)), true
}

func (r *reader) integer(obj webcapture.Ref, d types.Dict, key, path string) (int64, bool) {
	v, ok := r.get(d, key, path)
	if !ok {
		return 0, false
	}
	i, ok := v.(types.Integer)
	if !ok {
		r.wrong(obj, path, key, v, "an integer")
	}
	return int64(i), ok
}

func (r *reader) number(obj webcapture.Ref, d types.Dict, key, path string) (webcapture.Number, bool) {
	v, ok := r.get(d, key, path)
	if !ok {
		return webcapture.Number{}, false
	}
	switch n := v.(type) {
	case types.Integer:
		return webcapture.Number{Value: float64(n), Integer: true}, true
	case types.Float:
		return webcapture.Number{Value: float64(n)}, true
	}
	r.wrong(obj, path, key, v, "a number")
	return webcapture.Number{}, false
}

func (r *reader) date(obj webcapture.Ref, d types.Dict, key, path string) *webcapture.Date {
	s, ok := r.str(obj, d, key, path)
	if !ok {
		return nil
	}
	dt, err := webcapture.ParseDate(s)
	if err != nil {
		r.defect(obj, path+"/"+key, BadValue, "%s: %v", key, err)
	}
	return &dt
}

func (r *reader) rawID(obj webcapture.Ref, d types.Dict, key, path string) *webcapture.RawID {
	s, ok := r.str(obj, d, key, path)
	if !ok {
		return nil
	}
	id := webcapture.RawID(s)
	return &id
}

// walkTree walks a name tree from its root, depth first in /Kids order,
// collecting entries and recording every structural defect.
func (r *reader) walkTree(name string, root types.Object) *Tree {
	t := &Tree{Name: name}
	w := &treeWalk{r: r, t: t, onPath: map[webcapture.Ref]bool{}, seen: map[webcapture.Ref]bool{}}
	obj, ref, why := r.resolveWhy(root, func() string { return name })
	t.Root = ref
	if w.lost(ref, why) || why != resolved {
		return t
	}
	d, isDict := obj.(types.Dict)
	if !isDict {
		r.defect(ref, name, TreeNode, "the %s tree's root is %s, want a dictionary", name, typeName(obj))
		return t
	}
	_, kids := d["Kids"]
	_, names := d["Names"]
	t.Empty = !kids && !names
	if !ref.IsZero() {
		w.onPath[ref], w.seen[ref] = true, true // a kid that is the root is a cycle
	}
	w.node(d, ref, name, 1, false)
	return t
}

type treeWalk struct {
	r       *reader
	t       *Tree
	onPath  map[webcapture.Ref]bool // nodes on the current path: a cycle if met again
	seen    map[webcapture.Ref]bool // every node walked: shared if met again
	last    *string                 // the key before, in walk order
	stopped bool
	buf     []byte // the latest key's decoded bytes (keyText)
}

// keyText is rawString for a tree key, without a copy of its own: the
// text of a literal string without escapes, or the bytes decoded into
// w.buf, valid until the next key. names keeps it as the equal string the
// entry's content set holds, or else a copy (sharedKey): a key is mostly
// its set's /ID or URL, and was a copy made only to be dropped.
func (w *treeWalk) keyText(o types.Object) (string, bool) {
	switch s := o.(type) {
	case types.StringLiteral:
		if !needsUnescape(string(s)) {
			return string(s), true
		}
	case types.HexLiteral:
		w.buf = appendHex(w.buf[:0], string(s))
		return ownString(w.buf), true
	}
	return rawString(o)
}

// node walks one node and returns the least and greatest keys below it;
// fresh: d was parsed by the caller's look-up (decoder.fresh).
func (w *treeWalk) node(d types.Dict, ref webcapture.Ref, path string, depth int, fresh bool) (lo, hi *string) {
	r, t := w.r, w.t
	if w.stopped {
		return nil, nil
	}
	r.checkStop()
	t.Nodes++
	t.Depth = max(t.Depth, depth)
	if t.Nodes > r.opts.MaxTreeNodes {
		r.defect(ref, path, TooMany, "the %s tree has more than %d nodes; the rest is not read", t.Name, r.opts.MaxTreeNodes)
		w.stopped = true
		return nil, nil
	}
	kids, hasKids := d["Kids"]
	names, hasNames := d["Names"]
	switch {
	case hasKids && hasNames:
		r.defect(ref, path, TreeNode, "%s has both /Kids and /Names; /Kids is read", path)
	case !hasKids && !hasNames && depth > 1:
		r.defect(ref, path, TreeNode, "%s has neither /Kids nor /Names", path)
	}
	if hasKids {
		lo, hi = w.kids(kids, path, depth)
	} else if hasNames {
		lo, hi = w.names(names, ref, path)
	}
	w.limits(d, ref, path, depth, lo, hi)
	if !hasKids {
		if r.repack(ref, d) && fresh { // (a leaf: nothing reads it again)
			r.dec.recycle(d)
		}
	}
	return lo, hi
}

// lost records in the tree a node, or part of one, that the cross-reference
// data lists but that cannot be read, and reports whether it was one.
func (w *treeWalk) lost(ref webcapture.Ref, why resolution) bool {
	if why != unreadable {
		return false
	}
	w.t.Unreadable = append(w.t.Unreadable, ref)
	return true
}

func (w *treeWalk) kids(kids types.Object, path string, depth int) (lo, hi *string) {
	r := w.r
	arr, aref, why := r.resolveWhy(kids, func() string { return path + "/Kids" })
	w.lost(aref, why)
	a, isArr := arr.(types.Array)
	if ok := why == resolved; !ok || !isArr {
		if ok {
			r.defect(webcapture.Ref{}, path+"/Kids", TreeNode, "%s/Kids is %s, want an array", path, typeName(arr))
		}
		return nil, nil
	}
	if depth >= r.opts.MaxTreeDepth {
		r.defect(webcapture.Ref{}, path, TooDeep, "the %s tree is deeper than %d levels; the rest is not read", w.t.Name, r.opts.MaxTreeDepth)
		return nil, nil
	}
	for i, k := range a {
		kpath := fmt.Sprintf("%s/Kids[%d]", path, i)
		kref := webcapture.Ref{}
		if ir, isRef := k.(types.IndirectRef); isRef {
			kref = refOf(ir)
			if w.onPath[kref] {
				r.defect(kref, kpath, Cycle, "%s is %s, which is above it in the tree", kpath, kref)
				continue
			}
			if w.seen[kref] {
				r.defect(kref, kpath, TreeShared, "%s is %s, which the tree reaches twice", kpath, kref)
				continue
			}
		}
		mark := r.dec.mark()
		obj, _, why := r.resolveWhy(k, func() string { return kpath })
		if w.lost(kref, why) || why != resolved {
			continue
		}
		kd, isDict := obj.(types.Dict)
		if !isDict {
			r.defect(kref, kpath, TreeNode, "%s is %s, want a dictionary", kpath, typeName(obj))
			continue
		}
		if !kref.IsZero() {
			w.onPath[kref], w.seen[kref] = true, true
		}
		klo, khi := w.node(kd, kref, kpath, depth+1, r.dec.fresh(mark, kd))
		delete(w.onPath, kref)
		if klo != nil && lo == nil {
			lo = klo
		}
		if khi != nil {
			hi = khi
		}
	}
	return lo, hi
}

func (w *treeWalk) names(names types.Object, node webcapture.Ref, path string) (lo, hi *string) {
	r, t := w.r, w.t
	arr, aref, why := r.resolveWhy(names, func() string { return path + "/Names" })
	w.lost(aref, why)
	a, isArr := arr.(types.Array)
	if ok := why == resolved; !ok || !isArr {
		if ok {
			r.defect(node, path+"/Names", TreeNode, "%s/Names is %s, want an array", path, typeName(arr))
		}
		return nil, nil
	}
	if len(a)%2 != 0 {
		r.defect(node, path+"/Names", TreeOddNames, "%s/Names has %d elements, an odd number: the last key has no value", path, len(a))
	}
	for i := 0; i+1 < len(a); i += 2 {
		e := &Entry{KeyRef: refIn(a[i]), Node: node, nodePath: path, index: int32(i)}
		kobj, kref, why := a[i], e.KeyRef, resolved
		if !kref.IsZero() {
			kobj, kref, why = r.resolveWhy(a[i], e.Path)
		}
		if w.lost(kref, why) || why != resolved {
			continue
		}
		key, isStr := w.keyText(kobj)
		if !isStr {
			r.defect(kref, e.Path(), TreeKeyType, "%s: key is %s, want a string", e.Path(), typeName(kobj))
			continue
		}
		switch {
		case w.last != nil && key < *w.last:
			r.defect(node, e.Path(), TreeUnsorted, "%s: key %s sorts before the key before it, %s", e.Path(), show(t.Name, key), show(t.Name, *w.last))
		case w.last != nil && key == *w.last:
			r.defect(node, e.Path(), TreeDuplicate, "%s: key %s appears twice", e.Path(), show(t.Name, key))
		}
		e.Key = key
		w.last = &e.Key
		if lo == nil {
			lo = &e.Key
		}
		hi = &e.Key
		r.entryValue(e, a[i+1])
		e.Key = sharedKey(t.Name, e) // (a string of its own from here on)
		t.Entries = append(t.Entries, e)
	}
	return lo, hi
}

// limits checks a node's /Limits against the keys below it: required on
// intermediate and leaf nodes, absent on the root.
func (w *treeWalk) limits(d types.Dict, ref webcapture.Ref, path string, depth int, lo, hi *string) {
	r := w.r
	l, has := d["Limits"]
	if depth == 1 {
		if has {
			r.defect(ref, path+"/Limits", TreeRootLimits, "%s is the root and has /Limits, which only other nodes have", path)
		}
		return
	}
	if !has {
		r.defect(ref, path, TreeLimits, "%s has no /Limits", path)
		return
	}
	obj, _, ok := r.resolve(l, path+"/Limits")
	a, isArr := obj.(types.Array)
	if !ok || !isArr || len(a) != 2 {
		r.defect(ref, path+"/Limits", TreeLimits, "%s/Limits is not an array of two strings", path)
		return
	}
	var got [2]string
	for i := range a {
		o, _, ok := r.resolve(a[i], path+"/Limits")
		s, isStr := rawString(o)
		if !ok || !isStr {
			r.defect(ref, path+"/Limits", TreeLimits, "%s/Limits[%d] is %s, want a string", path, i, typeName(o))
			return
		}
		got[i] = s
	}
	if lo == nil || hi == nil {
		return // no keys below: nothing to compare with
	}
	if got[0] != *lo || got[1] != *hi {
		r.defect(ref, path+"/Limits", TreeLimits, "%s/Limits is [%s %s], but the keys below run from %s to %s",
			path, show(w.t.Name, got[0]), show(w.t.Name, got[1]), show(w.t.Name, *lo), show(w.t.Name, *hi))
	}
}

// entryValue reads a tree value: a content set, or an array of them.
func (r *reader) entryValue(e *Entry, v types.Object) {
	if ir, isRef := v.(types.IndirectRef); isRef {
		if cs := r.setOf(refOf(ir)); cs != nil { // already read: no path to build
			e.Sets = append(e.Sets, cs)
			return
		}
		if cs := r.plannedSetAt(refOf(ir), e.valuePath); cs != nil { // (result_model.go)
			e.Sets = append(e.Sets, cs)
			return
		}
	}
	path := e.valuePath()
	mark := r.dec.mark()
	obj, ref, why := r.resolveWhy(v, func() string { return path })
	if why != resolved {
		e.Unreadable = why == unreadable
		return
	}
	switch o := obj.(type) {
	case types.Dict:
		if cs := r.contentSet(o, ref, path, r.dec.fresh(mark, o)); cs != nil {
			e.Sets = append(e.Sets, cs)
		}
	case types.Array:
		e.Array = true
		for i, el := range o {
			epath := path + "[" + strconv.Itoa(i) + "]"
			mark := r.dec.mark()
			v, ref, why := r.resolveWhy(el, func() string { return epath })
			if why != resolved {
				e.Unreadable = e.Unreadable || why == unreadable
				continue
			}
			if d, isDict := v.(types.Dict); isDict {
				e.Sets = append(e.Sets, r.contentSet(d, ref, epath, r.dec.fresh(mark, d)))
			} else {
				r.defect(ref, epath, TreeValue, "%s is %s, want %s", epath, typeName(v), "a content set dictionary")
			}
		}
	default:
		r.defect(ref, path, TreeValue, "%s is %s, want a content set or an array of content sets", path, typeName(obj))
	}
}

// sharedKey is e's key, or the equal string its one content set holds
// (its /ID, for IDS; a URL of its sources, for URLS), so that the
// Document holds the bytes once: on a capture of 100,000 page sets the
// keys were 10 MB of copies.
func sharedKey(tree string, e *Entry) string {
	if len(e.Sets) != 1 {
		return strings.Clone(e.Key)
	}
	cs := e.Sets[0]
	switch tree {
	case "IDS":
		if cs.ID != nil && string(*cs.ID) == e.Key {
			return string(*cs.ID)
		}
	case "URLS":
		for _, si := range cs.Sources {
			if si == nil {
				continue
			}
			if si.URLs.URL == e.Key {
				return si.URLs.URL
			}
			for _, chain := range si.URLs.Chains {
				if i := slices.Index(chain, e.Key); i >= 0 {
					return chain[i]
				}
			}
		}
	}
	return strings.Clone(e.Key)
}

// show writes a key for a message: IDS keys in hex, URLS keys quoted.
func show(tree, key string) string {
	if tree == "IDS" {
		return "<" + webcapture.RawID(key).Hex() + ">"
	}
	return fmt.Sprintf("%q", key)
}

// objectNumbers are the numbers of the cross-reference table, in order,
// each with its place among them (0, 1, 2...), found once: the table
// does not change while the reader walks it (the objects it recovers are
// kept aside, in recovered). When the numbers are dense enough (a table
// of n objects numbered below 4n + 1024, as files are), it makes byNum,
// for entry: a slice, where pdfcpu's table is a map (a look-up per
// reference followed), and the numbers are those of its entries, in
// order, without a sort or a list of them (3.7 MB of a 50 MB file's
// read, live to its end). A number without an entry may be left out:
// every loop over the numbers skips it.
func (r *reader) objectNumbers() iter.Seq2[int, int] {
	r.indexNumbers()
	if r.cents != nil {
		return func(yield func(int, int) bool) {
			i := 0
			for n := range r.cents {
				if r.cents[n].flags&cIn == 0 {
					continue
				}
				if !yield(i, n) {
					return
				}
				i++
			}
		}
	}
	if r.byNum == nil {
		return slices.All(r.nums)
	}
	return func(yield func(int, int) bool) {
		i := 0
		for n, e := range r.byNum {
			if e == nil {
				continue
			}
			if !yield(i, n) {
				return
			}
			i++
		}
	}
}

// numberCount is how many numbers objectNumbers yields.
func (r *reader) numberCount() int {
	r.indexNumbers()
	return r.numCount
}

// indexNumbers makes byNum, or else nums (objectNumbers), once.
func (r *reader) indexNumbers() {
	if r.nums != nil || r.byNum != nil || r.cents != nil {
		return
	}
	hi, dense := -1, true
	for n := range r.xt.Table {
		hi = max(hi, n)
		dense = dense && n >= 0
	}
	if !dense || hi >= 4*len(r.xt.Table)+1024 {
		r.nums = slices.Sorted(maps.Keys(r.xt.Table))
		r.numCount = len(r.nums)
		return
	}
	r.byNum = make([]*model.XRefTableEntry, hi+1)
	for n, e := range r.xt.Table {
		if e != nil {
			r.byNum[n] = e
			r.numCount++
		}
	}
}

// dropTable lets go of pdfcpu's map of the table on a read that has its
// own index of it (byNum) and the catalog (pdfcpu's Catalog keeps it):
// the map was some 30 bytes an object, 3 MB of a 25 MB classic file's
// read live to its end, and nothing in the read looks in it any more
// (entry, decoder.entry). Only the catalog's entry is kept, for what of
// pdfcpu might still look it up.
func (r *reader) dropTable() {
	if !r.dec.readOnly || !r.indexed() || r.xt.RootDict == nil || r.xt.Root == nil {
		return
	}
	root := r.xt.Root.ObjectNumber.Value()
	kept := map[int]*model.XRefTableEntry{}
	if e := r.xt.Table[root]; e != nil {
		kept[root] = e
	}
	r.xt.Table = kept
}

// indexed reports whether the reader has its own index of the table
// (byNum or cents), which entry looks in.
func (r *reader) indexed() bool { return r.byNum != nil || r.cents != nil }

// indexLen is the length of that index: one more than the highest
// object number.
func (r *reader) indexLen() int { return max(len(r.byNum), len(r.cents)) }

// compactIndex replaces byNum with the compact index (cents) on a read
// that will let go of pdfcpu's table (dropTable): its catalog is parsed
// (pdfcpu's Catalog looks no more in the table), and nothing but the
// read's decoder looks at its entries (readOnly). The entries pdfcpu's
// are then let go of with the table.
func (r *reader) compactIndex() {
	if r.byNum == nil || r.xt.RootDict == nil || r.xt.Root == nil {
		return
	}
	if cs := compactEntries(r.byNum); cs != nil {
		r.cents, r.byNum = cs, nil
	}
}

// entry is the table's entry for object num (pdfcpu's FindTableEntry,
// which ignores the generation); nil if there is none.
func (r *reader) entry(num int) ent {
	if r.cents != nil {
		return centryAt(r.cents, num)
	}
	if r.byNum != nil {
		if num < 0 || num >= len(r.byNum) {
			return ent{}
		}
		return pent(r.byNum[num])
	}
	e, _ := r.xt.FindTableEntry(num, 0)
	return pent(e)
}

// scanObjects finds the image XObjects and the content sets that no tree
// reaches, and links every set to the keys that hold it.
func (r *reader) scanObjects() {
	taken := r.pagesTaken()
	if taken {
		r.takenImages() // (result_pages.go)
	}
	for i, n := range r.objectNumbers() {
		if i%256 == 0 {
			r.checkStop()
		}
		e := r.entry(n)
		if e.none() || e.free() || e.object() == nil {
			continue
		}
		ref := webcapture.Ref{Num: n, Gen: e.gen()}
		mark := r.dec.mark()
		if unparsed(e.object()) {
			if r.setOf(ref) != nil {
				continue // read as a set, and let go of (repackSet): an object stream holds no image
			}
			// Parse only what may be a content set: its text names SPS
			// or SIS (or escapes a name, which could hide them).
			data, err := r.dec.lazyData(e)
			if err != nil || !(bytes.Contains(data, []byte("SPS")) || bytes.Contains(data, []byte("SIS")) || bytes.IndexByte(data, '#') >= 0) {
				continue
			}
			if _, err := r.dec.load(e); err != nil {
				continue
			}
		}
		switch o := e.object().(type) {
		case types.StreamDict:
			if !taken {
				r.maybeImage(o.Dict, ref)
			}
		case slimStream:
			if !taken {
				r.maybeImage(o.dict, ref)
			}
		case plannedObject: // (a set Result's update wrote that no tree reaches: its dictionary, read as any: result_model.go)
			if r.setOf(ref) != nil {
				continue
			}
			if o, err := r.dec.load(e); err == nil {
				if d, isDict := o.(types.Dict); isDict && looksLikeContentSet(d) {
					if cs := r.contentSet(d, ref, "object "+strconv.Itoa(n), false); cs != nil {
						cs.Orphan = true
					}
				}
			}
		case types.Dict:
			if r.setOf(ref) == nil && looksLikeContentSet(o) {
				if cs := r.contentSet(o, ref, "object "+strconv.Itoa(n), r.dec.fresh(mark, o)); cs != nil {
					cs.Orphan = true
				}
			}
		}
	}
	for _, t := range []*Tree{r.doc.IDS, r.doc.URLS} {
		if t == nil {
			continue
		}
		for _, e := range t.Entries {
			for _, cs := range e.Sets {
				if t.Name == "IDS" {
					cs.IDSKeys = append(cs.IDSKeys, e.Key)
				} else {
					cs.URLSKeys = append(cs.URLSKeys, e.Key)
				}
			}
		}
	}
}

// looksLikeContentSet: /S /SPS or /S /SIS with /ID or /O (Acrobat never
// writes /Type /SpiderContentSet).
func looksLikeContentSet(d types.Dict) bool {
	s, _ := d["S"].(types.Name)
	if s != "SPS" && s != "SIS" {
		return false
	}
	_, id := d["ID"]
	_, o := d["O"]
	return id || o
}

func (r *reader) maybeImage(d types.Dict, ref webcapture.Ref) {
	if st, _ := d["Subtype"].(types.Name); st != "Image" {
		return
	}
	img := &Image{Ref: ref}
	path := fmt.Sprintf("object %d", ref.Num)
	if raw, ok := d["ID"]; ok {
		if ir, isRef := raw.(types.IndirectRef); isRef {
			img.IDRef = refOf(ir)
		}
		img.ID = r.rawID(ref, d, "ID", path)
	}
	r.doc.Images = append(r.doc.Images, img)
}

// internName returns a copy of a name (pdfcpu's strings can share a larger
// buffer), the common ones without allocating.
func internName(n string) string {
	switch n {
	case "SPS":
		return string(webcapture.PageSet)
	case "SIS":
		return string(webcapture.ImageSet)
	case "SpiderContentSet":
		return "SpiderContentSet"
	}
	return strings.Clone(n)
}
