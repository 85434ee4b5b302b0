//go:build !unix

package workers

import "runtime/debug"

// LimitMemory limits this process (a worker) to max bytes as well as it
// can here: Go's soft limit only; the parent's watch is the hard one.
func LimitMemory(max int64) error {
	if max > 0 {
		debug.SetMemoryLimit(max / 8 * 7)
	}
	return nil
}
