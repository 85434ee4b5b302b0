package pdfio

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// contentSet reads a content set dictionary once per object; a direct one is
// read where it stands.
func (r *reader) contentSet(d types.Dict, ref webcapture.Ref, path string) *ContentSet {
	if !ref.IsZero() {
		if cs := r.sets[ref]; cs != nil {
			return cs
		}
	}
	m := &webcapture.ContentSet{Ref: ref}
	cs := &ContentSet{ContentSet: m, Path: path}
	if !ref.IsZero() {
		r.sets[ref] = cs
	}
	r.doc.Sets = append(r.doc.Sets, cs)
	if t, ok := r.name(ref, d, "Type", path); ok {
		n := webcapture.Name(t)
		m.Type = &n
	}
	if s, ok := r.name(ref, d, "S", path); ok {
		m.Subtype = webcapture.Subtype(s)
	}
	m.ID = r.rawID(ref, d, "ID", path)
	r.objects(m, d, path)
	if v, ok := r.get(d, "SI", path); ok {
		switch si := v.(type) {
		case types.Dict:
			m.Sources = append(m.Sources, r.sourceInfo(si, refIn(d["SI"]), path+"/SI"))
		case types.Array:
			m.SourceArray = true
			eachOf(r, si, path+"/SI", WrongType, "a source information dictionary", func(sd types.Dict, ref webcapture.Ref, path string) {
				m.Sources = append(m.Sources, r.sourceInfo(sd, ref, path))
			})
		default:
			r.wrong(ref, path, "SI", v, "a dictionary or an array")
		}
	}
	if s, ok := r.str(ref, d, "CT", path); ok {
		m.ContentType = &s
	}
	m.Created = r.date(ref, d, "TS", path)
	if s, ok := r.str(ref, d, "T", path); ok {
		t := webcapture.Text(s)
		m.Title = &t
	}
	m.TextID = r.rawID(ref, d, "TID", path)
	r.refCounts(m, d, path)
	return cs
}

func refIn(o types.Object) webcapture.Ref {
	if ir, ok := o.(types.IndirectRef); ok {
		return refOf(ir)
	}
	return webcapture.Ref{}
}

// objects reads O: its elements must be indirect references, and are kept
// unresolved.
func (r *reader) objects(m *webcapture.ContentSet, d types.Dict, path string) {
	v, ok := r.get(d, "O", path)
	if !ok {
		return
	}
	a, isArr := v.(types.Array)
	if !isArr {
		r.wrong(m.Ref, path, "O", v, "an array")
		return
	}
	m.Objects = make([]webcapture.Ref, 0, len(a)) // present, even if empty
	for i, el := range a {
		ir, isRef := el.(types.IndirectRef)
		if !isRef {
			r.defect(m.Ref, fmt.Sprintf("%s/O[%d]", path, i), WrongType, "O[%d] is %s, want an indirect reference", i, typeName(el))
			continue
		}
		m.Objects = append(m.Objects, refOf(ir))
	}
}

// refCounts reads R: an integer, or an array of integers (Acrobat 5.0 and
// 8.0 write the elements as indirect integer objects).
func (r *reader) refCounts(m *webcapture.ContentSet, d types.Dict, path string) {
	v, ok := r.get(d, "R", path)
	if !ok {
		return
	}
	switch o := v.(type) {
	case types.Integer:
		m.RefCounts = []int64{int64(o)}
	case types.Array:
		m.RefArray = true
		m.RefCounts = []int64{}
		eachOf(r, o, path+"/R", WrongType, "an integer", func(n types.Integer, _ webcapture.Ref, _ string) {
			m.RefCounts = append(m.RefCounts, int64(n))
		})
	default:
		r.wrong(m.Ref, path, "R", v, "an integer or an array of integers")
	}
}

func (r *reader) sourceInfo(d types.Dict, ref webcapture.Ref, path string) *webcapture.SourceInfo {
	si := &webcapture.SourceInfo{Ref: ref}
	if v, ok := r.get(d, "AU", path); ok {
		switch o := v.(type) {
		case types.StringLiteral, types.HexLiteral:
			si.URLs.URL, _ = rawString(o)
		case types.Dict:
			si.URLs = r.alias(o, refIn(d["AU"]), path+"/AU")
		default:
			r.wrong(ref, path, "AU", v, "a string or a URL alias dictionary")
		}
	}
	si.Updated = r.date(ref, d, "TS", path)
	si.Expires = r.date(ref, d, "E", path)
	if n, ok := r.integer(ref, d, "S", path); ok {
		si.Submission = &n
	}
	if c, ok := d["C"]; ok {
		cref := refIn(c)
		si.Command = &cref
		if cref.IsZero() {
			r.defect(ref, path+"/C", WrongType, "C is %s, want an indirect reference to a command dictionary", typeName(c))
		} else if o, _, ok := r.resolve(c, path+"/C"); ok {
			if _, isDict := o.(types.Dict); !isDict {
				r.wrong(ref, path, "C", o, "a command dictionary")
			}
		}
	}
	return si
}

