package mirror

import (
	"errors"
	"fmt"

	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/webcap/webcap/internal/limits"
	"github.com/webcap/webcap/webcapture"
)

// Confinement. A mirror, a manifest of URL: file, and a build manifest's
// paths are often made by someone else: a symbolic link in them, a path
// with "..", an absolute path or a file: URL in a page could make webcap
// read, hash and embed any file the user can read (the MD5 of a password
// file, a private PDF as the input of an update). So every file they name
// is opened by OpenIn, inside their directory only, unless the user
// allows reading outside (Options.AllowOutside, the CLI's
// --allow-outside). Confinement is the standard library's os.Root, which
// resolves each path component and each link inside the root and refuses
// one that leaves it, at the moment of the open (no window between a check
// and the open), rather than a check of our own on names.

// Options say where the files a source names may be read from.
type Options struct {
	// AllowOutside lets symbolic links, "..", absolute paths and file:
	// URLs lead outside the directory.
	AllowOutside bool
	// MaxFileSize refuses a larger file (an error wrapping
	// limits.ErrTooLarge); 0: any size.
	MaxFileSize int64
}

// OutsideError is a file a source names that leads outside the directory
// its reads are confined to: refused. It wraps webcapture.ErrRefused.
type OutsideError struct {
	Dir    string // the directory reads are confined to
	Name   string // the file asked for: a path inside Dir, or absolute
	Target string // where a symbolic link on its way leads, when known
}

func (e *OutsideError) Error() string {
	where := e.Name + ": outside " + e.Dir
	if e.Target != "" && e.Target != e.Name {
		where = fmt.Sprintf("%s: leads to %s, outside %s", e.Name, e.Target, e.Dir)
	}
	return where + ": refused: sources are read inside their directory only (--allow-outside reads it)"
}

func (e *OutsideError) Unwrap() error { return webcapture.ErrRefused }

// OpenIn opens the file name for reading, inside dir: name is relative to
// dir, or absolute (it must then lie under dir). A name that leads outside
// dir, by "..", an absolute path or a symbolic link anywhere on its way,
// is an *OutsideError, unless o.AllowOutside. This is the one function
// that decides where sources may be read from. Only a regular file is
// opened: a FIFO (opened without waiting for a writer) or a device is an
// error wrapping ErrNotRegular.
func OpenIn(dir, name string, o Options) (*os.File, error) {
	var f *os.File
	err := in(dir, name, o, func(root, rel string) error {
		r, err := os.OpenRoot(root)
		if err != nil {
			return err
		}
		defer r.Close()
		f, err = r.OpenFile(rel, openFlags, 0)
		return err
	}, func(p string) (err error) {
		f, err = os.OpenFile(p, openFlags, 0)
		return err
	})
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		if err = limits.Check(fi, o.MaxFileSize, ""); err != nil {
			err = &fs.PathError{Op: "open", Path: shown(dir, name), Err: err}
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ErrNotRegular: a source names a FIFO, a device or a socket (a directory
// is syscall.EISDIR), as the inputs of every command (limits.Regular).
var ErrNotRegular = limits.ErrNotRegular

// StatIn is OpenIn's check without opening the file (which would block on
// a FIFO): the file name inside dir, its links followed inside dir only.
func StatIn(dir, name string, o Options) (fs.FileInfo, error) {
	var fi fs.FileInfo
	err := in(dir, name, o, func(root, rel string) error {
		r, err := os.OpenRoot(root)
		if err != nil {
			return err
		}
		defer r.Close()
		fi, err = r.Stat(rel)
		return err
	}, func(p string) (err error) {
		fi, err = os.Stat(p)
		return err
	})
	return fi, err
}

// ReadFileIn reads the file name inside dir whole (OpenIn).
func ReadFileIn(dir, name string, o Options) ([]byte, error) {
	f, err := OpenIn(dir, name, o)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return limits.ReadAll(f, o.MaxFileSize, "")
}

// in runs inside with name relative to dir, or, when o.AllowOutside,
// anywhere with name as a path; a name that leaves dir is an
// *OutsideError.
func in(dir, name string, o Options, inside func(root, rel string) error, anywhere func(path string) error) error {
	full := name
	if !filepath.IsAbs(name) {
		full = filepath.Join(dir, name)
	}
	if o.AllowOutside {
		return anywhere(full)
	}
	full = shown(dir, name)
	rel, ok := relative(dir, name)
	if !ok {
		return &OutsideError{Dir: dir, Name: full, Target: target(full)}
	}
	err := inside(dir, rel)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		if escapes := errEscapes(); escapes != nil && errors.Is(pe.Err, escapes) {
			return &OutsideError{Dir: dir, Name: full, Target: target(full)}
		}
		if pe.Path == rel {
			// os.Root names the path relative to the root, and its
			// operation as the system call (openat, statat).
			pe.Op, pe.Path = strings.TrimSuffix(pe.Op, "at"), full
		}
	}
	return err
}

// shown is how an error names the file name inside dir: as the manifest
// or the URL spells it ("dir/../x"), an absolute name as it is, a name
// inside "." without "./".
func shown(dir, name string) string {
	if filepath.IsAbs(name) || dir == "." {
		return name
	}
	return dir + string(filepath.Separator) + name
}

// relative returns name relative to dir, when it does not leave dir by
// its spelling: an absolute name is compared with dir made absolute (and
// with its links resolved, for a dir reached through a link).
func relative(dir, name string) (string, bool) {
	if !filepath.IsAbs(name) {
		rel := filepath.Clean(name)
		return rel, filepath.IsLocal(rel)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	for _, d := range []string{abs, resolved(abs)} {
		if rel, err := filepath.Rel(d, name); err == nil && filepath.IsLocal(rel) {
			return rel, true
		}
	}
	return "", false
}

func resolved(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// target says where a refused path leads: its links resolved, or where
// its last link points when what it points to does not exist ("" if
// neither is known). It only names the path: nothing is read.
func target(p string) string {
	t, err := filepath.EvalSymlinks(p)
	if err != nil {
		l, err := os.Readlink(p)
		if err != nil {
			return ""
		}
		if t = l; !filepath.IsAbs(l) {
			t = filepath.Join(filepath.Dir(p), l)
		}
	}
	if abs, err := filepath.Abs(t); err == nil {
		return abs
	}
	return t
}

// errEscapes is the error os.Root gives for a path that leaves its root,
// which the os package does not export: taken once from a path that
// leaves by its spelling (nothing is opened but "/").
var errEscapes = sync.OnceValue(func() error {
	_, err := os.OpenInRoot(string(filepath.Separator), "..")
	var pe *fs.PathError
	if errors.As(err, &pe) && !strings.Contains(pe.Err.Error(), "no such file") {
		return pe.Err
	}
	return nil
})
