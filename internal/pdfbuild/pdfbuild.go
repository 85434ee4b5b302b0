// Package pdfbuild writes small PDF files from Go values, for tests: classic
// cross-reference tables or cross-reference streams with object streams,
// literal and hex strings with any bytes, name trees of any shape, and raw
// syntax for crafting damaged files. It writes; it never parses.
//
// Values: nil (null), bool, int, int64, float64, Name, Lit, Esc, Hex, Ref,
// Raw, Array, Dict, *Stream.
package pdfbuild

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
)

type (
	// Name is a name object, written with a slash and #xx escapes.
	Name string
	// Lit is a literal string: its bytes as they are, but for '(' ')' '\'
	// and CR, which are escaped (so NUL and high bytes appear raw, as
	// Acrobat writes binary identifiers).
	Lit string
	// Esc is a literal string with every byte outside printable ASCII
	// written as an octal escape.
	Esc string
	// Hex is a string written as hex digits.
	Hex string
	// Ref is a reference to object Ref (generation 0).
	Ref int
	// Raw is PDF syntax written as it is.
	Raw string
	// Array is an array object.
	Array []any
)

// A Dict is a dictionary, written in the order of its entries.
type Dict []Entry

// An Entry is one key and value of a Dict.
type Entry struct {
	Key   string
	Value any
}

// D builds a Dict from alternating keys and values.
func D(kv ...any) Dict {
	d := make(Dict, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		d = append(d, Entry{kv[i].(string), kv[i+1]})
	}
	return d
}

// Get returns the value of key, or nil.
func (d Dict) Get(key string) any {
	for _, e := range d {
		if e.Key == key {
			return e.Value
		}
	}
	return nil
}

// Set replaces or adds key.
func (d *Dict) Set(key string, v any) {
	for i, e := range *d {
		if e.Key == key {
			(*d)[i].Value = v
			return
		}
	}
	*d = append(*d, Entry{key, v})
}

// A Stream is a stream object. Length is filled in unless the dictionary
// already has one (to craft a wrong length).
type Stream struct {
	Dict Dict
	Data []byte
}

// objStmSize is how many objects an object stream holds at most.
const objStmSize = 100

// A Builder collects objects and writes a file.
type Builder struct {
	Version string // header version, "1.7" by default
	// XRefStream writes a cross-reference stream instead of a table;
	// ObjectStreams (which needs it) also packs every non-stream object
	// except the catalog into one object stream.
	XRefStream, ObjectStreams bool
	// ObjStmSize is how many objects an object stream holds at most
	// (objStmSize when 0); ObjStmSpread deals the objects to the streams
	// in turn, so that objects numbered one after another are in
	// different streams.
	ObjStmSize   int
	ObjStmSpread bool
	Root, Info   Ref
	ID           [2]string // the trailer's /ID, if ID[0] is set
	objs         []any
}

// New returns an empty Builder.
func New() *Builder { return &Builder{Version: "1.7"} }

// Add adds an object and returns its reference.
func (b *Builder) Add(v any) Ref {
	b.objs = append(b.objs, v)
	return Ref(len(b.objs))
}

// Reserve adds a placeholder (null) to Set later, for objects that refer to
// each other.
func (b *Builder) Reserve() Ref { return b.Add(nil) }

// Set replaces object r.
func (b *Builder) Set(r Ref, v any) { b.objs[r-1] = v }

// Get returns object r.
func (b *Builder) Get(r Ref) any { return b.objs[r-1] }

// Len returns the number of objects.
func (b *Builder) Len() int { return len(b.objs) }

// Bytes writes the file.
func (b *Builder) Bytes() []byte {
	var w bytes.Buffer
	fmt.Fprintf(&w, "%%PDF-%s\n%%\xE2\xE3\xCF\xD3\n", b.Version)
	n := len(b.objs)
	offsets := make([]int, n+1)
	inStream := make([]bool, n+1)
	var packed []int
	if b.XRefStream && b.ObjectStreams {
		for i, o := range b.objs {
			if _, isStream := o.(*Stream); !isStream && Ref(i+1) != b.Root {
				packed = append(packed, i+1)
				inStream[i+1] = true
			}
		}
	}
	for i, o := range b.objs {
		if inStream[i+1] {
			continue
		}
		offsets[i+1] = w.Len()
		fmt.Fprintf(&w, "%d 0 obj\n", i+1)
		writeValue(&w, o)
		w.WriteString("\nendobj\n")
	}
	// Object streams of at most objStmSize objects each, as writers do.
	var streams []int // object number of each object stream
	where := map[int][2]int{}
	size := objStmSize
	if b.ObjStmSize > 0 {
		size = b.ObjStmSize
	}
	parts := (len(packed) + size - 1) / size
	for start := 0; start < len(packed); start += size {
		part := packed[start:min(start+size, len(packed))]
		if b.ObjStmSpread {
			part = nil
			for i := len(streams); i < len(packed); i += parts {
				part = append(part, packed[i])
			}
		}
		num := n + 1 + len(streams)
		streams = append(streams, num)
		offsets = append(offsets, w.Len())
		var head, body bytes.Buffer
		for i, obj := range part {
			fmt.Fprintf(&head, "%d %d ", obj, body.Len())
			writeValue(&body, b.objs[obj-1])
			body.WriteByte('\n')
			where[obj] = [2]int{num, i}
		}
		fmt.Fprintf(&w, "%d 0 obj\n", num)
		writeValue(&w, &Stream{Dict: D("Type", Name("ObjStm"), "N", len(part), "First", head.Len()),
			Data: append(head.Bytes(), body.Bytes()...)})
		w.WriteString("\nendobj\n")
	}
	if b.XRefStream {
		b.writeXRefStream(&w, offsets, where)
	} else {
		b.writeXRefTable(&w, offsets)
	}
	return w.Bytes()
}

