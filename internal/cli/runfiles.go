package cli

import (
	"errors"
	"os"

	"github.com/webcap/webcap/pdfio"
)

// What a run reads and writes, checked against each other before any work
// starts, --force or not (pdfio.CheckRun decides): no output is an input
// (the PDFs, the directories walked, --sources, a manifest and what it
// names, --files-from, --password-file, report's shards, stdin when it is
// read and is a file), nor another output. Each command lists its files
// in one place and calls runFiles.check once, first thing in its run.

// runFiles are the files of one run.
type runFiles struct {
	in, out []pdfio.RunFile
	// inPlace is the input --in-place replaces (fix, append, refresh,
	// build), for the hint when -o names it.
	inPlace string
}

// input adds the input path named by flag ("" for an argument); "" is
// none, and "-" stdin (read from ios) unless ios is nil: a file named "-"
// (audit's arguments).
func (r *runFiles) input(flag, path string, ios *IOStreams) {
	switch {
	case path == "":
	case path == stdoutName && ios != nil:
		r.stdin(ios)
	default:
		r.in = append(r.in, pdfio.RunFile{Flag: flag, Path: path})
	}
}

// inputs adds the input paths named by flag (as input).
func (r *runFiles) inputs(flag string, paths []string, ios *IOStreams) {
	for _, p := range paths {
		r.input(flag, p, ios)
	}
}

// source adds an input that may be a directory all of whose files are
// inputs (a mirror given as --sources).
func (r *runFiles) source(flag, path string) {
	if path == "" {
		return
	}
	fi, err := os.Stat(path)
	r.in = append(r.in, pdfio.RunFile{Flag: flag, Path: path, Dir: err == nil && fi.IsDir()})
}

// stdin adds the file stdin reads, when it is a regular file (a pipe or a
// terminal is no file an output can be).
func (r *runFiles) stdin(ios *IOStreams) {
	f, ok := ios.In.(*os.File)
	if !ok {
		return
	}
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		r.in = append(r.in, pdfio.RunFile{Path: "stdin", Info: fi})
	}
}

// output adds the file written by flag; "" is none, and "-" stdout (the
// shell opened it).
func (r *runFiles) output(flag, path string) {
	if path != "" && path != stdoutName {
		r.out = append(r.out, pdfio.RunFile{Flag: flag, Path: path})
	}
}

// check refuses an output that is an input or another output: a usage
// error (exit 2) naming both.
func (r *runFiles) check(cmd string) error {
	err := pdfio.CheckRun(r.in, r.out)
	var oe *pdfio.OverlapError
	if !errors.As(err, &oe) {
		return err
	}
	out, other := runFileName(oe.Output), runFileName(oe.Other)
	switch {
	case oe.How == pdfio.InDir:
		return usagef("%s: %s is inside %s, an input of this run: give a file outside it", cmd, out, other)
	case oe.How == pdfio.HoldsIt && oe.Input:
		return usagef("%s: %s is a directory that holds %s, an input of this run, which replacing it would remove: give another path", cmd, out, other)
	case oe.How == pdfio.HoldsIt:
		return usagef("%s: %s is a directory that holds %s, another output of this run: give another path", cmd, out, other)
	case !oe.Input:
		return usagef("%s: %s and %s are one file: give each output its own", cmd, other, out)
	case r.inPlace != "" && oe.Output.Flag == "-o" && oe.Other.Path == r.inPlace:
		return usagef("%s: %s is an input of this run (%s): give another file, or --in-place to replace it", cmd, out, other)
	}
	return usagef("%s: %s is an input of this run (%s): give another file", cmd, out, other)
}

// runFileName is how a message names f: "--html REPORT.html", "in.pdf"
// (an argument), "stdin"; the path escaped as every file name shown.
func runFileName(f pdfio.RunFile) string {
	name := displayInput(f.Path)
	if f.Info != nil {
		name = f.Path
	}
	if f.Flag == "" {
		return name
	}
	return f.Flag + " " + name
}
