package pdfio

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// Result's document, in part from what the update was given instead of
// a read of what it wrote. A build of 100,000 page sets spent 1.2 s of
// its 12 s reading back its own two trees and its own content sets, for
// the audit that follows.
//
// A name tree SetNameTree built is balanced, sorted, without
// duplicates, its /Limits the keys below them: a walk of it (walkTree)
// finds no defect and reads back the entries it was given, in key
// order. Result's reader takes such a tree from the update's plan
// (plannedTree): its nodes, paths and depth from the dictionaries
// written, its keys from the entries. The values are still reached as
// the walk reaches them (entryValue, in the same order, so the sets come
// in the same order into Document.Sets).
//
// A content set AddContentSet wrote, still the object's value (not
// replaced since: ReplaceContentSet, ExtendImageSet) and kept as written
// (keptValue: Result did not parse its bytes), is taken from the model
// it was written from (plannedSet) where that model reads back as itself
// (readsBack): writeKeys and readKeys go by one key table, and the few
// ways a model can read otherwise (a shape flag the writer overrides, an
// empty slice the read leaves nil, a date its Raw does not say, a
// command that is not there) are checked.
//
// The pages, the image XObjects and what the pages' resources reach
// come from the input's Document where the update only gave pages and
// images an /ID (result_pages.go).
//
// Anywhere else the reader reads what was written, as it reads any
// file: the tree in the output's /Names is not the one planned, a key
// object that does not read back as its key, a tree past
// Options.MaxTreeNodes or MaxTreeDepth; a set replaced, parsed, or not
// reading back as given. An update Result parses whole (a damaged or
// repaired input, an attachment's stream: absorb) takes nothing from
// the plan. TestUpdateResultIsTheReadOfTheBytes, TestResultFromModels,
// FuzzWriteRead and record's readBack hold the Document to a parse of
// the bytes (reflect.DeepEqual); under verifyKept a set taken is read as
// well, and a difference is an internal error.

// A treePlan is a name tree SetNameTree built and wrote.
type treePlan struct {
	entries []treeEntry        // in key order, as buildNameTree wrote them
	root    types.IndirectRef  // the root written
	nodes   map[int]types.Dict // every node written, by object number
	used    bool               // Result's reader took it (for tests)
}

// planTree returns a plan for the tree SetNameTree is to build over
// entries (its own slice, which it sorts: buildNameTree's sort of it is
// then a pass), and the alloc that records its nodes.
func planTree(entries []treeEntry, alloc func(types.Dict) types.IndirectRef) (*treePlan, func(types.Dict) types.IndirectRef) {
	slices.SortFunc(entries, func(a, b treeEntry) int { return strings.Compare(a.Key, b.Key) })
	p := &treePlan{entries: entries, nodes: map[int]types.Dict{}}
	return p, func(d types.Dict) types.IndirectRef {
		ref := alloc(d)
		p.nodes[ref.ObjectNumber.Value()] = d
		return ref
	}
}

// A resultPlan is what an update was given to write, for Result's
// reader.
type resultPlan struct {
	trees map[string]*treePlan // the trees SetNameTree built, by name
	pages pagesPlan            // the input's pages, images and their use (result_pages.go)

	lastDate webcapture.Date // the last date sameDate parsed
	lastCmd  cmdCheck        // the last command commandIsDict looked up
}

// A cmdCheck is isDict's answer for a command.
type cmdCheck struct {
	ref           webcapture.Ref
	isDict, known bool
}

// A setPlan is a content set AddContentSet wrote: the model it was
// written from, with its Ref, and its /SI value; the value an update
// keeps of the object (objOffset.val). Its dictionary is made only when
// asked for (dict): Result's table holds a plannedObject for it, which
// the reader takes the set from (plannedSetAt) without the dictionary;
// anything else that loads the object gets the dictionary (decoder.load).
type setPlan struct {
	m     webcapture.ContentSet
	si    types.Object // the /SI value written
	d     types.Dict   // the dictionary, once made
	reads bool         // m reads back as itself, as far as it says (resultPlan.readsBack)
	given bool         // Result's reader took m (given once: the Document owns it)
}

// siKey is the index of /SI in contentSetKeys.
var siKey = slices.IndexFunc(contentSetKeys, func(k key[webcapture.ContentSet]) bool { return k.name == "SI" })

// set keeps the content set cs, written at ref with /SI si. The model is
// copied (its top level: AddContentSet's caller does not change what it
// wrote).
func (p *resultPlan) set(ref webcapture.Ref, cs *webcapture.ContentSet, si types.Object) *setPlan {
	sp := &setPlan{m: *cs, si: si}
	sp.m.Ref = ref
	sp.reads = p.readsBack(&sp.m)
	return sp
}

