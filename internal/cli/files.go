package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"sync"

	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/internal/limits"
	"github.com/webcap/webcap/mirror"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/warc"
	"github.com/webcap/webcap/webcapture"
)

// Reading a command's inputs. A file that cannot be read, whether it
// cannot be opened or is no PDF that can be parsed, is an I/O error (exit
// 3; exitCode decides it); each is said "COMMAND: FILE: what is wrong".

// readInput reads an input file whole, a regular file of at most max
// bytes (limits.ReadFile); "-" is stdin, read so that Ctrl-C ends a read
// that waits (the error is then the interrupt), and bounded by max too.
func readInput(ctx context.Context, path string, ios *IOStreams, max int64) ([]byte, error) {
	if path == "-" {
		b, err := io.ReadAll(io.LimitReader(interruptible(ctx, ios.In), max+1))
		if err == nil && int64(len(b)) > max {
			err = &limits.SizeError{Size: int64(len(b)), Max: max, Flag: maxFileSizeFlag}
		}
		if err := checkInterrupt(ctx); err != nil {
			return nil, err
		}
		if err != nil {
			return nil, fmt.Errorf("reading stdin: %w", err)
		}
		return b, nil
	}
	b, err := limits.ReadFile(path, max, maxFileSizeFlag)
	if err != nil {
		return nil, pathError(err)
	}
	return b, nil
}

// pathError is an error of the os package said "FILE: what is wrong",
// without the operation it names ("open a.pdf: no such file or
// directory" is "a.pdf: no such file or directory"): what the command was
// doing is clear from the command. Other errors are returned as they are.
func pathError(err error) error {
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return err
	}
	return &fileReadError{pe}
}

// fileReadError is an *fs.PathError said without its Op.
type fileReadError struct{ pe *fs.PathError }

func (e *fileReadError) Error() string { return e.pe.Path + ": " + e.pe.Err.Error() }
func (e *fileReadError) Unwrap() error { return e.pe }

// readList reads a list of paths, one per line ("-": stdin): line ends
// (LF or CRLF) are not part of a path, blank lines are skipped; with nul,
// paths end in NUL instead, and are taken as they are. Ctrl-C
// ends a read of stdin that waits (the error is then the interrupt).
func readList(ctx context.Context, path string, ios *IOStreams, nul bool) ([]string, error) {
	r := interruptible(ctx, ios.In)
	if path != "-" {
		f, _, err := limits.OpenStream(path, 0, "") // a file or a pipe (<(find ...)), never a device
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err // the path is named by the caller
			}
			return nil, err
		}
		defer f.Close()
		r = f
	}
	var list []string
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	if nul {
		sc.Split(scanNul)
	}
	for sc.Scan() {
		line := sc.Text()
		if !nul {
			line = strings.TrimSuffix(line, "\r")
		}
		if line != "" {
			list = append(list, line)
		}
	}
	return list, sc.Err()
}

// scanNul is a bufio.SplitFunc for names that end in NUL (find -print0,
// xargs -0): a name is taken as it is, newlines and all.
func scanNul(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return i + 1, data[:i], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

// readError is a PDF that could not be read, prefixed by the command.
func readError(cmd string, err error) error {
	return fmt.Errorf("%s: %w", cmd, err)
}

// fileError is a failure to do something with file that is no I/O error:
// the file is named once (pdfio's errors name it already).
func fileError(cmd, file string, err error) error {
	var pe *pdfio.Error
	if !errors.As(err, &pe) {
		err = fmt.Errorf("%s: %w", file, err)
	}
	return fmt.Errorf("%s: %w", cmd, err)
}

// loadSources opens the captured files a flag names (--sources, --aux): a
// wget mirror directory, a WARC file (.warc, .warc.gz) or a JSON manifest.
// A WARC file is an input as a PDF is: read within --max-file-size
// (maxSize) and ctx (--timeout, --max-memory), and one that is not valid
// is said with the record (sourcesError). What a mirror or manifest names
// is read inside its directory only, unless --allow-outside (o:
// mirror.OpenIn).
func loadSources(ctx context.Context, cmd, flag, path string, o mirror.Options, maxSize int64) (webcapture.AuxSource, error) {
	src, err := openSources(ctx, path, nil, o, maxSize)
	if err != nil {
		return nil, sourcesError(cmd, flag, err)
	}
	return src, nil
}

// sourcesError sorts the error of a file of captured data (--sources,
// --aux, --warc) into exit codes: a file that cannot be opened or read is
// an I/O error (3); one over a limit (--max-file-size, --timeout,
// --max-memory) or a WARC file that is not valid (warc.ErrFormat: its
// syntax, or one of its limits, at a record it names) is an input that is
// hostile or unparseable (4); a mirror or manifest that is wrong, a usage
// error (2).
func sourcesError(cmd, flag string, err error) error {
	sayFlag(err)
	var pe *fs.PathError
	var in *interrupted
	switch {
	case errors.As(err, &in):
		return in // said by Main
	case errors.Is(err, warc.ErrFormat):
		return &invalidError{fmt.Errorf("%s: %s %w", cmd, flag, err)}
	case errors.As(err, &pe):
		if _, top := err.(*fs.PathError); top {
			err = pathError(err)
		}
		return &ioError{fmt.Errorf("%s: %s %w", cmd, flag, err)}
	case errors.Is(err, limits.ErrLimit): // --timeout or --max-memory, as the reading stopped
		return fmt.Errorf("%s: %s %w", cmd, flag, err)
	}
	return usagef("%s: %s: %v", cmd, flag, err)
}

// openSources opens a wget mirror directory, a WARC file or a JSON
// manifest, by its path; a WARC file's URLs are canonicalized under p (PDF
// if nil), as the sets' URLs are looked up, and it is read within maxSize
// bytes and ctx.
func openSources(ctx context.Context, path string, p *canon.Profile, o mirror.Options, maxSize int64) (webcapture.AuxSource, error) {
	if warc.IsWARC(path) {
		if fi, err := os.Stat(path); err != nil || !fi.IsDir() {
			return warc.LoadFile(path, warc.Options{Profile: p, MaxFileSize: maxSize, Context: ctx})
		}
	}
	return mirror.Load(path, o)
}

// sourceCache opens --sources once for the files of a process: a WARC
// file is read whole.
type sourceCache struct {
	once sync.Once
	src  webcapture.AuxSource
	err  error
}

// load opens the sources, within ctx (the first file's) and maxSize.
func (c *sourceCache) load(ctx context.Context, path string, p *canon.Profile, o mirror.Options, maxSize int64) (webcapture.AuxSource, error) {
	if c == nil {
		return openSources(ctx, path, p, o, maxSize)
	}
	c.once.Do(func() { c.src, c.err = openSources(ctx, path, p, o, maxSize) })
	return c.src, c.err
}

// set makes src the sources opened, when this process opened them
// already.
func (c *sourceCache) set(src webcapture.AuxSource) {
	c.once.Do(func() { c.src = src })
}
