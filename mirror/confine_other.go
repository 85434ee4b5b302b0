//go:build !unix

package mirror

import "os"

// openFlags: there is no FIFO to wait on here.
const openFlags = os.O_RDONLY
