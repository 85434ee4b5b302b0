//go:build !unix

package limits

const openNonblock = 0
