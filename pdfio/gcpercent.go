package pdfio

import (
	"runtime/debug"
	"sync"
)

// A read holds the file's bytes and its cross-reference table, about
// one and a half times the file's size, until the Document is made: on
// the 111 MB output of a build of 100,000 page sets, 160 MB of the 300 MB
// live at the read's end (the Document is the rest). The collector lets
// the heap grow to twice what it found live before it runs again
// (GOGC=100), so that this file peaked at 446-455 MiB. While a file of
// largeReadSize or more is read, the heap may grow by largeReadGC percent
// only: 446-455 → 404-421 MiB for that file (3 runs each), for about 12%
// more CPU (the collector runs 12 times, not 6).
//
// A classic file (its objects filed: lazyParseShared) of classicReadSize
// or more does so too: its live heap peaks at the read's end, the file,
// its table and the Document together (25.4 MB of 50,000 page sets: 24
// MB of bytes, 11.5 MB of table, 62 MB of Document), and the headroom the
// collector leaves on top of that is most of what it takes besides. Its
// walk is a third of ReadContext's CPU, so there is room for the
// collections. A file with object streams keeps the runtime's setting up
// to largeReadSize: its walk is at 0.8× ReadContext's CPU, and the
// memory a lower percent saves there is a few per cent (o50000: 218-224 →
// 204-210 MB for 30-40% more CPU).
//
// Only a file read from outside (Open, Read) does so: a program that
// reads back what it wrote (Update.Result, ReadBytes), holding its own
// work besides, would pay for each collection with a mark of all of it.
// Smaller files, whose reads are short, keep the runtime's own setting
// (the collection would cost more than the memory it saves: the process's
// own 17-20 MB are most of theirs), and so does a process that set a
// lower one, or turned the collector off.

const (
	largeReadSize   = 64 << 20
	classicReadSize = 16 << 20
	largeReadGC     = 30
)

// lowersGC says whether a read from outside of a file of size bytes
// lowers the GC percent to largeReadGC while it reads (classic: its
// objects are filed, parsed again from the file when used). It is the one
// place that decides; a read asks before its parse (classic false), and
// again once the parse said what the file is (gcHold).
func lowersGC(size int, classic bool) bool {
	return size >= largeReadSize || classic && size >= classicReadSize
}

// A gcHold is a read's lowered GC percent, if lowersGC said so.
type gcHold struct{ restore func() }

// decide lowers the GC percent if lowersGC says so and h has not yet.
func (h *gcHold) decide(size int, classic bool) {
	if h.restore == nil && lowersGC(size, classic) {
		h.restore = lowerGC()
	}
}

// end puts back the GC percent h lowered, if any.
func (h *gcHold) end() {
	if h.restore != nil {
		h.restore()
		h.restore = nil
	}
}

var largeReads struct {
	mu     sync.Mutex
	n      int // reads under way that lowered the GC percent
	before int // the GC percent before the first of them
}

// lowerGC lowers the GC percent to largeReadGC while a large file is read
// (any number at once); restore puts it back when the last ends.
func lowerGC() (restore func()) {
	r := &largeReads
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.n == 0 {
		r.before = debug.SetGCPercent(largeReadGC)
		if r.before <= largeReadGC {
			debug.SetGCPercent(r.before) // (lower already, or off: left as it is)
		}
	}
	r.n++
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.n--; r.n == 0 {
			debug.SetGCPercent(r.before)
		}
	}
}
