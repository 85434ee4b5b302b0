//go:build unix

package hostile

import (
	"path/filepath"
	"syscall"
)

// fifo makes a named pipe name inside dir.
func fifo(dir, name string) error {
	return syscall.Mkfifo(filepath.Join(dir, name), 0o644)
}

// makeFIFO is a setup step making the named pipe name.
func makeFIFO(name string) func(dir string) error {
	return func(dir string) error { return fifo(dir, name) }
}