// alias reads a URL alias dictionary: U, and C as an array of arrays of
// strings (the strings are often indirect objects shared between chains).
func (r *reader) alias(d types.Dict, ref webcapture.Ref, path string) webcapture.AliasedURLs {
	a := webcapture.AliasedURLs{Ref: ref, Alias: true}
	a.URL, _ = r.str(ref, d, "U", path)
	v, ok := r.get(d, "C", path)
	if !ok {
		return a
	}
	chains, isArr := v.(types.Array)
	if !isArr {
		r.wrong(ref, path, "C", v, "an array of arrays of strings")
		return a
	}
	eachOf(r, chains, path+"/C", WrongType, "an array of strings", func(chain types.Array, _ webcapture.Ref, cpath string) {
		var urls []string
		for j, u := range chain {
			upath := fmt.Sprintf("%s[%d]", cpath, j)
			uo, uref, ok := r.resolve(u, upath)
			if !ok {
				continue
			}
			s, isStr := rawString(uo)
			if !isStr {
				r.defect(uref, upath, WrongType, "%s is %s, want a string", upath, typeName(uo))
				continue
			}
			urls = append(urls, s)
		}
		a.Chains = append(a.Chains, urls)
	})
	return a
}

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
	if n, ok := r.number(ref, d, "V", path); ok {
		info.Version = &n
	}
	v, ok := r.get(d, "C", path)
	if !ok {
		return info
	}
	a, isArr := v.(types.Array)
	if !isArr {
		r.wrong(ref, path, "C", v, "an array of command dictionaries")
		return info
	}
	eachOf(r, a, path+"/C", WrongType, "a command dictionary", func(cd types.Dict, cref webcapture.Ref, cpath string) {
		if cref.IsZero() {
			r.defect(ref, cpath, WrongType, "%s is a direct dictionary, want an indirect reference", cpath)
		}
		info.Commands = append(info.Commands, r.command(cd, cref, cpath))
	})
	return info
}

func (r *reader) command(d types.Dict, ref webcapture.Ref, path string) *webcapture.Command {
	c := &webcapture.Command{Ref: ref}
	c.URL, _ = r.str(ref, d, "URL", path)
	if n, ok := r.integer(ref, d, "L", path); ok {
		c.Levels = &n
	}
	if n, ok := r.integer(ref, d, "F", path); ok {
		if n < 0 || n > 1<<32-1 {
			r.defect(ref, path+"/F", BadValue, "F is %d, outside an unsigned 32-bit field", n)
		}
		f := webcapture.Flags(uint32(n))
		c.Flags = &f
	}
	if v, ok := r.get(d, "P", path); ok {
		switch o := v.(type) {
		case types.StringLiteral, types.HexLiteral:
			s, _ := rawString(o)
			b := []byte(s)
			c.PostData = &b
		case types.StreamDict:
			c.PostStream = true
			b, err := o.DecodeLengthWithLimit(-1, 64<<20)
			if err != nil {
				r.defect(ref, path+"/P", BadValue, "P is a stream that does not decode: %v", err)
				b = o.Raw
			}
			c.PostData = &b
		default:
			r.wrong(ref, path, "P", v, "a string or a stream")
		}
	}
	if s, ok := r.str(ref, d, "CT", path); ok {
		c.ContentType = &s
	}
	if s, ok := r.str(ref, d, "H", path); ok {
		c.Headers = &s
	}
	if v, ok := r.get(d, "S", path); ok {
		sd, isDict := v.(types.Dict)
		if !isDict {
			r.wrong(ref, path, "S", v, "a command settings dictionary")
		} else {
			c.Settings = r.settings(sd, refIn(d["S"]), path+"/S")
		}
	}
	return c
}

func (r *reader) settings(d types.Dict, ref webcapture.Ref, path string) *webcapture.Settings {
	s := &webcapture.Settings{Ref: ref}
	r.selfContained(d, ref, path)
	if v, ok := r.get(d, "G", path); ok {
		if g, isDict := v.(types.Dict); isDict {
			s.Global, _ = r.object(g, path+"/G").(webcapture.Dict)
		} else {
			r.wrong(ref, path, "G", v, "a dictionary")
		}
	}
	v, ok := r.get(d, "C", path)
	if !ok {
		return s
	}
	c, isDict := v.(types.Dict)
	if !isDict {
		r.wrong(ref, path, "C", v, "a dictionary keyed by engine names")
		return s
	}
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		e := webcapture.EngineSettings{Key: webcapture.Name(strings.Clone(k))}
		e.Engine, e.Err = webcapture.ParseEngineName(k)
		e.Settings = r.object(c[k], path+"/C/"+k)
		s.Engines = append(s.Engines, e)
	}
	return s
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
		for k, e := range v {
			out[webcapture.Name(strings.Clone(k))] = c.copy(e, path+"/"+k, depth+1)
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
			if e, ok := r.xt.FindTableEntry(n, v.GenerationNumber.Value()); ok && e != nil && !e.Free {
				if ob, err := load(e); err == nil {
					collect(ob, depth+1)
				}
			}
		case types.Dict:
			for _, e := range v {
				collect(e, depth+1)
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
	for n, e := range r.xt.Table {
		if under[n] || n == self.Num || e == nil || e.Free || e.Object == nil {
			continue
		}
		ob, err := load(e)
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
		for _, e := range v {
			if n, ok := refersInto(e, set, depth+1); ok {
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
