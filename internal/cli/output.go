package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/pdfio"
)

// Writing a command's result: the output checked before any work starts,
// the file written atomically (pdfio.WriteFile), read back and audited.

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

// sameFile reports whether a and b name one file.
func sameFile(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// writeOutput writes a command's result to path atomically (a symbolic
// link stays one, the file keeps its permissions) and reads it back.
func writeOutput(cmd, path string, data []byte) (*pdfio.Document, error) {
	if err := pdfio.WriteFile(path, data, pdfio.WriteOptions{}); err != nil {
		return nil, &ioError{fmt.Errorf("%s: %w", cmd, err)}
	}
	d, err := pdfio.ReadBytes(data, path, pdfio.Options{})
	if err != nil {
		return nil, &ioError{fmt.Errorf("%s: reading the result back: %w", cmd, err)}
	}
	return d, nil
}

// summarize audits d, URLS keys by profile p.
func summarize(d *pdfio.Document, p *canon.Profile) audit.Summary {
	return audit.Summarize(audit.Check(d, audit.Options{Profile: p}))
}

// writeVerdict prints the audit's verdict on a file a command wrote (or
// left as it was): "NAME: audits with no error", or the rules with errors;
// errors fail the command.
func writeVerdict(w io.Writer, name string, sum audit.Summary) error {
	if sum.Count(audit.Serious) == 0 {
		fmt.Fprintf(w, "%s: %s\n", displayInput(name), sum)
		return nil
	}
	fmt.Fprintf(w, "%s: %s; see webcap audit\n", displayInput(name), sum)
	return errFailed
}

// writeJSON writes v as indented JSON, a summary's form.
func writeJSON(w io.Writer, v any) error {
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	if err := e.Encode(v); err != nil {
		return &ioError{err}
	}
	return nil
}

// jsonVerdict writes a summary as JSON and fails the command when the
// result has audit errors.
func jsonVerdict(w io.Writer, v any, auditErrors int) error {
	if err := writeJSON(w, v); err != nil {
		return err
	}
	if auditErrors > 0 {
		return errFailed
	}
	return nil
}
