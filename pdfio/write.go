package pdfio

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteOptions control WriteFile. The zero value is ready to use.
type WriteOptions struct {
	// Perm is a new file's permission bits (0o644 when zero, whatever the
	// umask). A file that exists keeps its own.
	Perm fs.FileMode
}

// maxLinks bounds the symbolic links WriteFile follows to the file it
// replaces.
const maxLinks = 40

// WriteFile writes data to the file at path atomically, so that path holds
// either its old bytes or all the new ones, whatever happens: the data goes
// to a temporary file in the same directory, which is synced, then renamed
// over the file, and the directory is synced. A symbolic link is followed
// to the file it names, which is replaced, so that the link stays a link;
// the file keeps its permission bits. Nothing is left behind on failure.
// Errors are *fs.PathError for path.
func WriteFile(path string, data []byte, opts WriteOptions) error {
	return writeFile(path, data, opts, (*os.File).Write)
}

// writeFile is WriteFile with the write of the data given (tests make it
// fail).
func writeFile(path string, data []byte, opts WriteOptions, write func(*os.File, []byte) (int, error)) error {
	target, err := linkTarget(path)
	if err != nil {
		return pathError(path, err)
	}
	mode := opts.Perm.Perm()
	if mode == 0 {
		mode = 0o644
	}
	switch fi, err := os.Stat(target); {
	case err == nil && !fi.Mode().IsRegular():
		return pathError(path, fmt.Errorf("not a regular file (%s)", fi.Mode().Type()))
	case err == nil:
		mode = fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	case !errors.Is(err, fs.ErrNotExist):
		return pathError(path, err)
	}
	dir := filepath.Dir(target)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+".*.tmp")
	if err != nil {
		return pathError(path, err)
	}
	renamed := false
	defer func() {
		if !renamed {
			os.Remove(tmp.Name())
		}
	}()
	_, err = write(tmp, data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), mode)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), target)
	}
	if err != nil {
		return pathError(path, err)
	}
	renamed = true
	return pathError(path, syncDir(dir))
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
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &le):
		err = le.Err
	}
	return &fs.PathError{Op: "write", Path: path, Err: err}
}
