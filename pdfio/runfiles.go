package pdfio

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// No output of a run is one of its inputs, nor another of its outputs,
// decided once here for every command (CheckRun) before any work starts,
// whatever --force says: a report written over the PDF it reports on, or
// results appended to a file the run reads, lose what they were made from.
//
// Files are compared by identity, not by name: two paths are one file when
// os.Stat (links followed) gives the same device and inode (os.SameFile),
// so that a symbolic link, a hard link or "a/../b" is seen through. A path
// that does not exist yet (an output to be made) is its links followed by
// their text, cleaned and made absolute, and is compared by its directory's
// identity and its own name (or, when its directory does not exist either,
// by that absolute path): "out.json", a dangling link to it and
// "./d/../out.json" are one output.
//
// Directories count too. An input directory all of whose files are read
// (RunFile.Dir: a wget mirror given as --sources) holds inputs: an output
// that is an existing file in it, at any depth, is refused (a new path in
// it is not one of its files). An output that is an existing directory
// (an HTML report of many pages) is replaced whole: an input inside it,
// or the directory itself being an input, is refused; and so is another
// output inside it, new or not.

// A RunFile is a file a run reads or writes, as its user named it.
type RunFile struct {
	// Flag is the flag that names it ("-o", "--html", "--sources");
	// "" for an argument.
	Flag string
	// Path is the path as given; for a file without a path (stdin), how
	// messages name it.
	Path string
	// Dir says, of an input, that every file under it is an input (a
	// mirror directory read as sources).
	Dir bool
	// Info, when set, is the file's identity, for a file without a path
	// (standard input redirected from a file): Path is not looked at.
	Info fs.FileInfo
}

// An OverlapError refuses an output that is one of the run's inputs, or
// another of its outputs: errors.Is(err, ErrOverlap) holds.
type OverlapError struct {
	Output RunFile // the output refused
	Other  RunFile // the input, or the other output, it is or holds
	Input  bool    // Other is an input of the run (else another output)
	// How says how they meet: Same (one file), InDir (Output is a file
	// inside Other, a directory), HoldsIt (Output is a directory, replaced
	// whole, that holds Other).
	How Overlap
}

// Overlap is how an output meets another file of its run.
type Overlap int

const (
	Same    Overlap = iota // the same file
	InDir                  // the output is inside the other, a directory
	HoldsIt                // the output is a directory that holds the other
)

// ErrOverlap is what an *OverlapError is.
var ErrOverlap = errors.New("an output of this run is one of its inputs or outputs")

func (e *OverlapError) Error() string {
	what := "another output of this run"
	if e.Input {
		what = "an input of this run"
	}
	name := func(f RunFile) string {
		if f.Flag == "" {
			return f.Path
		}
		return f.Flag + " " + f.Path
	}
	switch e.How {
	case InDir:
		return name(e.Output) + " is inside " + name(e.Other) + ", " + what
	case HoldsIt:
		return name(e.Output) + " is a directory that holds " + name(e.Other) + ", " + what
	}
	return name(e.Output) + " is " + what + " (" + name(e.Other) + ")"
}

func (e *OverlapError) Is(target error) bool { return target == ErrOverlap }

// CheckRun refuses, with an *OverlapError, an output of a run that is one
// of its inputs or another of its outputs, by the rules above; outputs
// are checked in order, each against every input first, then against the
// outputs before it. A file that cannot be looked at (a permission
// denied) is compared by its path. Inputs are looked at only when there
// are outputs: a run of a million files that writes nothing costs nothing.
func CheckRun(inputs, outputs []RunFile) error {
	if len(outputs) == 0 {
		return nil
	}
	outs := make([]fileID, len(outputs))
	for i, o := range outputs {
		outs[i] = identify(o)
	}
	anc := &ancestry{real: map[string]string{}, in: map[inKey]bool{}}
	for i, o := range outs {
		for _, in := range inputs {
			if how, ok := meet(o, identify(in), in.Dir, anc); ok {
				return &OverlapError{Output: outputs[i], Other: in, Input: true, How: how}
			}
		}
		for j := range i {
			if how, ok := meet(o, outs[j], false, anc); ok {
				return &OverlapError{Output: outputs[i], Other: outputs[j], How: how}
			}
			if how, ok := meet(outs[j], o, false, anc); ok && how != Same {
				return &OverlapError{Output: outputs[j], Other: outputs[i], How: how}
			}
		}
	}
	return nil
}