// dict is the dictionary writeKeys makes of the set: the value written,
// as a read of its bytes gives it back (keptValue). ok is false (not
// expected: the set was written) where writeKeys fails.
func (p *setPlan) dict() (d types.Dict, ok bool) {
	if p.d == nil {
		d, err := setDict(&p.m)
		if err != nil {
			return nil, false
		}
		p.d = d
	}
	return p.d, true
}

// setDict is writeKeys of a content set (set by init: the tables' readers
// reach decoder.load, which makes a set's dictionary).
var setDict func(*webcapture.ContentSet) (types.Dict, error)

func init() {
	setDict = func(m *webcapture.ContentSet) (types.Dict, error) {
		return writeKeys(&writer{}, "content set", contentSetKeys, m)
	}
}

// A plannedObject stands in Result's table for a content set
// AddContentSet wrote, exactly as written (absorb): the reader takes the
// set from p (plannedSetAt); a load of the object makes its dictionary
// (decoder.load).
type plannedObject struct{ p *setPlan }

func (o plannedObject) Clone() types.Object { return o }
func (plannedObject) PDFString() string     { return "" }
func (plannedObject) String() string        { return "" }

// tree keeps the plan of tree name, built with its root.
func (p *resultPlan) tree(name string, t *treePlan, root types.IndirectRef) {
	t.root = root
	if p.trees == nil {
		p.trees = map[string]*treePlan{}
	}
	p.trees[name] = t
}

// planOf is the plan of the content set AddContentSet wrote as object
// ref, where Result's table holds it as written (plannedObject) and its
// model reads back as itself (readsBack), not taken yet; nil elsewhere
// (the object was replaced since, or Result parsed its bytes: a value the
// writer could not vouch for, readBack).
func (r *reader) planOf(ref webcapture.Ref) *setPlan {
	if r.plan == nil || ref.IsZero() {
		return nil
	}
	e := r.entry(ref.Num)
	if e.none() || e.free() {
		return nil
	}
	po, ok := e.object().(plannedObject)
	if !ok || po.p.given || po.p.m.Ref != ref || !po.p.reads || !r.commandsRead(&po.p.m) {
		return nil
	}
	return po.p
}

// plannedSet is the content set readKeys would read from d, object ref,
// taken from the model AddContentSet wrote it from; nil where d is not
// its dictionary (planOf's cases). Under verifyKept (pdfio's tests) the
// set is read as well, and a difference is an internal error.
func (r *reader) plannedSet(d types.Dict, ref webcapture.Ref, path string) *webcapture.ContentSet {
	p := r.planOf(ref)
	if p == nil || !sameDict(p.d, d) {
		return nil
	}
	return r.take(p, d, path)
}

// take gives p's model to the Document (once), d its dictionary (nil: not
// made).
func (r *reader) take(p *setPlan, d types.Dict, path string) *webcapture.ContentSet {
	p.given = true
	if verifyKept {
		if d == nil {
			d, _ = p.dict()
		}
		n := len(r.doc.Defects)
		m := &webcapture.ContentSet{Ref: p.m.Ref}
		readKeys(r, contentSetKeys, m, d, p.m.Ref, path)
		if len(r.doc.Defects) != n || !reflect.DeepEqual(m, &p.m) {
			panic(fmt.Sprintf("pdfio: content set %s: the model written differs from its read:\n%+v\n%+v", p.m.Ref, p.m, m))
		}
	}
	return &p.m
}

// plannedSetAt is the content set at ref, a tree's value at path, where
// Result's table holds it as AddContentSet wrote it (planOf): taken from
// its model, without its dictionary, as contentSet reads it; nil
// elsewhere (the caller reads the object). Its source extras are its
// commands (plannedExtras): its /SI is kept, as repackSet keeps it, only
// for verifyKept's read of them by setExtras (checkPlannedExtras).
func (r *reader) plannedSetAt(ref webcapture.Ref, path func() string) *ContentSet {
	p := r.planOf(ref)
	if p == nil {
		return nil
	}
	cs := &ContentSet{Path: path()}
	r.sets.Put(ref, int32(len(r.doc.Sets)))
	r.doc.Sets = append(r.doc.Sets, cs)
	cs.ContentSet = r.take(p, nil, cs.Path)
	cs.planned = true
	if !verifyKept {
		return cs
	}
	cs.siKept = true
	if sd, direct := p.si.(types.Dict); direct {
		u := sourceUseOf(sd)
		cs.siDict = &u
	} else {
		cs.si = p.si
	}
	return cs
}

