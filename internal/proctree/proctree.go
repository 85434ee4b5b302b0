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
	"slices"
	"strconv"
	"strings"
	"syscall"
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
	var buf [1024]byte // a stat line is some 300 bytes
	b, ok := readSmall(filepath.Join("/proc", strconv.Itoa(pid), "stat"), buf[:])
	if !ok {
		return nil
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(string(b[i+1:]))
}

// readSmall reads a small file of /proc into buf with one read (open,
// read, close: os.ReadFile's stat and second read cost a watchdog that
// reads every process four times a second 40% more system calls); false
// when it cannot be read or does not fit.
func readSmall(name string, buf []byte) ([]byte, bool) {
	fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, false
	}
	defer syscall.Close(fd)
	n, err := syscall.Read(fd, buf)
	if err != nil || n <= 0 || n == len(buf) {
		return nil, false
	}
	return buf[:n], true
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

// RSSAnon is a process's RssAnon in bytes (0 when it cannot be read):
// its resident pages less those shared (files, shared memory), from
// /proc/PID/statm ("size resident shared ...", in pages), which the
// kernel writes in a line where /proc/PID/status takes fifty.
func RSSAnon(pid int) int64 {
	var buf [256]byte
	b, ok := readSmall(filepath.Join("/proc", strconv.Itoa(pid), "statm"), buf[:])
	if !ok {
		return 0
	}
	f := bytes.Fields(b)
	if len(f) < 3 {
		return 0
	}
	res, err1 := strconv.ParseInt(string(f[1]), 10, 64)
	shared, err2 := strconv.ParseInt(string(f[2]), 10, 64)
	if err1 != nil || err2 != nil || res < shared {
		return 0
	}
	return (res - shared) * int64(os.Getpagesize())
}

// Alive reports whether a process still runs (a zombie, which holds no
// memory, does not).
func Alive(pid int) bool {
	f := stat(pid)
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// A Watch is a process tree read again and again (a watchdog's). Its
// first Tree reads the whole of /proc; after that, only the PIDs the
// kernel gave out since (up to its last PID, the fifth field of
// /proc/loadavg) are looked at: a process joins the tree when its parent
// is in it, and a PID given out again leaves it unless its new process's
// parent is in the tree. A process that ended reads as nothing (RSSAnon
// 0, not Alive) until its PID is given out again. Reading the whole of
// /proc costs a read of every process on the machine, each time any
// process starts: on a machine that starts processes all the time (a
// build beside the capture), that was a third of a capture's own CPU
// time (bench/capture-cpu.sh). When the PIDs wrapped around, or too many
// were given out to look at one by one, /proc is read whole again.
type Watch struct {
	Root int
	last int          // the last PID given out at the last read
	tree []int        // Root first
	in   map[int]bool // tree's PIDs
}

// maxNewPIDs is how many PIDs given out since the last read are looked
// at one by one; more, and /proc is read whole (a directory of some
// hundreds of entries, and each one's stat).
const maxNewPIDs = 2048

// Tree is Tree(w.Root), read again only where it may have changed.
func (w *Watch) Tree() []int {
	last := lastPID()
	switch {
	case w.tree != nil && last == w.last:
	case w.tree == nil || last <= 0 || last < w.last || last-w.last > maxNewPIDs:
		w.tree, w.last = Tree(w.Root), last
		w.in = map[int]bool{}
		for _, p := range w.tree {
			w.in[p] = true
		}
	default:
		for p := w.last + 1; p <= last; p++ {
			w.look(p)
		}
		w.last = last
	}
	return w.tree
}

// look takes a PID given out since the last read into the tree when it
// is a process (not a thread: a thread's PID reads as a process, of its
// process's parent) whose parent is in it, and out when it was there.
func (w *Watch) look(p int) {
	if p == w.Root {
		return
	}
	if w.in[p] {
		delete(w.in, p)
		w.tree = slices.DeleteFunc(w.tree, func(q int) bool { return q == p })
	}
	if pp, ok := parentOf(p); !ok || !w.in[pp] || !leader(p) {
		return
	}
	w.in[p] = true
	w.tree = append(w.tree, p)
}

// leader reports whether pid is a process (the leader of its thread
// group), not one of its threads.
func leader(pid int) bool {
	var buf [4096]byte // the first lines say it
	b, ok := readSmall(filepath.Join("/proc", strconv.Itoa(pid), "status"), buf[:])
	if !ok {
		return false
	}
	for line := range bytes.Lines(b) {
		if v, ok := bytes.CutPrefix(line, []byte("Tgid:")); ok {
			return string(bytes.TrimSpace(v)) == strconv.Itoa(pid)
		}
	}
	return false
}

// lastPID is the last PID the kernel gave out, as /proc/loadavg says it
// ("0.05 0.10 0.08 1/230 31434": its last field); 0 when it cannot be
// read.
func lastPID() int {
	var buf [128]byte
	b, ok := readSmall("/proc/loadavg", buf[:])
	if !ok {
		return 0
	}
	f := bytes.Fields(b)
	if len(f) < 5 {
		return 0
	}
	n, _ := strconv.Atoi(string(f[4]))
	return n
}

// Args is a process's command line, its program's name first (nil when
// it cannot be read, as once the process has exited).
func Args(pid int) []string {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	if err != nil || len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
}