// SameFile reports whether the paths a and b name one file, by the rules
// above (links followed, a path that does not exist by its directory and
// name).
func SameFile(a, b string) bool {
	return identify(RunFile{Path: a}).same(identify(RunFile{Path: b}))
}

// fileID is a file's identity.
type fileID struct {
	fi   fs.FileInfo // the file, links followed; nil when it does not exist
	abs  string      // its links followed by their text, cleaned, absolute
	dir  fs.FileInfo // abs's directory, when fi is nil and it exists
	base string      // abs's last element
}

// identify looks f up.
func identify(f RunFile) fileID {
	if f.Info != nil {
		return fileID{fi: f.Info}
	}
	id := fileID{abs: absPath(f.Path)}
	if fi, err := os.Stat(f.Path); err == nil {
		id.fi = fi
		return id
	}
	if target, err := linkTarget(f.Path); err == nil {
		id.abs = absPath(target)
	}
	id.base = filepath.Base(id.abs)
	if di, err := os.Stat(filepath.Dir(id.abs)); err == nil {
		id.dir = di
	}
	return id
}

// absPath is p cleaned and absolute (as it is when the working directory
// cannot be known).
func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

// same reports whether a and b are one file.
func (a fileID) same(b fileID) bool {
	switch {
	case a.fi != nil || b.fi != nil:
		return a.fi != nil && b.fi != nil && os.SameFile(a.fi, b.fi)
	case a.dir != nil && b.dir != nil:
		return a.base == b.base && os.SameFile(a.dir, b.dir)
	}
	return a.abs == b.abs
}

// meet says how the output o meets the file x (an input directory all of
// whose files are inputs when dirInput).
func meet(o, x fileID, dirInput bool, anc *ancestry) (Overlap, bool) {
	switch {
	case o.same(x):
		return Same, true
	case o.fi != nil && o.fi.IsDir() && anc.inside(x.abs, o):
		return HoldsIt, true
	case dirInput && x.fi != nil && x.fi.IsDir() && o.fi != nil && anc.inside(o.abs, x):
		return InDir, true
	}
	return 0, false
}

// ancestry answers whether a file lies inside a directory, looking each
// directory up once (the many inputs of a run share a few).
type ancestry struct {
	real map[string]string // a directory as named → its real path ("": none)
	in   map[inKey]bool    // a real directory inside (or equal to) a directory
}

type inKey struct{ dir, p string } // dir: the directory's fileID.abs

// inside reports whether the file at path (absolute; it need not exist,
// its directory must) lies inside dir, at any depth: whether a directory
// on its real path (links followed, the file's own too) is dir.
func (a *ancestry) inside(path string, dir fileID) bool {
	if path == "" { // a file known by its identity alone (stdin)
		return false
	}
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if r, err := filepath.EvalSymlinks(path); err == nil {
			path = r
		}
	}
	d := filepath.Dir(path)
	real, ok := a.real[d]
	if !ok {
		if r, err := filepath.EvalSymlinks(d); err == nil {
			real = r
		}
		a.real[d] = real
	}
	return real != "" && a.under(real, dir)
}

// under reports whether the real directory p is dir or lies inside it.
func (a *ancestry) under(p string, dir fileID) bool {
	k := inKey{dir.abs, p}
	if v, ok := a.in[k]; ok {
		return v
	}
	fi, err := os.Stat(p)
	v := err == nil && os.SameFile(fi, dir.fi)
	if up := filepath.Dir(p); !v && up != p {
		v = a.under(up, dir)
	}
	a.in[k] = v
	return v
}
