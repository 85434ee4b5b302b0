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

// A Watch is a process tree read again and again (a watchdog's): Tree
// reads the whole of /proc only when a process or thread was created
// since its last read (the kernel's last PID, the fifth field of
// /proc/loadavg, moved); otherwise no process can have joined the tree,
// and the tree read before is returned (a process that ended since reads
// as nothing: RSSAnon 0, not Alive). Chromium, once its tabs are open,
// rarely starts a process, while a read of /proc costs a read of every
// process on the machine.
type Watch struct {
	Root int
	last []byte
	tree []int
}

// Tree is Tree(w.Root), read again only when it may have grown.
func (w *Watch) Tree() []int {
	last := lastPID()
	if w.tree == nil || last == nil || !bytes.Equal(last, w.last) {
		w.tree, w.last = Tree(w.Root), last
	}
	return w.tree
}

// lastPID is the last PID the kernel gave out, as /proc/loadavg says it
// ("0.05 0.10 0.08 1/230 31434": its last field); nil when it cannot be
// read.
func lastPID() []byte {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return nil
	}
	f := bytes.Fields(b)
	if len(f) < 5 {
		return nil
	}
	return f[4]
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
