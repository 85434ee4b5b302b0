//go:build unix

package workers

import (
	"runtime/debug"
	"syscall"
)

// LimitMemory limits this process (a worker) to max bytes: the kernel
// refuses it more writable memory than that (RLIMIT_DATA, which counts
// what the Go heap maps, not what it only reserves), and Go's collector
// works hard from 7/8 of it. Past the limit the Go runtime dies with
// "fatal error: runtime: out of memory", which the parent reports as a
// CrashError with OutOfMemory set.
func LimitMemory(max int64) error {
	if max <= 0 {
		return nil
	}
	debug.SetMemoryLimit(max / 8 * 7)
	return syscall.Setrlimit(syscall.RLIMIT_DATA, &syscall.Rlimit{Cur: uint64(max), Max: uint64(max)})
}
