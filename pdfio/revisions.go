package pdfio

import (
	"bytes"
	"iter"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// A Revision is one of the file's incremental sections (ISO 32000-1
// §7.5.6): the original file, then each update appended to it.
type Revision struct {
	// Start is where its bytes begin (the end of the revision before, 0
	// for the first), End just past its %%EOF and the end-of-line marker
	// after it, if any (a signature's /ByteRange ends either there or
	// before the marker).
	Start, End int64
	XRef       int64 // the offset of its cross-reference section; -1 when its "startxref" points at none (a broken /Prev chain)
	// Objects are the objects whose current definition the revision
	// holds (by the cross-reference data: an object in an object stream
	// is where its stream is), by number: what it added or changed and
	// no later revision changed again.
	Objects []webcapture.Ref
	// Roles says what each of Objects is, for a revision after the first
	// (parallel to Objects; nil for the first): "page 3", "content stream
	// of page 3", "content set", "image", "signature", "signature field",
	// "DSS", "catalog", "AcroForm", "info", "metadata", "page tree",
	// "annotation", "cross-reference stream", "object stream", "object";
	// one of these prefixed with "unreferenced " when nothing reachable
	// from the trailer refers to it (it changes nothing a reader shows).
	Roles []string
	// Fields are the form fields the catalog's /AcroForm /Fields lists
	// (the indirect ones) at the revision's end, read as the revision left
	// them (through the definitions it and the revisions before it wrote);
	// FieldsRead is false when they could not be read so (a catalog or
	// AcroForm of that time in an object stream, or a file with more than
	// maxFieldHistory revisions), or the file has one revision.
	Fields     []webcapture.Ref
	FieldsRead bool
}

// maxFieldHistory bounds the revisions whose /AcroForm /Fields are read
// as they were.
const maxFieldHistory = 64

// readFieldHistory reads each revision's Fields, when there are updates.
func (r *reader) readFieldHistory(cat types.Dict) {
	if len(r.doc.Revisions) < 2 || len(r.doc.Revisions) > maxFieldHistory || r.b == nil || r.xt.Root == nil {
		return
	}
	for i := range r.doc.Revisions {
		r.checkStop()
		rv := &r.doc.Revisions[i]
		c, ok := r.asOf(*r.xt.Root, rv.End)
		if i == len(r.doc.Revisions)-1 {
			c, ok = cat, true
		}
		cd, isDict := c.(types.Dict)
		if !ok || !isDict {
			continue
		}
		rv.FieldsRead = true
		af, ok := r.asOf(cd["AcroForm"], rv.End)
		afd, isDict := af.(types.Dict)
		if !ok || !isDict {
			rv.FieldsRead = ok && af == nil // no AcroForm then: no fields
			continue
		}
		fs, ok := r.asOf(afd["Fields"], rv.End)
		a, isArray := fs.(types.Array)
		if !ok || fs != nil && !isArray {
			rv.FieldsRead = ok
			continue
		}
		for _, f := range a {
			if ir, ok := f.(types.IndirectRef); ok && len(rv.Fields) < maxFields {
				rv.Fields = append(rv.Fields, refOf(ir))
			}
		}
	}
}

// asOf is o as the file stood at byte end: a direct object itself; a
// reference, the object's current definition when it lies before end,
// else the last definition before end ("N G obj", not a stream), found in
// the bytes. ok is false when no definition is found (a reference to
// nothing gives nil and ok).
func (r *reader) asOf(o types.Object, end int64) (types.Object, bool) {
	ir, isRef := o.(types.IndirectRef)
	if !isRef {
		return o, true
	}
	num, gen := ir.ObjectNumber.Value(), ir.GenerationNumber.Value()
	if e := r.entry(num); !e.none() && !e.free() && e.object() != nil {
		off := entOffset(e)
		if stm, ok := e.stream(); off < 0 && ok {
			if se := r.entry(stm); !se.none() {
				off = entOffset(se)
			}
		}
		if off >= 0 && off < end {
			v, err := r.dec.load(e)
			return v, err == nil
		}
	}
	if r.headers == nil {
		r.headers = map[int][]int64{}
	}
	cands, ok := r.headers[num]
	if !ok {
		cands = objHeaders(r.b, num)
		r.headers[num] = cands
	}
	var before []int64
	for i := len(cands) - 1; i >= 0; i-- {
		if cands[i] < end {
			before = append(before, cands[i])
		}
	}
	if len(before) == 0 {
		return nil, false // or in an object stream: not known
	}
	budget := int64(maxHistoryParse)
	v, _, found := r.parseAt(before, num, gen, &budget)
	return v, found
}

// maxHistoryParse bounds the bytes parsed for one earlier definition.
const maxHistoryParse = 4 << 20

// readRevisions lists the revisions: the cross-reference sections of the
// /Prev chain (eachSection: bounded, each section once), in file order,
// each ending at the first %%EOF after its section; when the chain breaks
// (a /Prev that points at no section), the sections "startxref N %%EOF"
// markers point to as well.
func (r *reader) readRevisions() {
	if r.b == nil {
		return
	}
	b := r.b
	type sec struct{ off, end int64 }
	var secs []sec
	at := map[int64]bool{}
	add := func(off int64) {
		end := int64(len(b))
		if i := bytes.Index(b[off:], []byte("%%EOF")); i >= 0 {
			end = off + int64(i) + 5
			if end < int64(len(b)) && b[end] == '\r' {
				end++
			}
			if end < int64(len(b)) && b[end] == '\n' {
				end++
			}
		}
		at[off] = true
		secs = append(secs, sec{off, end})
	}
	broken := false
	eachSection(b, func(off int64, d types.Dict, _ int) bool {
		if t, _ := d["Type"].(types.Name); t != "XRef" && !bytes.HasPrefix(skipSpace(b[off:]), []byte("xref")) {
			broken = true // an object that is no section (a /Prev of 0 reaches the file's first object)
			return false
		}
		add(off)
		_, broken = d["Prev"].(types.Integer)
		return true
	})
	if broken {
		// The /Prev chain ends at no section (or loops): the sections
		// the file's "startxref N %%EOF" markers point to are the
		// revisions' too.
		ends := map[int64]bool{}
		for _, s := range secs {
			ends[s.end] = true
		}
		for _, m := range startXRefs(b) {
			if len(secs) >= maxSections {
				break
			}
			if d, _ := sectionDict(b[m.off:]); d != nil && !at[m.off] {
				add(m.off)
				ends[secs[len(secs)-1].end] = true
			}
			if !ends[m.end] { // a marker whose section is not where it says: the revision ends there all the same
				ends[m.end] = true
				secs = append(secs, sec{-1, m.end})
			}
		}
	}
	slices.SortFunc(secs, func(x, y sec) int { return int(x.end - y.end) })
	start := int64(0)
	for _, s := range secs {
		if n := len(r.doc.Revisions); n > 0 && r.doc.Revisions[n-1].End == s.end {
			continue // two sections before one %%EOF (a linearized file's first page)
		}
		r.doc.Revisions = append(r.doc.Revisions, Revision{Start: start, End: s.end, XRef: s.off})
		start = s.end
	}
	if len(r.doc.Revisions) == 0 {
		return
	}
	nums := r.objectNumbers()
	in := make([]int32, r.numberCount()) // each object's revision, -1 for none
	counts := make([]int, len(r.doc.Revisions))
	for k, num := range nums {
		in[k] = -1
		e := r.entry(num)
		if e.none() || e.free() {
			continue
		}
		if _, ok := e.object().(types.XRefStreamDict); ok {
			continue // bookkeeping, which an update's Result does not list either
		}
		off := entOffset(e)
		if stm, ok := e.stream(); off < 0 && ok { // in an object stream: where the stream is
			if se := r.entry(stm); !se.none() {
				off = entOffset(se)
			}
		}
		if off < 0 {
			continue
		}
		i, _ := slices.BinarySearchFunc(r.doc.Revisions, off, func(rv Revision, o int64) int {
			switch {
			case rv.End <= o:
				return -1
			case rv.Start > o:
				return 1
			}
			return 0
		})
		if i < len(r.doc.Revisions) {
			in[k] = int32(i)
			counts[i]++
		}
	}
	for i, n := range counts {
		r.doc.Revisions[i].Objects = make([]webcapture.Ref, 0, n)
	}
	for k, num := range nums {
		if i := in[k]; i >= 0 {
			r.doc.Revisions[i].Objects = append(r.doc.Revisions[i].Objects, webcapture.Ref{Num: num, Gen: r.entry(num).gen()})
		}
	}
}

// A marker is a "startxref N %%EOF": N, and the end of the %%EOF with the
// end-of-line marker after it.
type marker struct{ off, end int64 }

// startXRefs lists the file's "startxref N %%EOF" markers with N within
// the file, in file order.
func startXRefs(b []byte) []marker {
	var out []marker
	for i := 0; i < len(b); {
		j := bytes.Index(b[i:], []byte("startxref"))
		if j < 0 {
			break
		}
		k := i + j + len("startxref")
		i = k
		for k < len(b) && isSpace(b[k]) {
			k++
		}
		n, d := int64(0), k
		for d < len(b) && isDigit(b[d]) && d-k < 12 {
			n = n*10 + int64(b[d]-'0')
			d++
		}
		if d == k || n >= int64(len(b)) {
			continue
		}
		for d < len(b) && isSpace(b[d]) {
			d++
		}
		if !bytes.HasPrefix(b[d:], []byte("%%EOF")) {
			continue
		}
		end := int64(d) + 5
		if end < int64(len(b)) && b[end] == '\r' {
			end++
		}
		if end < int64(len(b)) && b[end] == '\n' {
			end++
		}
		out = append(out, marker{n, end})
	}
	return out
}

// A DocumentDSS is the catalog's /DSS as read (ISO 32000-2 §12.8.4.3,
// Table 261): the validation data added for long-term validation, each
// stream's decoded bytes (DSS, what AddDSS writes: DER certificates, OCSP
// responses and CRLs), and where it is.
type DocumentDSS struct {
	DSS
	Ref        webcapture.Ref   // the /DSS dictionary; zero if direct
	Objects    []webcapture.Ref // every object reached under /DSS (its arrays, streams, /VRI)
	Unreadable int              // streams listed that could not be decoded
}

// maxDSSEntries bounds each of the /DSS arrays read.
const maxDSSEntries = 4096

// readDSS reads the catalog's /DSS.
func (r *reader) readDSS(cat types.Dict) {
	o, ref, _ := r.resolve(cat["DSS"], "DSS")
	d, ok := o.(types.Dict)
	if !ok {
		return
	}
	dss := &DocumentDSS{Ref: ref}
	r.dssObjects(d, dss, 0, map[webcapture.Ref]bool{})
	slices.SortFunc(dss.Objects, func(x, y webcapture.Ref) int { return x.Num - y.Num }) // (read from dictionaries: in no order)
	for _, k := range []struct {
		key string
		to  *[][]byte
	}{{"Certs", &dss.Certs}, {"OCSPs", &dss.OCSPs}, {"CRLs", &dss.CRLs}} {
		a, _ := r.resolveArray(d[k.key], "DSS/"+k.key)
		for i, e := range a {
			if i >= maxDSSEntries {
				break
			}
			v, sref, _ := r.resolve(e, "DSS/"+k.key)
			sd, ok := v.(types.StreamDict)
			if !ok {
				dss.Unreadable++
				continue
			}
			data, err := r.dec.stream(sref.Num, &sd)
			if err != nil {
				dss.Unreadable++
				continue
			}
			*k.to = append(*k.to, bytes.Clone(data))
		}
	}
	r.doc.DSS = dss
}

// maxRoleObjects bounds the objects of the later revisions whose role is
// read.
const maxRoleObjects = 1 << 16

// readRoles says what each object of the revisions after the first is
// (Revision.Roles), once the pages, sets, seals and /DSS are read: only in
// a file with a seal, what the roles are for (a capture appended to many
// times has many objects in its later revisions).
func (r *reader) readRoles(cat types.Dict) {
	if len(r.doc.Revisions) < 2 || len(r.doc.Seals) == 0 {
		return
	}
	known := map[webcapture.Ref]string{}
	if r.xt.Root != nil {
		known[refOf(*r.xt.Root)] = "catalog"
	}
	if r.xt.Info != nil {
		known[refOf(*r.xt.Info)] = "info"
	}
	for _, key := range []string{"AcroForm", "Pages", "Metadata"} {
		if ir, ok := cat[key].(types.IndirectRef); ok {
			known[refOf(ir)] = map[string]string{"AcroForm": "AcroForm", "Pages": "page tree", "Metadata": "metadata"}[key]
		}
	}
	for _, s := range r.doc.Seals {
		known[s.Ref] = "signature"
	}
	if r.doc.DSS != nil {
		known[r.doc.DSS.Ref] = "DSS"
		for _, o := range r.doc.DSS.Objects {
			known[o] = "DSS"
		}
	}
	for _, cs := range r.doc.Sets {
		known[cs.Ref] = "content set"
	}
	for _, im := range r.doc.Images {
		known[im.Ref] = "image"
	}
	for _, p := range r.doc.Pages {
		known[p.Ref] = "page " + strconv.Itoa(p.Number)
	}
	n := 0
	cands := map[webcapture.Ref]bool{} // what may be referred to by nothing
	for i := 1; i < len(r.doc.Revisions); i++ {
		rv := &r.doc.Revisions[i]
		rv.Roles = make([]string, len(rv.Objects))
		for j, ref := range rv.Objects {
			if role, ok := known[ref]; ok {
				rv.Roles[j] = role
				continue
			}
			rv.Roles[j] = "object"
			if n++; n > maxRoleObjects {
				continue
			}
			r.checkStop()
			rv.Roles[j] = r.role(ref)
			switch role := rv.Roles[j]; {
			case role == "cross-reference stream", role == "object stream", strings.HasPrefix(role, "content stream of page "):
			default:
				cands[ref] = true
			}
		}
	}
	if len(cands) == 0 {
		return
	}
	reached := r.reachable(cands)
	if reached == nil {
		return // the walk was cut short: each may be referred to
	}
	for i := 1; i < len(r.doc.Revisions); i++ {
		rv := &r.doc.Revisions[i]
		for j, ref := range rv.Objects {
			if cands[ref] && !reached[ref] {
				rv.Roles[j] = "unreferenced " + rv.Roles[j]
			}
		}
	}
}

// maxReach bounds the objects reachable walks.
const maxReach = 1 << 20

// reachable walks the objects reachable from the trailer (/Root, /Info,
// /Encrypt) and says which of cands it reached; it stops once it reached
// them all. It records no defect (the other walks do); nil when it went
// past maxReach objects, and could not tell.
func (r *reader) reachable(cands map[webcapture.Ref]bool) map[webcapture.Ref]bool {
	reached := map[webcapture.Ref]bool{}
	seen := map[int]bool{}
	var stack []types.Object
	for _, ir := range []*types.IndirectRef{r.xt.Root, r.xt.Info, r.xt.Encrypt} {
		if ir != nil {
			stack = append(stack, *ir)
		}
	}
	found := 0
	for len(stack) > 0 {
		o := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch v := o.(type) {
		case types.IndirectRef:
			num := v.ObjectNumber.Value()
			if seen[num] {
				continue
			}
			seen[num] = true
			if len(seen) > maxReach {
				return nil
			}
			if len(seen)%256 == 0 {
				r.checkStop()
			}
			if ref := refOf(v); cands[ref] && !reached[ref] {
				reached[ref] = true
				if found++; found == len(cands) {
					return reached
				}
			}
			e := r.entry(num)
			if e.none() || e.free() || e.object() == nil {
				if ob, ok := r.recovered[num]; ok {
					stack = append(stack, ob)
				}
				continue
			}
			if ob, err := r.dec.load(e); err == nil {
				stack = append(stack, ob)
			}
		case types.Dict:
			stack = appendContainers(stack, maps.Values(v))
		case types.StreamDict:
			stack = appendContainers(stack, maps.Values(v.Dict))
		case types.Array:
			stack = appendContainers(stack, slices.Values(v))
		}
	}
	return reached
}

// appendContainers appends to stack what may hold or be a reference.
func appendContainers(stack []types.Object, objs iter.Seq[types.Object]) []types.Object {
	for o := range objs {
		switch o.(type) {
		case types.IndirectRef, types.Dict, types.StreamDict, types.Array:
			stack = append(stack, o)
		}
	}
	return stack
}

// contentsOf maps each page's content streams to the page's number, read
// once when a later revision holds an object the other roles do not name.
func (r *reader) contentsOf() map[webcapture.Ref]int {
	if r.pageContents != nil {
		return r.pageContents
	}
	r.pageContents = map[webcapture.Ref]int{}
	for _, p := range r.doc.Pages {
		o, _, _ := r.resolve(types.IndirectRef{ObjectNumber: types.Integer(p.Ref.Num), GenerationNumber: types.Integer(p.Ref.Gen)}, "Pages")
		d, ok := o.(types.Dict)
		if !ok {
			continue
		}
		switch c := d["Contents"].(type) {
		case types.IndirectRef:
			r.pageContents[refOf(c)] = p.Number
			if a, _, _ := r.resolve(c, "Contents"); a != nil {
				if arr, ok := a.(types.Array); ok {
					for _, e := range arr {
						if ir, ok := e.(types.IndirectRef); ok {
							r.pageContents[refOf(ir)] = p.Number
						}
					}
				}
			}
		case types.Array:
			for _, e := range c {
				if ir, ok := e.(types.IndirectRef); ok {
					r.pageContents[refOf(ir)] = p.Number
				}
			}
		}
	}
	return r.pageContents
}

// role says what an object the other roles do not name is, by its /Type
// and the keys that tell.
func (r *reader) role(ref webcapture.Ref) string {
	if p, ok := r.contentsOf()[ref]; ok {
		return "content stream of page " + strconv.Itoa(p)
	}
	e := r.entry(ref.Num)
	if e.none() {
		return "object"
	}
	switch e.object().(type) {
	case types.XRefStreamDict:
		return "cross-reference stream"
	case types.ObjectStreamDict:
		return "object stream"
	}
	o, _, _ := r.resolve(types.IndirectRef{ObjectNumber: types.Integer(ref.Num), GenerationNumber: types.Integer(ref.Gen)}, "")
	var d types.Dict
	switch v := o.(type) {
	case types.Dict:
		d = v
	case types.StreamDict:
		d = v.Dict
	default:
		return "object"
	}
	typ, _ := d["Type"].(types.Name)
	sub, _ := d["Subtype"].(types.Name)
	ft, _ := d["FT"].(types.Name)
	switch {
	case typ == "XRef":
		return "cross-reference stream"
	case typ == "ObjStm":
		return "object stream"
	case typ == "Sig" || typ == "DocTimeStamp":
		return "signature"
	case ft == "Sig":
		return "signature field"
	case typ == "VRI":
		return "DSS"
	case typ == "Metadata":
		return "metadata"
	case typ == "Pages":
		return "page tree"
	case ft != "" || d["Kids"] != nil && d["T"] != nil:
		return "form field"
	case typ == "Annot" || sub == "Widget" || sub == "Link":
		return "annotation"
	case sub == "Form":
		return "form XObject"
	case sub == "Image":
		return "image"
	}
	return "object"
}

// dssObjects lists the objects reached under /DSS (its arrays, /VRI and
// its dictionaries, the streams), within bounds.
func (r *reader) dssObjects(o types.Object, dss *DocumentDSS, depth int, seen map[webcapture.Ref]bool) {
	if depth > 8 || len(seen) > 4*maxDSSEntries {
		return
	}
	var kids []types.Object
	switch v := o.(type) {
	case types.Dict:
		for _, e := range v {
			kids = append(kids, e)
		}
	case types.Array:
		kids = v
	}
	for _, k := range kids {
		ir, ok := k.(types.IndirectRef)
		if !ok {
			r.dssObjects(k, dss, depth+1, seen)
			continue
		}
		ref := refOf(ir)
		if seen[ref] {
			continue
		}
		seen[ref] = true
		dss.Objects = append(dss.Objects, ref)
		if v, _, _ := r.resolve(ir, "DSS"); v != nil {
			if _, isStream := v.(types.StreamDict); !isStream {
				r.dssObjects(v, dss, depth+1, seen)
			}
		}
	}
}
