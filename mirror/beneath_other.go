//go:build !linux

package mirror

// dirHandle: the fast path of Dir.Open is Linux's openat2
// (beneath_linux.go); elsewhere every file is opened by OpenIn.
type dirHandle struct{}

func newDirHandle() *dirHandle { return nil }

func (h *dirHandle) readBeneath(dir, name string, o Options) ([]byte, bool) { return nil, false }

func (h *dirHandle) read(dir string, path []byte, o Options, buf []byte) ([]byte, bool) {
	return nil, false
}
