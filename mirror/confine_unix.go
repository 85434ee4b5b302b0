//go:build unix

package mirror

import (
	"os"
	"syscall"
)

// openFlags open a FIFO without waiting for a writer (OpenIn then refuses
// it); on a regular file O_NONBLOCK changes nothing.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK
