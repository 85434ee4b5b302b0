package pdfio

import "errors"

// SetEagerOnly makes every read use pdfcpu's ReadContext alone (true), or
// lazyParse where it can (false), for the differential tests of package
// pdfio_test; it returns the setting before.
func SetEagerOnly(on bool) bool { return eagerOnly.Swap(on) }

// LazyReads reports whether lazyParse reads b itself (no fallback).
func LazyReads(b []byte) bool {
	_, err := lazyParse(b, Options{}.withDefaults())
	return err == nil
}

// FallsBack reports whether lazyParse gives b to pdfcpu (errLazy): both
// reads of readBoth are then ReadContext's.
func FallsBack(b []byte) bool {
	_, err := lazyParse(b, Options{}.withDefaults())
	return errors.Is(err, errLazy)
}

// SlimStreams is how many streams a read of b keeps as slimStreams.
func SlimStreams(b []byte) int {
	ctx, _, err := lazyParseShared(b, Options{}.withDefaults(), newValueShare())
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range ctx.Table {
		if _, ok := e.Object.(slimStream); ok {
			n++
		}
	}
	return n
}
