package pdfio

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/webcap/webcap/internal/limits"
)

// Where and how a result is written, decided once for every writer
// (the PDF of build, fix, capture, append and refresh, a WARC, a report):
//
//   - only a regular file, or a path that does not exist yet, is written;
//     anything else (a directory, a character or block device such as
//     /dev/null, a FIFO, a socket) is refused, whatever the options, since
//     a rename over it would replace it with a regular file and writing
//     into it is not what an atomic write means (stdout has a name of its
//     own in the commands: -o -);
//   - a symbolic link is followed to the file it names, which is replaced,
//     so that the link stays a link. A link whose text names another file
//     than the one the kernel opens through it (a /proc/self/fd/N link, or
//     /dev/stdout, which are no paths but open descriptors) is refused, and
//     so is the file this process's standard output or error goes to: a
//     rename would cut the command's own output off from it;
//   - an existing file is replaced only when asked (WriteOptions.Replace),
//     and keeps its permission bits and its owner and group (a file that
//     cannot keep its owner is not replaced);
//   - the data goes to a temporary file beside the target, is synced, and
//     is renamed over it; the directory is synced after the rename, so
//     that the rename survives a crash. The temporary file is removed on
//     every path that does not rename it.
//
// CheckOutput applies these rules before any work starts (a crawl is not
// lost to a typo in -o), and CreateOutput and WriteFile apply them again
// when the file is written.

// ErrNotRegular is what a path that is neither a regular file nor new is
// refused with: errors.Is(err, ErrNotRegular) holds for a *NotRegularError.
var ErrNotRegular = limits.ErrNotRegular

// ErrStdio refuses the file this process's standard output or standard
// error goes to (named directly, or through /dev/stdout or a link).
var ErrStdio = errors.New("is where this process's standard output or error goes")

// A NotRegularError says what a path that is not a regular file is.
type NotRegularError struct {
	Kind string // "a directory", "a character device", "a FIFO", ...
	Link string // the file its links lead to, when path is a link; "" otherwise
}

func (e *NotRegularError) Error() string {
	if e.Link != "" {
		return fmt.Sprintf("not a regular file: a link to %s (%s)", e.Link, e.Kind)
	}
	return "not a regular file: " + e.Kind
}

func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

// WriteOptions control WriteFile, CreateOutput and CheckOutput. The zero
// value writes a new file and never replaces one.
type WriteOptions struct {
	// Perm is a new file's permission bits (0o644 when zero, whatever the
	// umask). A file that exists keeps its own.
	Perm fs.FileMode
	// Replace allows replacing an existing regular file (--force,
	// --in-place); without it a path that exists is refused with an error
	// that wraps fs.ErrExist.
	Replace bool
}

// maxLinks bounds the symbolic links followed to the file written.
const maxLinks = 40

// output is a path resolved for writing.
type output struct {
	path   string // as given
	target string // the file written: path with its links followed
	exists bool
	mode   fs.FileMode // the permission bits the file gets
	owner  fileOwner   // the existing file's, to keep
}

// resolveOutput applies the rules above to path (those about replacing a
// file only when it is replaced: not when appended to).
func resolveOutput(path string, opts WriteOptions, appending bool) (*output, error) {
	target, err := linkTarget(path)
	if err != nil {
		return nil, err
	}
	o := &output{path: path, target: target, mode: opts.Perm.Perm()}
	if o.mode == 0 {
		o.mode = 0o644
	}
	fi, err := os.Stat(path) // as the kernel resolves it
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if _, lerr := os.Lstat(target); lerr == nil {
			// The text of the links names something the kernel does not
			// reach through them.
			return nil, &NotRegularError{Kind: "a link the kernel does not resolve to it", Link: target}
		}
		return o, nil
	case err != nil:
		return nil, err
	case !fi.Mode().IsRegular():
		nr := &NotRegularError{Kind: limits.Kind(fi.Mode())}
		if target != path {
			nr.Link = target
		}
		return nil, nr
	}
	if ti, err := os.Lstat(target); err != nil || !os.SameFile(fi, ti) {
		return nil, &NotRegularError{Kind: "a link whose text names another file than the one it opens", Link: target}
	}
	for _, f := range []*os.File{os.Stdout, os.Stderr} {
		if si, err := f.Stat(); err == nil && os.SameFile(fi, si) {
			return nil, ErrStdio
		}
	}
	o.exists = true
	if appending {
		return o, nil
	}
	if !opts.Replace {
		return nil, fs.ErrExist
	}
	o.mode = fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	o.owner = ownerOf(fi)
	if err := o.owner.canKeep(); err != nil {
		return nil, err
	}
	return o, nil
}

// CheckOutput checks, before any work starts, that path can be written
// with opts: a regular file (only with opts.Replace) or a new path, in a
// directory that exists and can be written to (tried with a temporary file,
// removed at once). Errors are *fs.PathError for path, wrapping
// fs.ErrExist, ErrNotRegular, ErrStdio, or what the system said (a
// directory that does not exist wraps fs.ErrNotExist and names it).
func CheckOutput(path string, opts WriteOptions) error {
	o, err := resolveOutput(path, opts, false)
	if err != nil {
		return pathError(path, err)
	}
	tmp, err := o.createTemp()
	if err != nil {
		return pathError(path, err)
	}
	tmp.Close()
	os.Remove(tmp.Name())
	return nil
}

