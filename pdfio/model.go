package pdfio

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// contentSet reads a content set dictionary once per object (by its
// table, contentSetKeys); a direct one is read where it stands. fresh: d
// was parsed by the caller's look-up (decoder.fresh), so nothing else
// holds it.
func (r *reader) contentSet(d types.Dict, ref webcapture.Ref, path string, fresh bool) *ContentSet {
	if !ref.IsZero() {
		if cs := r.setOf(ref); cs != nil {
			return cs
		}
	}
	cs := &ContentSet{Path: path}
	if !ref.IsZero() {
		if r.sets.Len() == 0 && r.indexed() {
			// Sized once for the table's numbers: the sets are met in
			// their trees' order, by doubling it grew to up to twice as
			// many (3 MB more of a 50 MB capture's read, and copies).
			r.sets.Grow(r.indexLen())
		}
		r.sets.Put(ref, int32(len(r.doc.Sets)))
	}
	r.doc.Sets = append(r.doc.Sets, cs)
	if cs.ContentSet = r.plannedSet(d, ref, path); cs.ContentSet == nil { // (result_model.go)
		cs.ContentSet = &webcapture.ContentSet{Ref: ref}
		readKeys(r, contentSetKeys, cs.ContentSet, d, ref, path)
	} else {
		cs.planned = true
	}
	r.repackSet(cs, d, fresh)
	return cs
}

// setOf returns the content set read from object ref, or nil.
func (r *reader) setOf(ref webcapture.Ref) *ContentSet {
	if i, ok := r.sets.Get(ref); ok {
		return r.doc.Sets[i]
	}
	return nil
}

// repackSet lets go of a content set's dictionary once it is read
// (repack), keeping only what sourceExtras, the one later visit, reads
// of its /SI: the value, or of a direct dictionary its /C and /AU
// (scanObjects skips a number already read as a set).
func (r *reader) repackSet(cs *ContentSet, d types.Dict, fresh bool) {
	if !r.repack(cs.Ref, d) {
		return
	}
	cs.siKept = true
	sd, direct := d["SI"].(types.Dict)
	if direct {
		u := sourceUseOf(sd) // (the dictionary's other keys were read: sourceInfo)
		cs.siDict = &u
	} else {
		cs.si = d["SI"]
	}
	if fresh {
		r.dec.recycle(d)
		if direct && unshared(sd) {
			r.dec.recycle(sd) // (held by nothing else: the set's map was)
		}
	}
}

// unshared reports whether a dictionary inside an object (fresh from the
// parse) is sure to be its object's own, not a value a read's valueShare
// gives to every object of the same text: one with a literal string
// among its values is, since the share takes no text with a string
// (sharedEnd).
func unshared(d types.Dict) bool {
	for _, v := range d {
		if _, ok := v.(types.StringLiteral); ok {
			return true
		}
	}
	return false
}

// repack lets go of dictionary d, object ref, once it is read, where a
// read parsed it from an object stream: its entry is set back to a
// packedObject. The 20k-page object-stream file's 20,000 pages, 20,000
// content sets with their source information, and the name trees' leaves
// were 60,000 maps live to the end of the read; the caller keeps the few
// values a later visit needs (repackSet, page; a leaf has none), and
// any other visit parses the object again, as the decoder parsed it the
// first time. Where the caller's own look-up parsed d (decoder.fresh), it
// then gives the map back to the decoder for the next object (recycle):
// 20,000 pages read through one map, not 20,000. An update's reader keeps what it parsed (it edits it), and
// so does a read of an object without its own entry, or found elsewhere
// than in its entry (recovered, or reached through a chain of
// references). A top-level dictionary of a classic file is let go of the
// same way, where the read's lazyParse parsed it whole (filed.go): its
// entry then holds a filedObject.
func (r *reader) repack(ref webcapture.Ref, d types.Dict) bool {
	if r.dec == nil || !r.dec.readOnly || ref.IsZero() {
		return false
	}
	e := r.entry(ref.Num)
	if e.none() || e.free() {
		return false
	}
	var stand types.Object
	switch {
	case inStream(e):
		stand = packedObject{}
	case r.dec.mayFile(ref.Num):
		stand = filedObject{}
	default:
		return false
	}
	if ed, ok := e.object().(types.Dict); !ok || !sameDict(ed, d) {
		return false
	}
	e.setObject(stand)
	return true
}

// sameDict reports whether a and b are the same map, not equal ones.
func sameDict(a, b types.Dict) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

func refIn(o types.Object) webcapture.Ref {
	if ir, ok := o.(types.IndirectRef); ok {
		return refOf(ir)
	}
	return webcapture.Ref{}
}

// sourceInfo reads a source information dictionary (sourceInfoKeys).
func (r *reader) sourceInfo(d types.Dict, ref webcapture.Ref, path string) *webcapture.SourceInfo {
	si := &webcapture.SourceInfo{Ref: ref}
	readKeys(r, sourceInfoKeys, si, d, ref, path)
	return si
}

// info reads /SpiderInfo (infoKeys), and its commands (commandKeys).
func (r *reader) info(o types.Object, path string) *webcapture.Info {
	obj, ref, ok := r.resolve(o, path)
	if !ok {
		return nil
	}
	d, isDict := obj.(types.Dict)
	if !isDict {
		r.defect(ref, path, WrongType, "the catalog's /SpiderInfo is %s, want a dictionary", typeName(obj))
		return nil
	}
	info := &webcapture.Info{Ref: ref}
	readKeys(r, infoKeys, info, d, ref, path)
	return info
}

