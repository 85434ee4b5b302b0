package pdfio

import (
	"bytes"
	"slices"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// Content sets written in their tables' order: the dictionary writeKeys
// makes of a content set (and the source information and URL alias
// dictionaries within) is serialized in the order of its table's key
// names, sorted once per table, instead of its map walked and its keys
// sorted once per object (appendDictTo): the same bytes, for the 100,000
// sets a build writes. A content set AddContentSet writes is not made a
// dictionary at all: its keys' values are written in that order straight
// from its table (appendKeyed), and the dictionary is made only if
// something asks for it (setPlan.dict): Result's reader takes the set
// from its model (result_model.go).

// A dictShape is the order a table's dictionary is written in: the
// table's key names, sorted (appendDict's order), and the shapes of the
// dictionaries its keys hold (directly, or as the elements of an array).
type dictShape struct {
	names []string
	order []int // order[i]: the index in the table of names[i]
	sub   map[string]*dictShape
}

// shapeOf is table's shape, sub the shapes of the dictionaries its keys
// hold.
func shapeOf[M any](table []key[M], sub map[string]*dictShape) *dictShape {
	s := &dictShape{names: make([]string, len(table)), order: make([]int, len(table)), sub: sub}
	for i := range table {
		s.order[i] = i
	}
	slices.SortFunc(s.order, func(a, b int) int { return strings.Compare(table[a].name, table[b].name) })
	for i, t := range s.order {
		s.names[i] = table[t].name
	}
	return s
}

// The shapes of the dictionaries written in their tables' order.
var (
	aliasShape      = shapeOf(aliasKeys, nil)
	sourceInfoShape = shapeOf(sourceInfoKeys, map[string]*dictShape{"AU": aliasShape})
	contentSetShape = shapeOf(contentSetKeys, map[string]*dictShape{"SI": sourceInfoShape})
)

// appendShaped writes d, a dictionary writeKeys made by s's table, at
// nesting depth depth, what a read of the bytes gives back told to x:
// the bytes appendValue writes for d. A dictionary with a key outside
// the table (none is made) is written by appendDictTo.
func appendShaped(b *bytes.Buffer, d types.Dict, s *dictShape, x *readBack, depth int) error {
	if x != nil && depth > fastMaxDepth {
		x.inexact = true
	}
	if d == nil {
		x.unsure()
	}
	start, n := b.Len(), 0
	var was readBack
	if x != nil {
		was = *x
	}
	b.WriteString("<<")
	for _, k := range s.names {
		v, ok := d[k]
		if !ok {
			continue
		}
		n++
		appendNameTo(b, k, x)
		b.WriteByte(' ')
		if err := appendShapedValue(b, v, s.sub[k], x, depth+1); err != nil {
			return err
		}
	}
	b.WriteString(">>")
	if n != len(d) {
		b.Truncate(start)
		if x != nil {
			*x = was
		}
		return appendDictTo(b, d, x, depth)
	}
	return nil
}

// appendShapedValue writes v at depth depth: a dictionary of shape s
// (or an array of them) in its order, anything else as appendValue does.
func appendShapedValue(b *bytes.Buffer, v types.Object, s *dictShape, x *readBack, depth int) error {
	if s == nil {
		return appendValue(b, v, x, depth)
	}
	switch v := v.(type) {
	case types.Dict:
		return appendShaped(b, v, s, x, depth)
	case types.Array:
		if x != nil && (depth > fastMaxDepth || v == nil) {
			x.inexact = true
		}
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(' ')
			}
			if err := appendShapedValue(b, e, s, x, depth+1); err != nil {
				return err
			}
		}
		b.WriteByte(']')
		return nil
	}
	return appendValue(b, v, x, depth)
}

// putShaped writes object num of generation gen, d, a dictionary of shape
// s (putGen's bytes and kept value).
func (w *objectWriter) putShaped(num, gen int, d types.Dict, s *dictShape) {
	at := w.buf.Len()
	b := w.buf.begin()
	appendRef(b, num, gen, " obj\n")
	var x readBack
	if err := appendShaped(b, d, s, &x, 0); err != nil && w.err == nil {
		w.err = err
	}
	w.offs = append(w.offs, objOffset{num: num, gen: gen, off: at, val: keep(d, x)})
	b.WriteString("\nendobj\n")
	w.buf.end()
}

// appendKeyed writes, at nesting depth depth, the dictionary of s's
// table whose values are vals (by the table's index; nil: absent), what
// a read of the bytes gives back told to x: the bytes appendShaped writes
// for the dictionary writeKeys makes of them.
func appendKeyed(b *bytes.Buffer, vals []types.Object, s *dictShape, x *readBack, depth int) error {
	if x != nil && depth > fastMaxDepth {
		x.inexact = true
	}
	b.WriteString("<<")
	for i, k := range s.names {
		v := vals[s.order[i]]
		if v == nil {
			continue
		}
		appendNameTo(b, k, x)
		b.WriteByte(' ')
		if err := appendShapedValue(b, v, s.sub[k], x, depth+1); err != nil {
			return err
		}
	}
	b.WriteString(">>")
	return nil
}

// putSet writes object num (generation 0), the content set p, its keys'
// values vals (appendKeyed); the value kept is p (keptValue makes its
// dictionary).
func (w *objectWriter) putSet(num int, vals []types.Object, p *setPlan) {
	at := w.buf.Len()
	b := w.buf.begin()
	appendRef(b, num, 0, " obj\n")
	var x readBack
	if err := appendKeyed(b, vals, contentSetShape, &x, 0); err != nil && w.err == nil {
		w.err = err
	}
	w.offs = append(w.offs, objOffset{num: num, off: at, val: keep(p, x)})
	b.WriteString("\nendobj\n")
	w.buf.end()
}
