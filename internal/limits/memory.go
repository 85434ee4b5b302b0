package limits

import "math"

// DefaultMemory is the memory ceiling of a command that reads PDFs when
// none is given (webcap's --max-memory): 1 GiB. A reader that needs more
// than this for a file is under attack: reading takes at most about 3
// times a file's size plus what the answer holds (issue 30's lazy reader;
// the 20,000-page file of bench/peers.sh, 13 MB, is read in some 140 MB),
// and a file's findings past 20,000 wait on disk (audit/batch.Spool).
const DefaultMemory int64 = 1 << 30

// A Work is what a command does with the PDFs it reads, which the memory
// it needs follows.
type Work int

const (
	// Read is reading a file for an answer: info, audit (each worker
	// reads one file), id, lookup.
	Read Work = iota
	// Rewrite is reading a file to write it again: build, fix, append,
	// refresh, whose input pdfcpu's ReadContext still reads whole, every
	// object a Go map (issue 30: not yet through the lazy reader).
	Rewrite
)

// rewritePerByte is how much memory a Rewrite may take per byte of its
// largest input when none is given: it takes about 15 times (the
// 100,000-set file bench/peers.sh builds, 111 MB, is fixed in 1.7 GB) to
// 23 times a file's size.
const rewritePerByte = 24

// MemoryFor is the memory ceiling, when none is given, of work on inputs
// the largest of which is largest bytes: DefaultMemory, and for a Rewrite
// rewritePerByte times largest when that is more, so that a large, sound
// capture is not called hostile.
func MemoryFor(w Work, largest int64) int64 {
	if w != Rewrite {
		return DefaultMemory
	}
	if largest > math.MaxInt64/rewritePerByte {
		return math.MaxInt64
	}
	return max(DefaultMemory, rewritePerByte*largest)
}
