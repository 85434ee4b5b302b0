package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"

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
//   - -o FILE refuses an existing FILE unless --force, and with --force
//     too anything that is not a regular file (a directory, /dev/null, a
//     FIFO, a link to a descriptor such as /proc/self/fd/1, the file
//     stdout goes to), a directory that does not exist or cannot be
//     written to (tried with a temporary file, removed at once)
//     (pdfio.CheckOutput decides, for every output); and, checked first,
//     any input of the run or another of its outputs (runFiles.check,
//     pdfio.CheckRun);
//   - -o - writes the PDF to stdout (not to a terminal), and every human
//     line, the summary included, to stderr;
//   - --in-place (commands with an input PDF) replaces the input; a
//     symbolic link stays one, and the file keeps its owner and mode;
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
		return checkOutput(cmd, "--in-place", input, true)
	case o.Out == "":
		return nil
	case o.Out == stdoutName && ios.OutTTY:
		return usagef("%s: -o - writes a PDF to stdout, which is a terminal: redirect it, or give a file name", cmd)
	case o.Out == stdoutName:
		return nil
	}
	return checkOutput(cmd, "-o", o.Out, o.Force)
}

// checkOutput checks, before any work starts, the file out that a
// command writes (named by flag: -o, --warc, --in-place), by the rules of
// pdfio (CheckOutput), the same for every file webcap writes: a regular
// file (replaced only with force) or a new path, never a directory, a
// device, a FIFO, a socket, a link to a descriptor or the file stdout goes
// to; in a directory that exists and can be written to.
func checkOutput(cmd, flag, out string, force bool) error {
	return outputError(cmd, flag, out, pdfio.CheckOutput(out, pdfio.WriteOptions{Replace: force}))
}

// outputError is the command's error for err, pdfio's refusal to write
// out (named by flag): a usage error when the file named cannot be an
// output (exit 2), an I/O error when it cannot be written now (exit 3).
func outputError(cmd, flag, out string, err error) error {
	if err == nil {
		return nil
	}
	why := err
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == out {
		why = pe.Err
	}
	var nr *pdfio.NotRegularError
	switch {
	case errors.As(err, &nr) && nr.Kind == "a directory" && nr.Link == "":
		return usagef("%s: %s %s is a directory: give a file name", cmd, flag, out)
	case errors.As(err, &nr):
		through := ""
		if nr.Link != "" {
			through = " (through its link to " + nr.Link + ")"
		}
		stdout := ""
		if flag == "-o" {
			stdout = " (-o - writes to stdout)"
		}
		return usagef("%s: %s %s is not a regular file but %s%s: webcap writes only to a regular file or a new path%s", cmd, flag, out, nr.Kind, through, stdout)
	case errors.Is(err, pdfio.ErrStdio):
		return usagef("%s: %s %s is the file this command's output goes to: give another file (-o - writes to stdout)", cmd, flag, out)
	case errors.Is(err, fs.ErrExist):
		return usagef("%s: %s exists: choose another %s, or --force to replace it", cmd, out, flag)
	}
	return &ioError{fmt.Errorf("%s: cannot write %s: %w", cmd, out, why)}
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

// write writes a command's result (put) and reads it back.
func (o *outputFlags) write(cmd string, ios *IOStreams, input string, data []byte) (*pdfio.Document, error) {
	return o.writeRead(cmd, ios, input, data, func(name string) (*pdfio.Document, error) {
		return pdfio.ReadBytes(data, name, pdfio.Options{})
	})
}

// writeRead is write with the read back done by read (a library's result
// that reads what it wrote without parsing it again).
func (o *outputFlags) writeRead(cmd string, ios *IOStreams, input string, data []byte, read func(name string) (*pdfio.Document, error)) (*pdfio.Document, error) {
	if err := o.put(cmd, ios, input, data); err != nil {
		return nil, err
	}
	d, err := read(o.target(input))
	return readBack(cmd, d, err)
}

// put writes a command's result where check allowed, atomically for a
// file (a symbolic link stays one, the file keeps its permissions and
// owner).
func (o *outputFlags) put(cmd string, ios *IOStreams, input string, data []byte) error {
	path := o.target(input)
	if path == stdoutName {
		if _, err := ios.Out.Write(data); err != nil {
			return &ioError{fmt.Errorf("%s: writing the PDF to stdout: %w", cmd, err)}
		}
	} else if err := pdfio.WriteFile(path, data, pdfio.WriteOptions{Replace: o.Force || o.InPlace}); err != nil {
		return &ioError{fmt.Errorf("%s: %w", cmd, err)}
	}
	return nil
}

// readBack is the document a command read back from what it wrote, or the
// error of that read.
func readBack(cmd string, d *pdfio.Document, err error) (*pdfio.Document, error) {
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