// createTemp creates the temporary file beside the target.
func (o *output) createTemp() (*os.File, error) {
	dir := filepath.Dir(o.target)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(o.target)+".*.tmp")
	if err == nil {
		return tmp, nil
	}
	switch fi, serr := os.Stat(dir); {
	case errors.Is(serr, fs.ErrNotExist):
		return nil, &dirError{"the directory " + dir + " does not exist", fs.ErrNotExist}
	case serr == nil && !fi.IsDir():
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return nil, fmt.Errorf("cannot write in %s: %w", dir, err)
}

// dirError says what is wrong with the directory a file is written in.
type dirError struct {
	msg string
	err error
}

func (e *dirError) Error() string { return e.msg }
func (e *dirError) Unwrap() error { return e.err }

// An Output is a file being written: its bytes go to a temporary file
// beside it, which Commit renames over it. Close removes the temporary
// file unless committed; call it on every path (defer out.Close()).
type Output struct {
	o         *output
	tmp       *os.File
	committed bool
	closed    bool
}

// CreateOutput starts writing path with opts, under the rules above.
// Errors are *fs.PathError for path.
func CreateOutput(path string, opts WriteOptions) (*Output, error) {
	o, err := resolveOutput(path, opts, false)
	if err != nil {
		return nil, pathError(path, err)
	}
	tmp, err := o.createTemp()
	if err != nil {
		return nil, pathError(path, err)
	}
	return &Output{o: o, tmp: tmp}, nil
}

// Write writes to the temporary file.
func (w *Output) Write(p []byte) (int, error) {
	n, err := w.tmp.Write(p)
	if err != nil {
		err = pathError(w.o.path, err)
	}
	return n, err
}

// Commit syncs the data, gives it the mode and owner decided, renames it
// over the target and syncs the directory. The target is looked at again
// first: what appeared there since CreateOutput is never replaced unless
// allowed.
func (w *Output) Commit() error {
	err := w.tmp.Sync()
	if cerr := w.tmp.Close(); err == nil {
		err = cerr
	}
	w.closed = true
	name := w.tmp.Name()
	if err == nil && w.o.exists {
		err = w.o.owner.keep(name) // before the mode: chown clears set-user-ID
	}
	if err == nil {
		err = os.Chmod(name, w.o.mode)
	}
	if err == nil {
		err = w.o.recheck()
	}
	if err == nil {
		err = os.Rename(name, w.o.target)
	}
	if err != nil {
		os.Remove(name)
		return pathError(w.o.path, err)
	}
	w.committed = true
	return pathError(w.o.path, syncDir(filepath.Dir(w.o.target)))
}

// recheck refuses a target that changed since it was resolved: a file
// where there was none, or one that is no longer a regular file.
func (o *output) recheck() error {
	fi, err := os.Lstat(o.target)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !o.exists:
		return nil
	case err != nil:
		return err
	case !o.exists:
		return fs.ErrExist
	case !fi.Mode().IsRegular():
		return &NotRegularError{Kind: limits.Kind(fi.Mode())}
	}
	return nil
}

// Close removes the temporary file unless Commit renamed it.
func (w *Output) Close() error {
	if w.committed {
		return nil
	}
	if !w.closed {
		w.tmp.Close()
		w.closed = true
	}
	os.Remove(w.tmp.Name())
	return nil
}

// WriteFile writes data to the file at path atomically, under the rules
// above: path holds either its old bytes or all the new ones, whatever
// happens, and nothing is left behind on failure. Errors are
// *fs.PathError for path.
func WriteFile(path string, data []byte, opts WriteOptions) error {
	return writeFile(path, data, opts, (*os.File).Write)
}

// writeFile is WriteFile with the write of the data given (tests make it
// fail).
func writeFile(path string, data []byte, opts WriteOptions, write func(*os.File, []byte) (int, error)) error {
	w, err := CreateOutput(path, opts)
	if err != nil {
		return err
	}
	defer w.Close()
	if _, err := write(w.tmp, data); err != nil {
		return pathError(path, err)
	}
	return w.Commit()
}

// OpenAppend opens the file at path for reading and appending (made, with
// mode 0o644, when missing: audit --resume's results), under the rules
// above: a regular file or a new path, never a device or a FIFO (which
// would block or swallow what is written). Errors are *fs.PathError for
// path.
func OpenAppend(path string) (*os.File, error) {
	if _, err := resolveOutput(path, WriteOptions{Replace: true}, true); err != nil {
		return nil, pathError(path, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, pathError(path, err)
	}
	// What path is may have changed since it was looked at.
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = &NotRegularError{Kind: limits.Kind(fi.Mode())}
		}
		return nil, pathError(path, err)
	}
	return f, nil
}

// linkTarget follows path's symbolic links to the file they name, which
// need not exist.
func linkTarget(path string) (string, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return path, nil
		case err != nil:
			return "", err
		case fi.Mode()&fs.ModeSymlink == 0:
			return path, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", errors.New("too many levels of symbolic links")
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// pathError reports err as a failure to write path: the temporary file's
// name, which a caller never gave, is dropped from errors that carry it.
func pathError(path string, err error) error {
	if err == nil {
		return nil
	}
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe) && pe.Op == "write" && pe.Path == path:
		return pe
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &le):
		err = le.Err
	}
	return &fs.PathError{Op: "write", Path: path, Err: err}
}
