//go:build unix

package limits

import "syscall"

const openNonblock = syscall.O_NONBLOCK