func (b *Builder) trailer(size int) Dict {
	t := D("Size", size)
	if b.Root != 0 {
		t = append(t, Entry{"Root", b.Root})
	}
	if b.Info != 0 {
		t = append(t, Entry{"Info", b.Info})
	}
	if b.ID[0] != "" {
		t = append(t, Entry{"ID", Array{Hex(b.ID[0]), Hex(b.ID[1])}})
	}
	return t
}

func (b *Builder) writeXRefTable(w *bytes.Buffer, offsets []int) {
	start := w.Len()
	fmt.Fprintf(w, "xref\n0 %d\n0000000000 65535 f \n", len(offsets))
	for _, off := range offsets[1:] {
		fmt.Fprintf(w, "%010d 00000 n \n", off)
	}
	w.WriteString("trailer\n")
	writeValue(w, b.trailer(len(offsets)))
	fmt.Fprintf(w, "\nstartxref\n%d\n%%%%EOF\n", start)
}

func (b *Builder) writeXRefStream(w *bytes.Buffer, offsets []int, where map[int][2]int) {
	self := len(offsets) // the xref stream's own number
	start := w.Len()
	var data bytes.Buffer
	entry := func(typ byte, f2 int, f3 int) {
		data.WriteByte(typ)
		data.Write([]byte{byte(f2 >> 24), byte(f2 >> 16), byte(f2 >> 8), byte(f2)})
		data.Write([]byte{byte(f3 >> 8), byte(f3)})
	}
	entry(0, 0, 65535)
	for num := 1; num < self; num++ {
		if at, ok := where[num]; ok {
			entry(2, at[0], at[1])
		} else {
			entry(1, offsets[num], 0)
		}
	}
	entry(1, start, 0)
	d := b.trailer(self + 1)
	d = append(D("Type", Name("XRef"), "W", Array{1, 4, 2}), d...)
	fmt.Fprintf(w, "%d 0 obj\n", self)
	writeValue(w, &Stream{Dict: d, Data: data.Bytes()})
	fmt.Fprintf(w, "\nendobj\nstartxref\n%d\n%%%%EOF\n", start)
}

func writeValue(w *bytes.Buffer, v any) {
	switch v := v.(type) {
	case nil:
		w.WriteString("null")
	case bool:
		w.WriteString(strconv.FormatBool(v))
	case int:
		w.WriteString(strconv.Itoa(v))
	case int64:
		w.WriteString(strconv.FormatInt(v, 10))
	case float64:
		w.WriteString(strconv.FormatFloat(v, 'f', -1, 64))
	case Name:
		writeName(w, string(v))
	case Lit:
		writeLit(w, string(v), false)
	case Esc:
		writeLit(w, string(v), true)
	case Hex:
		fmt.Fprintf(w, "<%X>", string(v))
	case Ref:
		fmt.Fprintf(w, "%d 0 R", int(v))
	case Raw:
		w.WriteString(string(v))
	case Array:
		w.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				w.WriteByte(' ')
			}
			writeValue(w, e)
		}
		w.WriteByte(']')
	case Dict:
		w.WriteString("<<")
		for _, e := range v {
			writeName(w, e.Key)
			w.WriteByte(' ')
			writeValue(w, e.Value)
		}
		w.WriteString(">>")
	case *Stream:
		d := v.Dict
		if d.Get("Length") == nil {
			d = append(append(Dict{}, d...), Entry{"Length", len(v.Data)})
		}
		writeValue(w, d)
		w.WriteString("\nstream\n")
		w.Write(v.Data)
		w.WriteString("\nendstream")
	default:
		panic(fmt.Sprintf("pdfbuild: cannot write %T", v))
	}
}

func writeName(w *bytes.Buffer, s string) {
	w.WriteByte('/')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7F || bytes.IndexByte([]byte("#()<>[]{}/%"), c) >= 0 {
			fmt.Fprintf(w, "#%02X", c)
			continue
		}
		w.WriteByte(c)
	}
}

