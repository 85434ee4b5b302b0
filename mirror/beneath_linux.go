package mirror

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A dirHandle holds a mirror's directory open for readBeneath, the fast
// path of Dir.Open: a build of 100,000 page sets opens 100,000 files, and
// os.Root (OpenIn) spends a dozen system calls on each (the root opened,
// each directory on the way opened and closed, the poller told). One
// openat2 from the directory, with RESOLVE_BENEATH and
// RESOLVE_NO_SYMLINKS, opens a file only when its path, spelled without
// "..", leads to it through plain directories: the kernel refuses a
// symbolic link anywhere on the way. Such a path resolves the same way in
// os.Root and in the kernel, so the fast path reads exactly the file
// OpenIn would. Every other case (a link, which os.Root follows inside
// the root by its own rules; a file that is missing, not regular or too
// large; an error; a kernel without openat2) is left to OpenIn, which
// decides and words it as before. The directory stays open as long as
// the Dir is used (one descriptor; the os.File's cleanup closes it once
// the Dir is garbage).
type dirHandle struct {
	once sync.Once
	dir  *os.File    // nil: the directory did not open
	fd   int         // dir's descriptor (its Fd, taken once: a directory's is blocking already)
	off  atomic.Bool // openat2 is not there (ENOSYS) or not allowed: not tried again
}

func newDirHandle() *dirHandle { return &dirHandle{} }

// readBeneath reads the regular file name (relative, local) inside dir
// whole, when the fast path can; ok false leaves the file to OpenIn.
func (h *dirHandle) readBeneath(dir, name string, o Options) (data []byte, ok bool) {
	if h == nil || o.AllowOutside || h.off.Load() || filepath.IsAbs(name) {
		return nil, false
	}
	rel := filepath.Clean(name)
	if !filepath.IsLocal(rel) || strings.IndexByte(rel, 0) >= 0 {
		return nil, false // (a NUL: no such name, as openat2's own check says)
	}
	var a [256]byte
	return h.read(dir, append(append(a[:0], rel...), 0), o, nil)
}

// read is readBeneath of path, a clean local name ending in a NUL (the
// name as the kernel takes it, made without an allocation), into buf's
// array when it has room for the file (plus the byte that would show it
// grew), else into a new one.
func (h *dirHandle) read(dir string, path []byte, o Options, buf []byte) (data []byte, ok bool) {
	if h == nil || o.AllowOutside || h.off.Load() {
		return nil, false
	}
	h.once.Do(func() {
		if f, err := os.Open(dir); err == nil {
			h.dir, h.fd = f, int(f.Fd())
		}
	})
	if h.dir == nil {
		return nil, false
	}
	how := unix.OpenHow{
		Flags:   uint64(os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_CLOEXEC),
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	// (unix.Openat2, without its copy of the name and of how on the heap)
	r, _, errno := unix.Syscall6(unix.SYS_OPENAT2, uintptr(h.fd), uintptr(unsafe.Pointer(&path[0])), uintptr(unsafe.Pointer(&how)), unsafe.Sizeof(how), 0, 0)
	runtime.KeepAlive(h.dir) // (h.fd is h.dir's: open while it is used)
	if errno != 0 {
		if errno == syscall.ENOSYS || errno == syscall.EPERM {
			h.off.Store(true)
		}
		return nil, false
	}
	fd := int(r)
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := fstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG || (o.MaxFileSize > 0 && st.Size > o.MaxFileSize) {
		return nil, false
	}
	if int64(cap(buf)) > st.Size {
		buf = buf[: 0 : st.Size+1] // (read as into a new one: no more at a time)
	} else {
		buf = make([]byte, 0, st.Size+1)
	}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n < 0 {
			return nil, false
		}
		if n == 0 {
			return buf, true
		}
		buf = buf[:len(buf)+n]
		if st.Size > 0 && int64(len(buf)) == st.Size {
			// The size fstat gave, read: the file whole, without the read
			// of 0 bytes that would say so (one system call in five). A
			// file that grows while read is read as it was at fstat.
			return buf, true
		}
		if o.MaxFileSize > 0 && int64(len(buf)) > o.MaxFileSize {
			return nil, false // grew past the limit while read: OpenIn says so
		}
	}
}

func fstat(fd int, st *syscall.Stat_t) error {
	for {
		err := syscall.Fstat(fd, st)
		if err != syscall.EINTR {
			return err
		}
	}
}
