package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// checkOutput checks, before any work starts, that a command can write its
// result to out: not one of its inputs, not an existing file unless force,
// not a directory, and in a directory that exists and can be written to
// (tried with a temporary file, removed at once). A long crawl is not lost
// to a typo in -o.
func checkOutput(cmd, out string, force bool, inputs ...string) error {
	for _, in := range inputs {
		if in != "" && sameFile(out, in) {
			return usagef("%s: -o %s is the input: %s never changes its input; write to another file", cmd, out, cmd)
		}
	}
	if fi, err := os.Stat(out); err == nil {
		switch {
		case fi.IsDir():
			return usagef("%s: -o %s is a directory: give a file name", cmd, out)
		case !force:
			return usagef("%s: %s exists: choose another -o, or --force to replace it", cmd, out)
		}
	}
	dir := filepath.Dir(out)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &ioError{fmt.Errorf("%s: cannot write %s: the directory %s does not exist", cmd, out, dir)}
	case err != nil:
		return &ioError{fmt.Errorf("%s: cannot write %s: %w", cmd, out, err)}
	case !fi.IsDir():
		return &ioError{fmt.Errorf("%s: cannot write %s: %s is not a directory", cmd, out, dir)}
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(out)+".*.check")
	if err != nil {
		return &ioError{fmt.Errorf("%s: cannot write in %s: %w", cmd, dir, errors.Unwrap(err))}
	}
	tmp.Close()
	os.Remove(tmp.Name())
	return nil
}
