//go:build unix

package workers

import (
	"runtime/debug"
	"syscall"
)

// LimitMemory limits this process (a worker) to max bytes more than it
// has at its start: the kernel refuses it more writable memory than that
// (RLIMIT_DATA, which counts what the Go heap maps, not what it only
// reserves), and Go's collector works hard from 7/8 of max. The limit is
// on top of what the process maps at start (on Linux, /proc/self/status
// VmData: ~130 MiB for webcap, of which ~20 MiB is resident) so that max
// is the memory a task may take. Past it, the Go runtime dies ("fatal
// error: runtime: out of memory", or "cannot allocate memory"), which the
// parent reports as a CrashError with OutOfMemory set.
func LimitMemory(max int64) error {
	if max <= 0 {
		return nil
	}
	debug.SetMemoryLimit(max / 8 * 7)
	lim := uint64(max + dataSize())
	return syscall.Setrlimit(syscall.RLIMIT_DATA, &syscall.Rlimit{Cur: lim, Max: lim})
}
