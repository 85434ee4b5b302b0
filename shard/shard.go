// Package shard splits a list among machines with no coordination: shard
// I of N takes the items whose key hashes to I, by FNV-1a 64-bit modulo
// N. So N machines given the same list each take one shard, disjoint and
// together complete, and another tool can compute the same split
// (docs/scale.md gives it in one line of Python).
//
// audit shards files by their cleaned path (see [Path]); capture shards
// seeds by the seed as written in the list.
package shard

import (
	"fmt"
	"hash/fnv"
	"path/filepath"
	"strconv"
	"strings"
)

// Shard is shard I of N (0 ≤ I < N). The zero value takes every item.
type Shard struct{ I, N int }

// Of says which of n shards key belongs to: the FNV-1a 64-bit hash of
// key's bytes, modulo n. n must be at least 1.
func Of(key string, n int) int {
	h := fnv.New64a()
	h.Write([]byte(key))
	return int(h.Sum64() % uint64(n))
}

// Path is the key of a file path: the path as given, cleaned
// (filepath.Clean: "./a//b.pdf" is "a/b.pdf"; no path is made absolute,
// no link followed).
func Path(path string) string { return filepath.Clean(path) }

// Takes reports whether the shard holds the item whose key is key.
func (s Shard) Takes(key string) bool {
	return s.N == 0 || Of(key, s.N) == s.I
}

// String is "I/N", or "" for the zero value.
func (s Shard) String() string {
	if s.N == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.I, s.N)
}

// Parse reads "I/N", as "0/4" or "3/4".
func Parse(text string) (Shard, error) {
	a, b, ok := strings.Cut(text, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("shard %q: want I/N with 0 <= I < N, as 0/4 or 3/4", text)
	}
	return Shard{i, n}, nil
}
