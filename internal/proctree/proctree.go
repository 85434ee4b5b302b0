// Package proctree reads a process tree's memory from Linux's /proc: a
// process and every process descending from it (Tree), the anonymous
// resident memory each holds for itself (RSSAnon), and whether one still
// runs (Alive). capture's watchdog over Chromium and the hostile suite's
// measurer read it the same way, through this package. Where /proc is
// not there, a tree is its root alone and every figure is 0.
package proctree

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Tree returns pid and every process descending from it, pid first, each
// before its children (one read of /proc).
func Tree(pid int) []int {
	children := map[int][]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if p, err := strconv.Atoi(e.Name()); err == nil {
			if pp, ok := parentOf(p); ok {
				children[pp] = append(children[pp], p)
			}
		}
	}
	out := []int{pid}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i]]...)
	}
	return out
}

// Memory is the anonymous resident memory (RssAnon) of pid's tree,
// summed: what each process holds for itself, so that no shared page
// (a library, a file) is counted twice. A process that ends while it is
// read counts for nothing.
func Memory(pid int) int64 {
	var total int64
	for _, p := range Tree(pid) {
		total += RSSAnon(p)
	}
	return total
}

// stat is the fields of /proc/PID/stat after the command's name, which
// is in parentheses and may hold any byte ("S 1 ..."): field 3 is [0].
func stat(pid int) []string {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return nil
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(string(b[i+1:]))
}

// parentOf is a process's parent (the fourth field of its stat).
func parentOf(pid int) (int, bool) {
	f := stat(pid)
	if len(f) < 2 {
		return 0, false
	}
	pp, err := strconv.Atoi(f[1])
	return pp, err == nil
}

// RSSAnon is a process's RssAnon in bytes (0 when it cannot be read).
func RSSAnon(pid int) int64 {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "RssAnon:"); ok {
			if f := strings.Fields(v); len(f) > 0 { // "123456 kB"
				if n, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					return n << 10
				}
			}
		}
	}
	return 0
}

// Alive reports whether a process still runs (a zombie, which holds no
// memory, does not).
func Alive(pid int) bool {
	f := stat(pid)
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}
