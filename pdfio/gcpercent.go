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
// more CPU (the collector runs 12 times, not 6). Only a file read from
// outside (Open, Read) does so: a program that reads back what it wrote
// (Update.Result, ReadBytes), holding its own work besides, would pay
// for each collection with a mark of all of it. Smaller files, whose
// reads are short, keep the runtime's own setting (the collection would
// cost more than the memory it saves), and so does a process that set a
// lower one, or turned the collector off.

const (
	largeReadSize = 64 << 20
	largeReadGC   = 30
)

var largeReads struct {
	mu     sync.Mutex
	n      int // reads of large files under way
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
