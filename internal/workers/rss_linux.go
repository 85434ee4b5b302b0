package workers

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"
)

// canWatch: the parent can read a worker's resident set size.
const canWatch = true

// watchEvery is how often the parent looks at a busy worker's size.
const watchEvery = 100 * time.Millisecond

var pageSize = int64(os.Getpagesize())

// rss is the resident set size of process pid in bytes (0 when unknown),
// the second field of /proc/PID/statm, in pages.
func rss(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0
	}
	f := bytes.Fields(b)
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.ParseInt(string(f[1]), 10, 64)
	return n * pageSize
}

// dataSize is this process's data size (VmData in /proc/self/status, what
// RLIMIT_DATA counts), 0 when unknown.
func dataSize() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range bytes.Lines(b) {
		if v, ok := bytes.CutPrefix(line, []byte("VmData:")); ok {
			f := bytes.Fields(v) // "132328 kB"
			if len(f) == 2 && string(f[1]) == "kB" {
				n, _ := strconv.ParseInt(string(f[0]), 10, 64)
				return n << 10
			}
		}
	}
	return 0
}

// peakRSS is the peak resident set size in bytes of a process that has
// exited (0 when unknown): wait4's rusage, whose ru_maxrss is in KiB.
func peakRSS(ps *os.ProcessState) int64 {
	if ps == nil {
		return 0
	}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss << 10
	}
	return 0
}
