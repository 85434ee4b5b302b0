package pdfio

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// A treeEntry is one key and value for BuildNameTree.
type treeEntry struct {
	Key   string       // the key's bytes
	Value types.Object // a reference to a content set, or an array of them
	// KeyObject, if not nil, is written for the key instead of a new
	// string: a reference to an existing string object, as Acrobat shares
	// one object between an IDS key, its set's /ID and its pages' /ID.
	KeyObject types.Object
}

// TreeShape is the fan-out of a built name tree.
type TreeShape struct {
	Leaf int  // entries per leaf; 0 means 64
	Fan  int  // kids per intermediate node; 0 means 64
	Hex  bool // write keys (and /Limits) as hex strings (IDS); else literal strings (URLS)
}

// A builtTree is a name tree as objects to write: Nodes[0] is the root.
type builtTree struct {
	Nodes []types.Dict
}

// BuildNameTree builds a balanced name tree over entries, bottom-up from the
// keys sorted by bytes: leaves of at most Leaf entries, spread evenly;
// intermediate nodes of at most Fan kids; /Limits on every node but the
// root; a root that is the only leaf holds /Names itself. Duplicate keys are
// an error. alloc gives each new node its object number, children before
// parents; the root is allocated last and returned.
func buildNameTree(entries []treeEntry, shape TreeShape, alloc func(types.Dict) types.IndirectRef) (types.IndirectRef, error) {
	if shape.Leaf <= 0 {
		shape.Leaf = 64
	}
	if shape.Fan <= 1 {
		shape.Fan = 64
	}
	sorted := sortedEntries(entries)
	for i := 1; i < len(sorted); i++ {
		if sorted[i].Key == sorted[i-1].Key {
			return types.IndirectRef{}, fmt.Errorf("pdfio: name tree key %q appears twice", sorted[i].Key)
		}
	}
	key := func(k string) types.Object {
		if shape.Hex {
			return hexString(k)
		}
		return literalString(k)
	}
	names := func(part []treeEntry) types.Array {
		a := make(types.Array, 0, 2*len(part))
		for _, e := range part {
			k := e.KeyObject
			if k == nil {
				k = key(e.Key)
			}
			a = append(a, k, e.Value)
		}
		return a
	}
	if len(sorted) <= shape.Leaf {
		return alloc(types.Dict{"Names": names(sorted)}), nil
	}
	type node struct {
		ref    types.IndirectRef
		lo, hi string
	}
	var level []node
	for _, part := range split(len(sorted), shape.Leaf) {
		es := sorted[part[0]:part[1]]
		lo, hi := es[0].Key, es[len(es)-1].Key
		ref := alloc(types.Dict{"Limits": types.Array{key(lo), key(hi)}, "Names": names(es)})
		level = append(level, node{ref, lo, hi})
	}
	for len(level) > shape.Fan {
		var up []node
		for _, part := range split(len(level), shape.Fan) {
			ns := level[part[0]:part[1]]
			kids := make(types.Array, len(ns))
			for i, n := range ns {
				kids[i] = n.ref
			}
			lo, hi := ns[0].lo, ns[len(ns)-1].hi
			up = append(up, node{alloc(types.Dict{"Limits": types.Array{key(lo), key(hi)}, "Kids": kids}), lo, hi})
		}
		level = up
	}
	kids := make(types.Array, len(level))
	for i, n := range level {
		kids[i] = n.ref
	}
	return alloc(types.Dict{"Kids": kids}), nil
}

// sortedEntries returns a copy of entries sorted by key bytes (entries
// themselves when they are sorted already). The sort moves small
// records, each an index and its key's first 8 bytes as a big-endian
// number (zero-padded: an order consistent with the keys'),
// and compares the keys themselves only where those are equal: 100,000
// random 16-byte IDs are ordered without their bytes read again.
func sortedEntries(entries []treeEntry) []treeEntry {
	if slices.IsSortedFunc(entries, func(a, b treeEntry) int { return strings.Compare(a.Key, b.Key) }) {
		return entries // (already: SetNameTree sorts them for planTree; not changed by buildNameTree)
	}
	type rec struct {
		pre uint64
		i   int // (entries' index)
	}
	recs := make([]rec, len(entries))
	for i, e := range entries {
		var p [8]byte
		copy(p[:], e.Key)
		recs[i] = rec{binary.BigEndian.Uint64(p[:]), i}
	}
	slices.SortFunc(recs, func(a, b rec) int {
		if c := cmp.Compare(a.pre, b.pre); c != 0 {
			return c
		}
		return strings.Compare(entries[a.i].Key, entries[b.i].Key)
	})
	sorted := make([]treeEntry, len(entries))
	for j, r := range recs {
		sorted[j] = entries[r.i]
	}
	return sorted
}

// split divides n items into the fewest groups of at most size, as even as
// possible, returning [start, end) pairs.
func split(n, size int) [][2]int {
	groups := (n + size - 1) / size
	out := make([][2]int, 0, groups)
	start := 0
	for g := range groups {
		end := start + n/groups
		if g < n%groups {
			end++
		}
		out = append(out, [2]int{start, end})
		start = end
	}
	return out
}

// objectWriter collects new objects with numbers from next on, serialized.
type objectWriter struct {
	next int
	buf  objectBuf
	offs []objOffset
	data []attachedData // the attachments' bytes, read when written (attach.go)
	err  error
}

type objOffset struct {
	num, gen int
	off      int // offset in buf
	// val is the value written (a types.Object, or an editedObject), for
	// Result to take instead of parsing the bytes back (update_kept.go);
	// nil where a read of the bytes might not give it back (readBack).
	val any
}

func (w *objectWriter) add(o types.Object) types.IndirectRef {
	num := w.reserve()
	w.put(num, o)
	return *types.NewIndirectRef(num, 0)
}

// reserve takes the next object number, for an object put later.
func (w *objectWriter) reserve() int {
	w.next++
	return w.next - 1
}

// put writes object num (generation 0).
func (w *objectWriter) put(num int, o types.Object) { w.putGen(num, 0, o) }

// putGen writes object num of generation gen.
func (w *objectWriter) putGen(num, gen int, o types.Object) {
	at := w.buf.Len()
	b := w.buf.begin()
	appendRef(b, num, gen, " obj\n")
	var x readBack
	if err := appendValue(b, o, &x, 0); err != nil && w.err == nil {
		w.err = err
	}
	w.offs = append(w.offs, objOffset{num: num, gen: gen, off: at, val: keep(o, x)})
	b.WriteString("\nendobj\n")
	w.buf.end()
}

// putEdited writes object num of generation gen, a dictionary or a
// stream, with e made (appendEdited).
func (w *objectWriter) putEdited(num, gen int, o types.Object, e edit) {
	at := w.buf.Len()
	b := w.buf.begin()
	appendRef(b, num, gen, " obj\n")
	var x readBack
	if err := appendEditedTo(b, o, e, &x); err != nil && w.err == nil {
		w.err = err
	}
	w.offs = append(w.offs, objOffset{num: num, gen: gen, off: at, val: keep(editedObject{o, e}, x)})
	b.WriteString("\nendobj\n")
	w.buf.end()
}
