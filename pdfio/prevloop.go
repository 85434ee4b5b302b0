package pdfio

import (
	"bytes"
	"regexp"
	"strconv"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// A file's cross-reference sections chain through /Prev; a chain that
// leads back to a section already read (an update whose /Prev is its own
// offset, two sections that point at each other) makes pdfcpu refuse the
// file, or read it without a word. qpdf reads such a file ("loop detected
// following xref tables", then it reconstructs the table); so does the
// reader: pdfcpu is given the bytes with the /Prev that closes the loop
// blanked out (every offset unchanged), which reads each section once,
// newest first, as a reader that stops at the loop does, and the loop is
// damage (badSection says it). An update is refused: its section would
// chain into the loop again.

// A prevLoop is a /Prev that leads back to a section already read.
type prevLoop struct {
	section int64  // the offset of the section whose /Prev closes the loop
	prev    int64  // where its /Prev leads: a section already read
	span    [2]int // where in the file "/Prev N" is written
}

// eachSection calls f with each cross-reference section of b's /Prev
// chain, from startxref, newest first: its offset, its dictionary and its
// object number (-1 for a table). It stops when f says so, when the chain
// ends or a section cannot be read (other damage), or before a section
// already visited; loopAt is then the section whose /Prev leads back to
// it, and prev that /Prev (loopAt is -1 when there is no loop).
func eachSection(b []byte, f func(off int64, d types.Dict, num int) bool) (loopAt, prev int64) {
	off, err := lastStartXRef(b)
	if err != nil {
		return -1, 0
	}
	seen := map[int64]bool{}
	for range maxSections {
		seen[off] = true
		if off < 0 || off >= int64(len(b)) {
			return -1, 0
		}
		d, num := sectionDict(b[off:])
		if d == nil || !f(off, d, num) {
			return -1, 0
		}
		p, isInt := d["Prev"].(types.Integer)
		if !isInt {
			return -1, 0
		}
		if seen[int64(p)] {
			return off, int64(p)
		}
		off = int64(p)
	}
	return -1, 0
}

// findPrevLoop follows the sections from startxref; ok is false when the
// chain ends (or startxref or a section cannot be read: other damage).
func findPrevLoop(b []byte) (l prevLoop, ok bool) {
	at, prev := eachSection(b, func(int64, types.Dict, int) bool { return true })
	if at < 0 {
		return l, false
	}
	span, found := prevSpan(b, at, prev)
	return prevLoop{section: at, prev: prev, span: span}, found
}

var prevEntry = regexp.MustCompile(`/Prev[\x00\t\n\f\r ]+(\d+)`)

// prevSpan finds "/Prev prev" in the dictionary of the section at off.
func prevSpan(b []byte, off, prev int64) ([2]int, bool) {
	start := int(off)
	rest := skipSpace(b[start:])
	start = len(b) - len(rest)
	key := []byte("obj")
	if bytes.HasPrefix(rest, []byte("xref")) {
		key = []byte("trailer")
	}
	i := bytes.Index(rest, key)
	if i < 0 {
		return [2]int{}, false
	}
	dict := skipSpace(rest[i+len(key):])
	start = len(b) - len(dict)
	end := dictEnd(dict)
	if end < 0 {
		return [2]int{}, false
	}
	for _, m := range prevEntry.FindAllSubmatchIndex(dict[:end], -1) {
		if n, err := strconv.ParseInt(string(dict[m[2]:m[3]]), 10, 64); err == nil && n == prev {
			return [2]int{start + m[0], start + m[1]}, true
		}
	}
	return [2]int{}, false
}

// withoutPrevLoop returns b, or when its /Prev chain loops a copy with the
// /Prev that closes the loop written over with spaces.
func withoutPrevLoop(b []byte) []byte {
	l, ok := findPrevLoop(b)
	if !ok {
		return b
	}
	out := bytes.Clone(b)
	for i := l.span[0]; i < l.span[1]; i++ {
		out[i] = ' '
	}
	return out
}
