package cli

import (
	"fmt"
	"github.com/webcap/webcap/shard"
	"testing"
)

// The shard of a path is the documented function (docs/scale.md), as
// another tool computes it: the expected values come from Python's
// os.path.normpath and a hand-written FNV-1a 64, not from this code.
func TestShardOf(t *testing.T) {
	for _, tc := range []struct {
		path       string
		mod4, mod7 int
	}{
		{"a.pdf", 0, 3},
		{"./a.pdf", 0, 3}, // cleaned: the same file, the same shard
		{"archive/2015/x.pdf", 1, 1},
		{"archive//2015/./x.pdf", 1, 1},
		{"/data/b.PDF", 3, 1},
		{"café.pdf", 1, 3}, // the bytes of the path, UTF-8 as given
	} {
		t.Run(tc.path, func(t *testing.T) {
			if got := shard.Of(shard.Path(tc.path), 4); got != tc.mod4 {
				t.Errorf("shard of %q in 4 = %d, want %d", tc.path, got, tc.mod4)
			}
			if got := shard.Of(shard.Path(tc.path), 7); got != tc.mod7 {
				t.Errorf("shard of %q in 7 = %d, want %d", tc.path, got, tc.mod7)
			}
		})
	}
}

// Shards are disjoint and together take every path once.
func TestShardsPartition(t *testing.T) {
	for _, n := range []int{1, 2, 3, 8} {
		counts := make([]int, n)
		for k := range 1000 {
			p := fmt.Sprintf("dir%d/file%d.pdf", k%13, k)
			taken := 0
			for i := range n {
				if (shard.Shard{I: i, N: n}).Takes(shard.Path(p)) {
					taken++
					counts[i]++
				}
			}
			if taken != 1 {
				t.Fatalf("%q is in %d of %d shards, want 1", p, taken, n)
			}
		}
		for i, c := range counts {
			if c < 1000/n/2 { // FNV spreads paths: no shard starves
				t.Errorf("shard %d/%d holds %d of 1000 paths", i, n, c)
			}
		}
	}
}

func TestShardFlag(t *testing.T) {
	for _, tc := range []struct {
		text string
		want shard.Shard
		ok   bool
	}{
		{"0/1", shard.Shard{I: 0, N: 1}, true},
		{"3/4", shard.Shard{I: 3, N: 4}, true},
		{"4/4", shard.Shard{}, false},
		{"-1/4", shard.Shard{}, false},
		{"1/0", shard.Shard{}, false},
		{"1", shard.Shard{}, false},
		{"a/b", shard.Shard{}, false},
	} {
		var s shard.Shard
		err := shardValue{&s}.Set(tc.text)
		if (err == nil) != tc.ok || s != tc.want {
			t.Errorf("--shard %s = %v, %v; want %v (ok %v)", tc.text, s, err, tc.want, tc.ok)
		}
	}
}
