package pdfio

import (
	"bytes"
	"strconv"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// An object the cross-reference data lists but that pdfcpu could not load
// is not an object that does not exist: "webcap fix" must not drop what is
// under it as if it held nothing. The reader looks for it as qpdf does:
// "N G obj" near the listed offset, then anywhere in the file, and parses
// it from there with the fast parser (recoverMisplaced); what it still
// cannot read is
// unreadable (a defect of its own kind, and Tree.Unreadable or
// Entry.Unreadable where a name tree needed it), never dangling.

// recoverWindow is how far from its listed offset an object is looked for
// before the whole file is.
const recoverWindow = 4096

// recoverBudget is how many bytes the searches for misplaced objects of
// a file of size bytes may read in all: four passes over it, and 64 MiB.
func recoverBudget(size int) int64 { return 4*int64(size) + 64<<20 }

// maxRecoverScan bounds the objects looked for in the whole file (each
// such search is one pass over the file's index of "obj" headers, made
// once).
const maxRecoverScan = 100000

// recoverMisplaced runs before the walk, in the reader's goroutine: for
// every in-use entry with an offset whose object pdfcpu did not load (and
// is not null), it parses the object where "N G obj" is found, into
// r.recovered, or marks it unloadable.
func (r *reader) recoverMisplaced() {
	if r.b == nil {
		return
	}
	var headers map[int][]int64 // "N G obj" offsets by N, over the whole file, made when first needed
	// The bytes all the searches may read: a few passes over the file, so
	// that many unloadable objects (a hostile file lists millions) cannot
	// make the search quadratic. What is not looked for when it runs out
	// stays unloadable, which fix refuses to drop.
	budget := recoverBudget(len(r.b))
	for _, n := range r.objectNumbers() {
		e := r.entry(n)
		if e.none() || e.free() || e.compressed() || !hasOff(e) || e.object() != nil || n == 0 {
			continue
		}
		if _, ok := r.recovered[n]; ok {
			continue
		}
		off, gen := entOffset(e), e.gen()
		if objectAt(r.b, off, n) && nullAt(r.b, off) {
			continue // null: pdfcpu holds it as nil
		}
		var cands []int64
		lo, hi := max(off-recoverWindow, 0), min(off+recoverWindow, int64(len(r.b)))
		if budget -= max(hi-lo, 0); budget > 0 && lo < hi {
			for _, at := range objHeaders(r.b[lo:hi], n) {
				cands = append(cands, lo+at)
			}
		}
		if len(cands) == 0 && len(r.unloadable)+len(r.relocated) < maxRecoverScan {
			if headers == nil {
				headers = indexHeaders(r.b)
			}
			cands = headers[n]
		}
		if o, at, ok := r.parseAt(cands, n, gen, &budget); ok {
			if r.recovered == nil {
				r.recovered = map[int]types.Object{}
			}
			if r.relocated == nil {
				r.relocated = map[int]int64{}
			}
			r.recovered[n], r.relocated[n] = o, at
			continue
		}
		if r.unloadable == nil {
			r.unloadable = map[int]bool{}
		}
		r.unloadable[n] = true
	}
}

// parseAt parses object num (generation gen) at the first of cands where
// it parses, and is not a stream (whose data the reader would need to
// locate too: it is left unloadable).
func (r *reader) parseAt(cands []int64, num, gen int, budget *int64) (types.Object, int64, bool) {
	for _, at := range cands {
		if *budget <= 0 {
			break
		}
		rest := r.b[at:]
		rest = rest[:min(int64(len(rest)), *budget)]
		var f [3][]byte
		if !firstFields(rest[:min(len(rest), 40)], &f) {
			continue
		}
		if g, err := strconv.Atoi(string(f[1])); err != nil || g != gen {
			continue
		}
		i := bytes.Index(rest, []byte("obj"))
		end := bytes.Index(rest, []byte("endobj"))
		if end < 0 {
			*budget -= int64(len(rest))
		} else {
			*budget -= int64(end)
		}
		if i < 0 || end < i+3 {
			continue
		}
		body := rest[i+3 : end]
		if bytes.Contains(body, []byte("stream")) && bytes.Contains(body, []byte("endstream")) {
			continue
		}
		// The fast parser only (objparse.go): it is bounded in depth and
		// time, where pdfcpu's parser, on the malformed text that a
		// damaged file holds, may not be; what it is not sure of stays
		// unreadable (and fix refuses to drop it).
		o, ok := parseCompressed(body)
		if !ok {
			continue
		}
		return o, at, true
	}
	return nil, 0, false
}

// objHeaders returns the offsets in b where "num G obj" begins a line or
// follows white space or a delimiter.
func objHeaders(b []byte, num int) []int64 {
	var out []int64
	want := []byte(strconv.Itoa(num))
	for i := 0; i < len(b); {
		j := bytes.Index(b[i:], want)
		if j < 0 {
			break
		}
		at := i + j
		if (at == 0 || !isDigit(b[at-1])) && objectAt(b, int64(at), num) {
			out = append(out, int64(at))
		}
		i = at + len(want)
	}
	return out
}

// indexHeaders finds every "N G obj" in b, by N.
func indexHeaders(b []byte) map[int][]int64 {
	out := map[int][]int64{}
	for i := 0; i < len(b); {
		j := bytes.Index(b[i:], []byte("obj"))
		if j < 0 {
			break
		}
		at := i + j
		i = at + 3
		// back over "G", white space, "N"
		k := at
		for k > 0 && asciiSpace(b[k-1]) {
			k--
		}
		g := k
		for g > 0 && isDigit(b[g-1]) {
			g--
		}
		if g == k {
			continue
		}
		k = g
		for k > 0 && asciiSpace(b[k-1]) {
			k--
		}
		s := k
		for s > 0 && isDigit(b[s-1]) && k-s < 10 {
			s--
		}
		if s == k || k == g {
			continue
		}
		n, err := strconv.Atoi(string(b[s:k]))
		if err != nil {
			continue
		}
		out[n] = append(out[n], int64(s))
	}
	return out
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// A resolution is why resolve stopped.
type resolution int

const (
	resolved   resolution = iota
	missing               // no such object, a null, or a loop: nothing is lost by leaving it out
	unreadable            // listed by the cross-reference data, but it cannot be read
)

// unreadableRef reports whether ref is an object the cross-reference data
// lists but that could not be read (recoverMisplaced).
func (r *reader) unreadableRef(ref webcapture.Ref) bool {
	return r.unloadable[ref.Num]
}
