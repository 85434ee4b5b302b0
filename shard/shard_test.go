package shard

import (
	"fmt"
	"testing"
)

// TestOf pins the split to values computed outside Go: FNV-1a 64 of the
// key, modulo n, as Python computes it:
//
//	h = 0xcbf29ce484222325
//	for b in key.encode(): h = ((h ^ b) * 0x100000001b3) % 2**64
func TestOf(t *testing.T) {
	for _, c := range []struct {
		key  string
		n    int
		want int
	}{
		{"", 4, int(uint64(0xcbf29ce484222325) % 4)},
		{"a", 7, int(uint64(0xaf63dc4c8601ec8c) % 7)},
		{"foobar", 10, int(uint64(0x85944171f73967e8) % 10)},
	} {
		if got := Of(c.key, c.n); got != c.want {
			t.Errorf("Of(%q, %d) = %d, want %d", c.key, c.n, got, c.want)
		}
	}
}

func TestTakesDisjointComplete(t *testing.T) {
	const n = 5
	for k := 0; k < 1000; k++ {
		key := fmt.Sprintf("https://site%d.example/", k)
		took := 0
		for i := 0; i < n; i++ {
			if (Shard{i, n}).Takes(key) {
				took++
			}
		}
		if took != 1 {
			t.Fatalf("%s: taken by %d shards of %d", key, took, n)
		}
		if !(Shard{}).Takes(key) {
			t.Fatalf("the zero Shard does not take %s", key)
		}
	}
}

func TestParse(t *testing.T) {
	for _, good := range []string{"0/1", "3/4", "0/4"} {
		s, err := Parse(good)
		if err != nil || s.String() != good {
			t.Errorf("Parse(%q) = %v, %v", good, s, err)
		}
	}
	for _, bad := range []string{"", "4/4", "-1/4", "1/0", "a/b", "1", "1/2/3"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) succeeded", bad)
		}
	}
}

func TestPath(t *testing.T) {
	if got := Path("./a//b.pdf"); got != "a/b.pdf" {
		t.Errorf("Path = %q", got)
	}
}
