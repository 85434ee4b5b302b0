package limits

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// DefaultMaxFileSize is the size limit of an input file when none is
// given: 2 GiB.
const DefaultMaxFileSize = 2 << 30

// ErrLimit is wrapped by every error of a limit passed: a file too large,
// a deadline or a memory ceiling passed.
var ErrLimit = errors.New("over a limit")

// ErrTooLarge is wrapped by a *SizeError: a file larger than its limit.
var ErrTooLarge = errors.New("file too large")

// ErrNotRegular is wrapped by the error of an input that is not a regular
// file (a directory is said syscall.EISDIR instead, as the os package
// says it).
var ErrNotRegular = errors.New("not a regular file")

// SizeError is a file larger than the size limit.
type SizeError struct {
	Size, Max int64
	Flag      string // the flag that sets Max ("--max-file-size"), or ""
}

func (e *SizeError) Error() string {
	s := fmt.Sprintf("%v: %d bytes, more than %d", ErrTooLarge, e.Size, e.Max)
	if e.Flag != "" {
		s += " (" + e.Flag + ")"
	}
	return s
}

func (e *SizeError) Is(target error) bool { return target == ErrLimit || target == ErrTooLarge }

// notRegularError says what kind of file a path is when it is not a
// regular one ("is a FIFO, not a regular file").
type notRegularError struct{ kind string }

func (e *notRegularError) Error() string { return "is " + e.kind + ", not a regular file" }

func (e *notRegularError) Is(target error) bool { return target == ErrNotRegular }

// Regular says why a file that is not a regular file cannot be read as an
// input: syscall.EISDIR ("is a directory") for a directory, an error
// wrapping ErrNotRegular for a FIFO, socket, device or other; nil for a
// regular file.
func Regular(fi fs.FileInfo) error {
	switch m := fi.Mode(); {
	case m.IsRegular():
		return nil
	case m.IsDir():
		return syscall.EISDIR
	default:
		return &notRegularError{Kind(m)}
	}
}

// Kind names a file type that is not a regular file, in the words every
// message about inputs (Regular) and outputs (pdfio.CheckOutput) uses.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file (" + m.Type().String() + ")"
}

// Open opens the regular file at path for reading, its type checked
// before the open (a named pipe would block open(2) until a writer came)
// and again on what was opened (the path may have changed in between).
// max > 0 refuses a file larger than max bytes (a *SizeError, flag naming
// the limit's flag); max <= 0, none. Errors are *fs.PathError with Op
// "open" or "read".
func Open(path string, max int64, flag string) (*os.File, fs.FileInfo, error) {
	return open(path, max, flag, false)
}

// OpenStream is Open for a file that may also be a named pipe, such as
// bash's <(command) gives (a list of files, a password): a pipe that no
// program writes to reads as empty instead of blocking the open. max
// bounds a regular file's size only; the caller bounds what it reads.
func OpenStream(path string, max int64, flag string) (*os.File, fs.FileInfo, error) {
	return open(path, max, flag, true)
}

func open(path string, max int64, flag string, pipes bool) (*os.File, fs.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Op = "open" // what the caller asked for, as os.Open says it
		}
		return nil, nil, err
	}
	check := func(fi fs.FileInfo, max int64, flag string) error {
		if pipes && fi.Mode()&fs.ModeNamedPipe != 0 {
			return nil
		}
		return Check(fi, max, flag)
	}
	if err := check(fi, max, flag); err != nil {
		return nil, nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	// Non-blocking: should the path have become a pipe since the Stat, the
	// open does not wait for a writer (the check below refuses it).
	f, err := os.OpenFile(path, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, nil, err
	}
	if fi, err = f.Stat(); err == nil {
		err = check(fi, max, flag)
	}
	if err != nil {
		f.Close()
		return nil, nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return f, fi, nil
}

// Check is Open's check of what fi describes: a regular file (Regular) of
// at most max bytes (max <= 0: any size), for a caller that opens files
// its own way (mirror.OpenIn, inside a directory).
func Check(fi fs.FileInfo, max int64, flag string) error {
	if err := Regular(fi); err != nil {
		return err
	}
	if max > 0 && fi.Size() > max {
		return &SizeError{Size: fi.Size(), Max: max, Flag: flag}
	}
	return nil
}

// ReadFile reads the regular file at path whole, as Open checks it; a file
// that grows past max while it is read is refused too.
func ReadFile(path string, max int64, flag string) ([]byte, error) {
	f, fi, err := Open(path, max, flag)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, path, fi.Size(), max, flag)
}

// ReadAll reads what f holds (opened by Open) up to max bytes (max <= 0:
// no limit), an error past it.
func ReadAll(f *os.File, max int64, flag string) ([]byte, error) {
	return ReadAllRoom(f, max, flag, 0)
}

// ReadAllRoom is ReadAll into a buffer with room bytes of capacity past
// what f holds, for the caller to append in without a copy (an update
// written after the file read: pdfio's Update.AppendInPlace). What of it
// is not used is never touched.
func ReadAllRoom(f *os.File, max int64, flag string, room int64) ([]byte, error) {
	var size int64
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	if room > 0 {
		size += room
	}
	return readAll(f, f.Name(), size, max, flag)
}

func readAll(r io.Reader, path string, size, max int64, flag string) ([]byte, error) {
	if max > 0 {
		r = io.LimitReader(r, max+1)
	}
	buf, err := ReadSized(r, size) // (size is only a hint: files in /proc say 0)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	if max > 0 && int64(len(buf)) > max {
		return nil, &fs.PathError{Op: "read", Path: path, Err: &SizeError{Size: int64(len(buf)), Max: max, Flag: flag}}
	}
	return buf, nil
}

// ReadSized reads r to its end into one buffer of size bytes and one
// more, growing it only where r holds more than it said (size is a hint:
// a file that grew since, or in /proc, which says 0). io.ReadAll grows
// its buffer by doubling: it holds up to twice what it reads, and copies
// it at each step. Errors are r's, unwrapped.
func ReadSized(r io.Reader, size int64) ([]byte, error) {
	b := make([]byte, 0, max(size, 0)+1) // (+1: EOF is read without growing)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