// readsBack reports whether readKeys reads m's dictionary, as writeKeys
// wrote it (without an error), back as m, without a defect, as far as m
// says: each shape flag as the shape written, no empty slice where the
// read leaves nil, each date its Raw's parse, each source direct. The
// rest, each command a dictionary, is the reader's to check
// (commandsRead). (A value that does not read back as written, an
// escaped name, a number past the fast parser, is not kept: readBack.)
// AddContentSet asks as it writes the set (setPlan.reads), while the
// model is at hand.
func (p *resultPlan) readsBack(m *webcapture.ContentSet) bool {
	switch {
	case len(m.Sources) == 0 || !m.SourceArray && len(m.Sources) != 1:
		return false
	case m.RefCounts == nil && m.RefArray || len(m.RefCounts) != 1 && m.RefCounts != nil && !m.RefArray:
		return false
	case !p.sameDate(m.Created):
		return false
	}
	for _, si := range m.Sources {
		if si == nil || !si.Ref.IsZero() || !p.sameDate(si.Updated) || !p.sameDate(si.Expires) || !plainURLs(&si.URLs) {
			return false
		}
	}
	return true
}

// commandsRead reports whether each command m's sources name is a
// dictionary of the table, read without a defect (readsBack's rest).
func (r *reader) commandsRead(m *webcapture.ContentSet) bool {
	for _, si := range m.Sources {
		if si.Command != nil && !r.commandIsDict(*si.Command) {
			return false
		}
	}
	return true
}

// commandIsDict is isDict for a source's command: the last one asked
// about is remembered (a build's sets share their command).
func (r *reader) commandIsDict(ref webcapture.Ref) bool {
	if c := &r.plan.lastCmd; c.known && c.ref == ref {
		return c.isDict
	}
	ok := r.isDict(ref)
	r.plan.lastCmd = cmdCheck{ref: ref, isDict: ok, known: true}
	return ok
}

// plainURLs reports whether a, written direct, reads back as itself.
func plainURLs(a *webcapture.AliasedURLs) bool {
	if !a.Ref.IsZero() || a.URL == "" || !a.Alias && a.Chains != nil {
		return false
	}
	if a.Chains != nil && len(a.Chains) == 0 {
		return false
	}
	for _, c := range a.Chains {
		if len(c) == 0 {
			return false
		}
	}
	return true
}

// sameDate reports whether a date written as its Raw reads back as d
// (ParseDate's). A build's sets share their dates: the last one parsed
// is kept.
func (p *resultPlan) sameDate(d *webcapture.Date) bool {
	if d == nil {
		return true
	}
	if p.lastDate.Raw != d.Raw || !p.lastDate.Valid {
		parsed, err := webcapture.ParseDate(d.Raw)
		if err != nil {
			return false
		}
		p.lastDate = parsed
	}
	return p.lastDate == *d || reflect.DeepEqual(p.lastDate, *d)
}

// isDict reports whether ref is a dictionary of the table (as a command
// must be), read without a defect.
func (r *reader) isDict(ref webcapture.Ref) bool {
	if ref.IsZero() {
		return false
	}
	if _, ok := r.recovered[ref.Num]; ok {
		return false
	}
	e := r.entry(ref.Num)
	if e.none() || e.free() || e.object() == nil {
		return false
	}
	o, err := r.dec.load(e)
	_, isDict := o.(types.Dict)
	return err == nil && isDict
}

// plannedLeaf is a leaf of a planned tree as a walk meets it.
type plannedLeaf struct {
	ref   webcapture.Ref
	path  string
	names types.Array
}

// nameTree is the tree the catalog's /Names holds under name (root): the
// update's plan of it where Result's reader may take it, else walked.
func (r *reader) nameTree(name string, root types.Object) *Tree {
	if t := r.plannedTree(name, root); t != nil {
		return t
	}
	return r.walkTree(name, root)
}