// maxObjectDepth and maxObjectNodes bound the copy of an open-ended
// settings object.
const (
	maxObjectDepth = 32
	maxObjectNodes = 10000
)

// object copies a pdfcpu object into the model's generic form, resolving
// references (a settings graph is self-contained by the specification). A
// reference back to an object being copied is kept as a Ref, not followed,
// and the copy stops (with one defect) past maxObjectDepth levels or
// maxObjectNodes objects.
func (r *reader) object(o types.Object, path string) webcapture.Object {
	c := &objectCopy{r: r, onPath: map[int]bool{}}
	return c.copy(o, path, 0)
}

type objectCopy struct {
	r       *reader
	onPath  map[int]bool
	nodes   int
	stopped bool
}

func (c *objectCopy) copy(o types.Object, path string, depth int) webcapture.Object {
	if c.stopped {
		return nil
	}
	if c.nodes++; depth > maxObjectDepth || c.nodes > maxObjectNodes {
		c.stopped = true
		c.r.defect(webcapture.Ref{}, path, TooDeep, "%s nests deeper than %d levels or holds more than %d objects; the rest is not read", path, maxObjectDepth, maxObjectNodes)
		return nil
	}
	if ir, isRef := o.(types.IndirectRef); isRef {
		n := ir.ObjectNumber.Value()
		if c.onPath[n] {
			return refOf(ir) // a loop: keep the reference
		}
		c.onPath[n] = true
		defer delete(c.onPath, n)
	}
	o, _, ok := c.r.resolve(o, path)
	if !ok {
		return nil
	}
	switch v := o.(type) {
	case types.Boolean:
		return bool(v)
	case types.Integer:
		return int64(v)
	case types.Float:
		return float64(v)
	case types.Name:
		return webcapture.Name(internName(string(v)))
	case types.StringLiteral, types.HexLiteral:
		s, _ := rawString(v)
		return webcapture.String(s)
	case types.Array:
		out := make([]webcapture.Object, len(v))
		for i, e := range v {
			out[i] = c.copy(e, fmt.Sprintf("%s[%d]", path, i), depth+1)
		}
		return out
	case types.Dict:
		out := webcapture.Dict{}
		for _, k := range slices.Sorted(maps.Keys(v)) { // (in key order: the defects come in the same order every read)
			out[webcapture.Name(strings.Clone(k))] = c.copy(v[k], path+"/"+k, depth+1)
		}
		return out
	case types.StreamDict:
		st := &webcapture.Stream{}
		st.Dict, _ = c.copy(v.Dict, path, depth+1).(webcapture.Dict)
		if v.StreamLength != nil {
			st.Length = *v.StreamLength
		}
		return st
	}
	return nil
}

// maxSettingsObjects bounds the objects collected under one settings
// dictionary.
const maxSettingsObjects = 10000

// selfContained checks that nothing under a command settings dictionary is
// referred to from outside it (ISO 32000-1 §14.10.5.4: the dictionary can
// then be deep-copied blindly; the dictionary itself may be shared). The
// objects under it are collected first; only if there are any is the file
// scanned for outside references (Acrobat's settings hold none).
func (r *reader) selfContained(d types.Dict, self webcapture.Ref, path string) {
	under := map[int]bool{}
	var collect func(o types.Object, depth int)
	collect = func(o types.Object, depth int) {
		if depth > maxObjectDepth || len(under) >= maxSettingsObjects {
			return
		}
		switch v := o.(type) {
		case types.IndirectRef:
			n := v.ObjectNumber.Value()
			if under[n] || n == self.Num {
				return
			}
			under[n] = true
			if e := r.entry(n); !e.none() && !e.free() {
				if ob, err := r.dec.load(e); err == nil {
					collect(ob, depth+1)
				}
			}
		case types.Dict:
			for _, k := range slices.Sorted(maps.Keys(v)) { // (in key order: which objects the bound leaves out is the same every read)
				collect(v[k], depth+1)
			}
		case types.Array:
			for _, e := range v {
				collect(e, depth+1)
			}
		case types.StreamDict:
			collect(v.Dict, depth+1)
		}
	}
	collect(d, 0)
	if len(under) == 0 {
		return
	}
	for _, n := range r.objectNumbers() { // (in order: the defects too)
		e := r.entry(n)
		if under[n] || n == self.Num || e.none() || e.free() || e.object() == nil {
			continue
		}
		ob, err := r.dec.load(e)
		if err != nil {
			continue
		}
		if m, found := refersInto(ob, under, 0); found {
			r.defect(webcapture.Ref{Num: n}, path, SharedSettings,
				"object %d refers to object %d, which is inside the command settings at %s: settings must be self-contained", n, m, path)
		}
	}
}

// refersInto finds, in o's direct contents, a reference to an object in set.
func refersInto(o types.Object, set map[int]bool, depth int) (int, bool) {
	if depth > maxObjectDepth {
		return 0, false
	}
	switch v := o.(type) {
	case types.IndirectRef:
		n := v.ObjectNumber.Value()
		return n, set[n]
	case types.Dict:
		for _, k := range slices.Sorted(maps.Keys(v)) { // (in key order: the defect names the same object every read)
			if n, ok := refersInto(v[k], set, depth+1); ok {
				return n, true
			}
		}
	case types.Array:
		for _, e := range v {
			if n, ok := refersInto(e, set, depth+1); ok {
				return n, true
			}
		}
	case types.StreamDict:
		return refersInto(v.Dict, set, depth+1)
	}
	return 0, false
}
