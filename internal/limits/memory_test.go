package limits

import (
	"math"
	"testing"
)

// TestMemoryFor: the default ceiling is 1 GiB for reading, whatever the
// file's size; a rewrite of a large file may take 24 times its size.
func TestMemoryFor(t *testing.T) {
	for _, tc := range []struct {
		name    string
		w       Work
		largest int64
		want    int64
	}{
		{"read, no file", Read, 0, 1 << 30},
		{"read, 111 MB", Read, 111 << 20, 1 << 30},
		{"read, 4 GiB", Read, 4 << 30, 1 << 30},
		{"rewrite, small", Rewrite, 10 << 20, 1 << 30},
		{"rewrite, 111 MB", Rewrite, 111 << 20, 24 * 111 << 20},
		{"rewrite, past int64", Rewrite, math.MaxInt64 / 2, math.MaxInt64},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := MemoryFor(tc.w, tc.largest); got != tc.want {
				t.Errorf("MemoryFor(%v, %d) = %d, want %d", tc.w, tc.largest, got, tc.want)
			}
		})
	}
}