func writeLit(w *bytes.Buffer, s string, octal bool) {
	w.WriteByte('(')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '(' || c == ')' || c == '\\':
			w.WriteByte('\\')
			w.WriteByte(c)
		case c == '\r':
			w.WriteString(`\r`)
		case octal && (c < ' ' || c >= 0x7F):
			fmt.Fprintf(w, "\\%03o", c)
		default:
			w.WriteByte(c)
		}
	}
	w.WriteByte(')')
}

// A KV is one name-tree entry: a key (bytes) and a value.
type KV struct {
	Key   string
	Value any
}

// NameTree adds a name tree holding entries (sorted by key bytes here) and
// returns its root. leaf is the number of entries per leaf and fan the number
// of kids per inner node; a tree that fits one leaf is a root with /Names.
// key wraps each key (Lit, Esc or Hex, or a func making an indirect string).
func (b *Builder) NameTree(entries []KV, leaf, fan int, key func(string) any) Ref {
	sorted := append([]KV(nil), entries...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Key < sorted[j].Key })
	if len(sorted) <= leaf {
		return b.Add(D("Names", namesArray(sorted, key)))
	}
	return b.tree(sorted, leaf, fan, func(e KV) (any, any) { return key(e.Key), e.Value }, nil)
}

// treeDamage is how a tree is spoilt (BigBroken): the leaf whose index
// modulo swapEvery is 6 has its entries 10 and 11 swapped (when it has more
// than 20), and the node whose count modulo limitsEvery is 5 has a /Limits
// high key one entry short.
type treeDamage struct{ swapEvery, limitsEvery int }

// tree adds the leaves and inner nodes of a name tree over sorted, a root
// with /Kids, and returns the root. entry gives an entry's key object and
// value, and is called in the order the objects are written (/Limits
// first): a key may be an object made on the call.
func (b *Builder) tree(sorted []KV, leaf, fan int, entry func(KV) (any, any), dmg *treeDamage) Ref {
	type node struct {
		ref    Ref
		lo, hi KV // the entries whose keys are its /Limits
	}
	keyOf := func(e KV) any { k, _ := entry(e); return k }
	nodes := 0
	limits := func(lo, hi, short KV) Array {
		nodes++
		if dmg != nil && nodes%dmg.limitsEvery == 5 {
			return Array{keyOf(lo), keyOf(short)}
		}
		return Array{keyOf(lo), keyOf(hi)}
	}
	var level []node
	for i := 0; i < len(sorted); i += leaf {
		part := sorted[i:min(i+leaf, len(sorted))]
		lo, hi, short := part[0], part[len(part)-1], part[max(len(part)-2, 0)]
		lim := limits(lo, hi, short)
		if dmg != nil && len(level)%dmg.swapEvery == 6 && len(part) > 20 {
			part = append([]KV(nil), part...)
			part[10], part[11] = part[11], part[10]
		}
		arr := make(Array, 0, 2*len(part))
		for _, e := range part {
			k, v := entry(e)
			arr = append(arr, k, v)
		}
		level = append(level, node{b.Add(D("Limits", lim, "Names", arr)), lo, hi})
	}
	for len(level) > fan {
		var up []node
		for i := 0; i < len(level); i += fan {
			part := level[i:min(i+fan, len(level))]
			kids := Array{}
			for _, n := range part {
				kids = append(kids, n.ref)
			}
			lo, hi, short := part[0].lo, part[len(part)-1].hi, part[max(len(part)-2, 0)].hi
			up = append(up, node{b.Add(D("Limits", limits(lo, hi, short), "Kids", kids)), lo, hi})
		}
		level = up
	}
	kids := Array{}
	for _, n := range level {
		kids = append(kids, n.ref)
	}
	return b.Add(D("Kids", kids))
}

func namesArray(entries []KV, key func(string) any) Array {
	a := make(Array, 0, 2*len(entries))
	for _, e := range entries {
		a = append(a, key(e.Key), e.Value)
	}
	return a
}

// HexKey, LitKey and EscKey are key wrappers for NameTree.
func HexKey(s string) any { return Hex(s) }

// LitKey writes keys as literal strings.
func LitKey(s string) any { return Lit(s) }

// EscKey writes keys as literal strings with octal escapes.
func EscKey(s string) any { return Esc(s) }

// PageTree adds a page tree of n pages (a flat /Pages node; each page has an
// empty content stream and a letter-size MediaBox) and returns the tree's
// root and the pages in order. page, if not nil, gives extra entries for
// page i (0-based).
func (b *Builder) PageTree(n int, page func(i int) Dict) (root Ref, pages []Ref) {
	root = b.Reserve()
	kids := make(Array, 0, n)
	content := b.Add(&Stream{Dict: D(), Data: nil})
	for i := range n {
		d := D("Type", Name("Page"), "Parent", root, "MediaBox", Array{0, 0, 612, 792}, "Contents", content)
		if page != nil {
			d = append(d, page(i)...)
		}
		r := b.Add(d)
		pages = append(pages, r)
		kids = append(kids, r)
	}
	b.Set(root, D("Type", Name("Pages"), "Kids", kids, "Count", n))
	return root, pages
}