// plannedTree is the tree walkTree would read from root, made from the
// update's plan; nil where the plan cannot say it (then nothing was
// read, and the walk reads the tree).
func (r *reader) plannedTree(name string, root types.Object) *Tree {
	if r.plan == nil {
		return nil
	}
	p := r.plan.trees[name]
	ir, isRef := root.(types.IndirectRef)
	if p == nil || !isRef || refOf(ir) != refOf(p.root) {
		return nil
	}
	t := &Tree{Name: name, Root: refOf(ir)}
	leaves, ok := p.shape(t, r.opts)
	if !ok {
		return nil
	}
	sorted := p.entries
	if !r.planMatches(leaves, sorted) {
		return nil
	}
	if len(sorted) > 0 {
		t.Entries = make([]*Entry, 0, len(sorted)) // (nil for none, as the walk leaves it)
	}
	i := 0
	for _, l := range leaves {
		r.checkStop()
		for j := 0; j+1 < len(l.names); j += 2 {
			ne := sorted[i]
			i++
			e := &Entry{Key: ne.Key, KeyRef: refIn(ne.KeyObject), Node: l.ref, nodePath: l.path, index: int32(j)}
			r.entryValue(e, l.names[j+1])
			e.Key = sharedKey(name, e)
			t.Entries = append(t.Entries, e)
		}
	}
	p.used = true
	return t
}

// shape walks the plan's nodes from its root as walkTree walks them,
// counting t's Nodes and Depth, and returns its leaves in walk order.
// ok is false where the walk would record a defect (a tree past the
// bounds) or the nodes are not the plan's.
func (p *treePlan) shape(t *Tree, opts Options) (leaves []plannedLeaf, ok bool) {
	var walk func(num int, ref webcapture.Ref, path string, depth int) bool
	walk = func(num int, ref webcapture.Ref, path string, depth int) bool {
		d := p.nodes[num]
		t.Nodes++
		t.Depth = max(t.Depth, depth)
		if d == nil || t.Nodes > opts.MaxTreeNodes {
			return false
		}
		kids, hasKids := d["Kids"].(types.Array)
		names, hasNames := d["Names"].(types.Array)
		switch {
		case hasKids == hasNames || len(d) != 1+min(depth-1, 1):
			return false // (a node with both, or neither; /Limits on every node but the root)
		case hasNames:
			leaves = append(leaves, plannedLeaf{ref, path, names})
			return true
		case depth >= opts.MaxTreeDepth:
			return false
		}
		for i, k := range kids {
			kr, isRef := k.(types.IndirectRef)
			if !isRef || !walk(kr.ObjectNumber.Value(), refOf(kr), fmt.Sprintf("%s/Kids[%d]", path, i), depth+1) {
				return false
			}
		}
		return true
	}
	if !walk(p.root.ObjectNumber.Value(), refOf(p.root), t.Name, 1) || t.Nodes != len(p.nodes) {
		return nil, false
	}
	return leaves, true
}

// planMatches reports whether the leaves hold the entries sorted, in
// order (each value its sets, each key object the entry's, its string
// the key), so that a walk would read them back.
func (r *reader) planMatches(leaves []plannedLeaf, sorted []treeEntry) bool {
	i := 0
	for _, l := range leaves {
		if len(l.names)%2 != 0 || i+len(l.names)/2 > len(sorted) {
			return false
		}
		for j := 0; j < len(l.names); j += 2 {
			e := sorted[i]
			i++
			if !sameTreeValue(l.names[j+1], e.Value) || !r.keyReadsBack(l.names[j], e) {
				return false
			}
		}
	}
	return i == len(sorted)
}

// sameTreeValue reports whether v, a tree value written, is want: the same
// reference, or an array of the same references.
func sameTreeValue(v, want types.Object) bool {
	switch v := v.(type) {
	case types.IndirectRef:
		w, ok := want.(types.IndirectRef)
		return ok && v == w
	case types.Array:
		w, ok := want.(types.Array)
		if !ok || len(v) != len(w) {
			return false
		}
		for i, el := range v {
			a, isRef := el.(types.IndirectRef)
			b, wantRef := w[i].(types.IndirectRef)
			if !isRef || !wantRef || a != b {
				return false
			}
		}
		return true
	}
	return false
}

// keyReadsBack reports whether k, a key written for e, reads as e.Key: a
// new string does (hexString, literalString); an existing string object
// (KeyObject) must be in the table, read, and hold e.Key.
func (r *reader) keyReadsBack(k types.Object, e treeEntry) bool {
	ir, isRef := k.(types.IndirectRef)
	if e.KeyObject == nil {
		return !isRef
	}
	want, wantRef := e.KeyObject.(types.IndirectRef)
	if !isRef || !wantRef || ir != want {
		return false
	}
	te := r.entry(refOf(ir).Num)
	if _, ok := r.recovered[refOf(ir).Num]; ok || te.none() || te.free() || te.object() == nil {
		return false
	}
	o, err := r.dec.load(te)
	if err != nil {
		return false
	}
	s, isStr := rawString(o)
	return isStr && s == e.Key
}
