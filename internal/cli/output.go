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

// The -o rules, the same for every command that writes a PDF (build, fix,
// capture, append, refresh): outputFlags.flags checks the flags as they
// are parsed, outputFlags.check the files before any work starts (before a
// manifest is applied, a file repaired, Chromium started):
//
//   - -o FILE refuses an existing FILE unless --force, a directory, a
//     directory that does not exist or cannot be written to (tried with a
//     temporary file, removed at once), and the command's input;
//   - -o - writes the PDF to stdout (not to a terminal), and every human
//     line, the summary included, to stderr;
//   - --in-place (commands with an input PDF) replaces the input; a
//     symbolic link stays one;
//   - the file is written atomically by pdfio.WriteFile, then read back.
//
// A long crawl is not lost to a typo in -o.

// stdoutName is -o's name for stdout, and the JSON's "output" then.
const stdoutName = "-"

// displayOutput is how a message names the file a command wrote: "stdout"
// for -o -.
func displayOutput(name string) string {
	if name == stdoutName {
		return "stdout"
	}
	return displayInput(name)
}

// flags checks the -o flags as they are parsed: -o and --in-place
// exclude each other, and a command that must write (need: no --dry-run)
// is told where. hasInput says the command has --in-place.
func (o *outputFlags) flags(cmd string, hasInput, need bool) error {
	switch {
	case o.InPlace && o.Out != "":
		return usagef("%s: -o and --in-place exclude each other", cmd)
	case o.Out == "" && !o.InPlace && need && hasInput:
		return usagef("%s: say where to write: -o OUT.pdf, -o - (stdout) or --in-place", cmd)
	case o.Out == "" && !o.InPlace && need:
		return usagef("%s: say where to write: -o OUT.pdf or -o - (stdout)", cmd)
	}
	return nil
}

// check applies the rest of the -o rules for command cmd, before any work
// starts; input is the PDF the command reads and writes an update of.
func (o *outputFlags) check(cmd string, ios *IOStreams, input string) error {
	switch {
	case o.InPlace:
		return checkDir(cmd, input)
	case o.Out == "":
		return nil
	case o.Out == stdoutName && ios.OutTTY:
		return usagef("%s: -o - writes a PDF to stdout, which is a terminal: redirect it, or give a file name", cmd)
	case o.Out == stdoutName:
		return nil
	case input != "" && sameFile(o.Out, input):
		return usagef("%s: -o %s is the input: use --in-place to replace it", cmd, o.Out)
	}
	return checkNewFile(cmd, o.Out, o.Force)
}

// checkNewFile checks the file -o names, for every command that writes
// one (a PDF, or report's text): not a directory, not a file that exists
// unless force, in a directory that can be written to.
func checkNewFile(cmd, out string, force bool) error {
	if fi, err := os.Stat(out); err == nil {
		switch {
		case fi.IsDir():
			return usagef("%s: -o %s is a directory: give a file name", cmd, out)
		case !force:
			return usagef("%s: %s exists: choose another -o, or --force to replace it", cmd, out)
		}
	}
	return checkDir(cmd, out)
}

// checkDir checks that the directory out is written in exists and can be
// written to: the directory of the file a symbolic link names, for a link
// (pdfio.WriteFile replaces that file).
func checkDir(cmd, out string) error {
	dir := filepath.Dir(out)
	if target, err := filepath.EvalSymlinks(out); err == nil {
		dir = filepath.Dir(target)
	}
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

// target is the file written, after check: the input with --in-place,
// "-" for stdout.
func (o *outputFlags) target(input string) string {
	if o.InPlace {
		return input
	}
	return o.Out
}

// summary is where a command prints what it did: stderr when the PDF goes
// to stdout, so that no line is mixed into its bytes.
func (o *outputFlags) summary(ios *IOStreams) io.Writer {
	if o.Out == stdoutName {
		return ios.ErrOut
	}
	return ios.Out
}

// write writes a command's result where check allowed, atomically for a
// file (a symbolic link stays one, the file keeps its permissions), and
// reads it back.
func (o *outputFlags) write(cmd string, ios *IOStreams, input string, data []byte) (*pdfio.Document, error) {
	path, err := o.put(cmd, ios, input, data)
	if err != nil {
		return nil, err
	}
	d, err := pdfio.ReadBytes(data, path, pdfio.Options{})
	if err != nil {
		return nil, &ioError{fmt.Errorf("%s: reading the result back: %w", cmd, err)}
	}
	return d, nil
}

// put is write without the reading back: it returns the path written.
func (o *outputFlags) put(cmd string, ios *IOStreams, input string, data []byte) (string, error) {
	path := o.target(input)
	if path == stdoutName {
		if _, err := ios.Out.Write(data); err != nil {
			return "", &ioError{fmt.Errorf("%s: writing the PDF to stdout: %w", cmd, err)}
		}
	} else if err := pdfio.WriteFile(path, data, pdfio.WriteOptions{}); err != nil {
		return "", &ioError{fmt.Errorf("%s: %w", cmd, err)}
	}
	return path, nil
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
		fmt.Fprintf(w, "%s: %s\n", displayOutput(name), sum)
		return nil
	}
	fmt.Fprintf(w, "%s: %s; see webcap audit\n", displayOutput(name), sum)
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
