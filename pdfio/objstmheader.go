package pdfio

import "bytes"

// headerFields splits an object stream's header (the "num offset" pairs
// before /First, its comment cut off) as pdfcpu's parseObjectStream does,
// bytes.Fields with NUL taken for white space, and calls f with each
// field in turn and its index, until f returns false; it returns the
// number of fields. An ASCII header (every real one) is split in place,
// without the copy and the slice of fields bytes.Fields makes: 80,000
// objects in object streams made 3.5 MB of them. A header with a byte
// that is not ASCII goes to bytes.Fields itself, whose white space is
// then Unicode's.
func headerFields(h []byte, f func(i int, field []byte) bool) int {
	if !isASCII(h) {
		all := bytes.Fields(bytes.ReplaceAll(h, []byte{0}, []byte{' '}))
		for i, w := range all {
			if f != nil && !f(i, w) {
				break
			}
		}
		return len(all)
	}
	n := 0
	for i := 0; i < len(h); {
		for i < len(h) && headerSpace(h[i]) {
			i++
		}
		j := i
		for j < len(h) && !headerSpace(h[j]) {
			j++
		}
		if j > i {
			if f != nil && !f(n, h[i:j]) {
				f = nil // (counting on)
			}
			n++
		}
		i = j
	}
	return n
}

// headerSpace is asciiSpace with NUL (parseObjectStream replaces NUL by a
// space before it splits).
func headerSpace(c byte) bool { return c == 0 || asciiSpace(c) }
