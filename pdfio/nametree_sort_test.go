package pdfio

import (
	"slices"
	"strings"
	"testing"
)

// TestSortedEntries holds sortedEntries to a sort by the keys' bytes:
// keys shorter than the 8-byte prefix, keys that differ past it, and
// zero bytes where the prefix pads with zeros.
func TestSortedEntries(t *testing.T) {
	keys := []string{"", "\x00", "a", "a\x00", "a\x00\x00", "a\x00b", "\xff", "\xff\xff\xff\xff\xff\xff\xff\xff", "\xff\xff\xff\xff\xff\xff\xff\xff\x00",
		"https://www.example.com/b", "https://www.example.com/a", "https://www.example.com/", "https://www.example.co", "abcdefgh", "abcdefgg\xff", "abcdefgi"}
	for _, rot := range []int{0, 3, 7} {
		es := make([]treeEntry, len(keys))
		for i := range keys {
			es[i] = treeEntry{Key: keys[(i+rot)%len(keys)]}
		}
		got := sortedEntries(es)
		want := slices.Clone(es)
		slices.SortFunc(want, func(a, b treeEntry) int { return strings.Compare(a.Key, b.Key) })
		for i := range want {
			if got[i].Key != want[i].Key {
				t.Fatalf("rotation %d: sortedEntries()[%d] = %q, want %q", rot, i, got[i].Key, want[i].Key)
			}
		}
	}
}
