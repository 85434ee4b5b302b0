package pdfio

import (
	"bytes"
	"strconv"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// firstFree is the first object number an update may give a new object:
// above every number the file uses or has declared. pdfcpu's computed /Size
// is not enough: it can be one below the file's own trailer /Size, and its
// table leaves out cross-reference streams, so a new object once took the
// number of the file's last cross-reference stream (in a signed file). So
// the largest of: pdfcpu's size; every object of its table; the /Size of
// every cross-reference section reached from startxref through /Prev (and
// the number of each section that is a stream); every "N G obj" header in
// the bytes, whatever reaches it (a damaged file's objects included); and
// every number an object refers to, even one that does not exist (a
// dangling reference would otherwise come to name the new object).
//
// refs, when not nil, are the references lazyParse saw as it parsed the
// objects it counted: those are not loaded and walked again.
func firstFree(b []byte, dec *decoder, ctx *model.Context, startxref int64, refs *parsedRefs) int {
	n := 0
	if ctx.XRefTable.Size != nil {
		n = *ctx.XRefTable.Size
	}
	var counted objSet
	if refs != nil && len(refs.counted) > 0 {
		n = max(n, refs.max+1)
		counted = refs.counted
	}
	for num, e := range ctx.XRefTable.Table {
		n = max(n, num+1)
		if e != nil && !e.Free && !counted.has(num) {
			if o, err := dec.load(pent(e)); err == nil {
				n = max(n, referenced(o, 0)+1)
			}
		}
	}
	n = max(n, sectionsSize(b, startxref))
	return max(n, objectHeaders(b)+1)
}

// referenced returns the largest object number o refers to directly (0 if
// none), through its arrays and dictionaries.
func referenced(o types.Object, depth int) int {
	if depth > maxModelDepth {
		return 0
	}
	n := 0
	switch v := o.(type) {
	case types.IndirectRef:
		return v.ObjectNumber.Value()
	case types.Array:
		for _, e := range v {
			n = max(n, referenced(e, depth+1))
		}
	case types.Dict:
		for _, e := range v {
			n = max(n, referenced(e, depth+1))
		}
	case types.StreamDict:
		return referenced(v.Dict, depth+1)
	}
	return n
}

// maxSections bounds the /Prev chain sectionsSize follows.
const maxSections = 10000

// sectionsSize follows the cross-reference sections from off through
// their /Prev links (each once) and returns the largest /Size they
// declare, one above each section that is a stream object, and one above
// every number a trailer refers to.
func sectionsSize(b []byte, off int64) int {
	n := 0
	seen := map[int64]bool{}
	for i := 0; i < maxSections && off >= 0 && off < int64(len(b)) && !seen[off]; i++ {
		seen[off] = true
		d, num := sectionDict(b[off:])
		if d == nil {
			break
		}
		if num >= 0 {
			n = max(n, num+1)
		}
		if s, ok := d["Size"].(types.Integer); ok {
			n = max(n, int(s))
		}
		n = max(n, referenced(d, 0)+1) // a trailer's references count too
		prev, ok := d["Prev"].(types.Integer)
		if !ok {
			break
		}
		off = int64(prev)
	}
	return n
}

// sectionDict parses the trailer of the cross-reference section b starts
// with (after white space): a table's trailer dictionary, or a stream's
// dictionary and its object number (-1 for a table).
func sectionDict(b []byte) (types.Dict, int) {
	b = skipSpace(b)
	num := -1
	if bytes.HasPrefix(b, []byte("xref")) {
		i := bytes.Index(b, []byte("trailer"))
		if i < 0 {
			return nil, -1
		}
		b = skipSpace(b[i+len("trailer"):])
	} else {
		f := bytes.Fields(b[:min(len(b), 40)])
		if len(f) < 3 || !bytes.HasPrefix(f[2], []byte("obj")) {
			return nil, -1
		}
		var err error
		if num, err = strconv.Atoi(string(f[0])); err != nil {
			return nil, -1
		}
		i := bytes.Index(b, []byte("obj"))
		b = skipSpace(b[i+3:])
	}
	end := dictEnd(b)
	if end < 0 {
		return nil, -1
	}
	text := string(b[:end])
	o, err := parseObject(&text)
	d, ok := o.(types.Dict)
	if err != nil || !ok {
		return nil, -1
	}
	return d, num
}

// objectHeaders returns the largest N of the "N G obj" headers in b (0 if
// none): digits, white space, digits, white space, "obj", at the start of
// the file or after white space or a delimiter. Stream data that happens
// to hold such text can only make the number larger, which is safe.
func objectHeaders(b []byte) int {
	largest := 0
	for i := 0; ; {
		j := bytes.Index(b[i:], []byte("obj"))
		if j < 0 {
			return largest
		}
		at := i + j
		i = at + 3
		if num, ok := headerBefore(b, at); ok {
			largest = max(largest, num)
		}
	}
}

// headerBefore reads "N G " backwards from the "obj" at b[at:].
func headerBefore(b []byte, at int) (int, bool) {
	k := at
	field := func() (int, int, bool) { // a run of white space, then digits, read backwards
		end := k
		for end > 0 && isSpace(b[end-1]) {
			end--
		}
		if end == k {
			return 0, 0, false
		}
		start := end
		for start > 0 && b[start-1] >= '0' && b[start-1] <= '9' && end-start < 10 {
			start--
		}
		if start == end {
			return 0, 0, false
		}
		n, err := strconv.Atoi(string(b[start:end]))
		return n, start, err == nil
	}
	if _, s, ok := field(); ok { // the generation
		k = s
		if n, s, ok := field(); ok && (s == 0 || isSpace(b[s-1]) || bytes.IndexByte([]byte("()<>[]{}/%"), b[s-1]) >= 0) {
			return n, true
		}
	}
	return 0, false
}

func isSpace(c byte) bool {
	return c == 0 || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' '
}
