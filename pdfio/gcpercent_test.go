package pdfio

import (
	"runtime/debug"
	"testing"
)

func TestLowersGC(t *testing.T) {
	for _, tc := range []struct {
		name    string
		size    int
		classic bool
		want    bool
	}{
		{"small classic", 5 << 20, true, false},
		{"classic under 16 MiB", classicReadSize - 1, true, false},
		{"classic of 16 MiB", classicReadSize, true, true},
		{"object streams of 16 MiB", classicReadSize, false, false},
		{"object streams under 64 MiB", largeReadSize - 1, false, false},
		{"object streams of 64 MiB", largeReadSize, false, true},
		{"classic of 64 MiB", largeReadSize, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := lowersGC(tc.size, tc.classic); got != tc.want {
				t.Errorf("lowersGC(%d, %t) = %t, want %t", tc.size, tc.classic, got, tc.want)
			}
		})
	}
}

// TestGCHold: a read lowers the GC percent once, whether its size or its
// parse decided, and puts it back at its end (not parallel: the percent
// is the process's).
func TestGCHold(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	var h gcHold
	h.decide(classicReadSize, false) // (object streams, or not known yet)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("GC percent after decide(16 MiB, false) = %d, want 100", got)
	}
	h.decide(classicReadSize, true)
	h.decide(largeReadSize, true) // (lowered already: once)
	if got := debug.SetGCPercent(largeReadGC); got != largeReadGC {
		t.Fatalf("GC percent after decide(16 MiB, true) = %d, want %d", got, largeReadGC)
	}
	if largeReads.n != 1 {
		t.Fatalf("reads holding the percent = %d, want 1", largeReads.n)
	}
	h.end()
	h.end() // (ended already: nothing)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent after end = %d, want 100", got)
	}
	if largeReads.n != 0 {
		t.Errorf("reads holding the percent after end = %d, want 0", largeReads.n)
	}
}
