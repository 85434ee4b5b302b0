//go:build unix

package pdfio

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
)

// What is not a regular file is never replaced, even when replacing is
// allowed: /dev/null stays the device, a FIFO stays a FIFO (and nothing
// blocks on it), a link to one is refused too, and nothing is left in the
// directory.
func TestWriteFileRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink("fifo", link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, kind string }{
		{os.DevNull, "a character device"},
		{fifo, "a FIFO"},
		{link, "a FIFO"},
		{dir, "a directory"},
	} {
		for _, replace := range []bool{false, true} {
			opts := WriteOptions{Replace: replace}
			for name, err := range map[string]error{
				"CheckOutput": CheckOutput(tc.path, opts),
				"WriteFile":   WriteFile(tc.path, []byte("x"), opts),
			} {
				var nr *NotRegularError
				var pe *fs.PathError
				if !errors.As(err, &nr) || nr.Kind != tc.kind || !errors.Is(err, ErrNotRegular) || !errors.As(err, &pe) || pe.Path != tc.path {
					t.Errorf("%s(%s, Replace: %t) = %v, want a *fs.PathError for it wrapping a NotRegularError (%s)", name, tc.path, replace, err, tc.kind)
				}
			}
		}
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the FIFO is no longer one: %v %v", fi.Mode(), err)
	}
	if fi, err := os.Lstat(os.DevNull); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
		t.Errorf("%s is no longer a character device: %v %v", os.DevNull, fi.Mode(), err)
	}
	if names := dirEntries(t, dir); len(names) != 2 {
		t.Errorf("directory holds %q, want fifo and link alone", names)
	}
}

// A link through /proc/self/fd names an open descriptor, not a path: to a
// pipe it is refused as one; to the regular file this process's standard
// output goes to, that file is refused (a rename would cut the output off
// from it).
func TestWriteFileRefusesDescriptorLinks(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/self/fd is Linux's")
	}
	dir := t.TempDir()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	toPipe := filepath.Join(dir, "pipe")
	if err := os.Symlink(fmt.Sprintf("/proc/self/fd/%d", w.Fd()), toPipe); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(toPipe, []byte("x"), WriteOptions{Replace: true}); !errors.Is(err, ErrNotRegular) {
		t.Errorf("WriteFile through a link to a pipe's descriptor = %v, want ErrNotRegular", err)
	}

	file := oldFile(t, dir, "old", 0o644)
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	stdout := os.Stdout
	os.Stdout = f
	defer func() { os.Stdout = stdout }()
	toStdout := filepath.Join(dir, "stdout")
	if err := os.Symlink(fmt.Sprintf("/proc/self/fd/%d", f.Fd()), toStdout); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{file, toStdout} {
		if err := WriteFile(p, []byte("x"), WriteOptions{Replace: true}); !errors.Is(err, ErrStdio) {
			t.Errorf("WriteFile(%s), the file stdout goes to = %v, want ErrStdio", p, err)
		}
	}
	os.Stdout = stdout
	if got := readString(t, file); got != "old" {
		t.Errorf("stdout's file holds %q, want %q", got, "old")
	}
}

// Replaced through a symbolic link (fix --in-place on a link), the file
// keeps its owner, group and mode, the set-group-ID bit included, and the
// link stays a link.
func TestWriteFileKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a file another owner needs root")
	}
	dir := t.TempDir()
	file := oldFile(t, dir, "old", 0o640)
	if err := os.Chown(file, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(file, 0o640|fs.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.pdf")
	if err := os.Symlink("out.pdf", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte("new"), WriteOptions{Replace: true}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	if st.Uid != 65534 || st.Gid != 65534 || fi.Mode()&(fs.ModePerm|fs.ModeSetgid) != 0o640|fs.ModeSetgid {
		t.Errorf("replaced file: owner %d:%d, mode %v; want 65534:65534, %v", st.Uid, st.Gid, fi.Mode(), 0o640|fs.ModeSetgid)
	}
	if li, err := os.Lstat(link); err != nil || li.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("%s is no longer a link", link)
	}
	if got := readString(t, file); got != "new" {
		t.Errorf("file holds %q", got)
	}
}
