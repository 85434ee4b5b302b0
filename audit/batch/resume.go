package batch

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/webcap/webcap/pdfio"
)

// Resuming a run: the results of an earlier run (killed, or of fewer
// files), one JSON line per file as webcap audit --jsonl writes them, are
// read (OpenLog), the files they hold skipped (Log.Match), and the results
// of the others appended to the same file. A file is skipped when its
// result is there for the same path, as given, with the same size and
// modification time (or, asked, the same SHA-256), unless that result is
// an operational failure (error kind "io": worth retrying); a later line
// for the same input supersedes the earlier.

// LineSchema is the "schema" of a line of results: webcap audit --jsonl's
// object (webcap help schema audit-file).
const LineSchema = "webcap.audit-file/1"

// Meta is what a result says of its input for resuming: its size and
// modification time when the run came to it, and its SHA-256 when asked.
type Meta struct {
	Size   *int64 `json:"size,omitempty"`   // bytes (absent: the file could not be examined)
	Mtime  string `json:"mtime,omitempty"`  // modification time, RFC 3339 in UTC with nanoseconds
	SHA256 string `json:"sha256,omitempty"` // lower-case hex, when asked
}

// Stat examines the file at path: its size and mtime, and with hash its
// SHA-256. A file that cannot be examined has none (its audit says why).
func Stat(path string, hash bool) Meta {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return Meta{}
	}
	size := fi.Size()
	m := Meta{Size: &size, Mtime: fi.ModTime().UTC().Format(time.RFC3339Nano)}
	if hash {
		m.SHA256, _ = fileSHA256(path)
	}
	return m
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// A Tally is what a file's result counts for in a run's summary and exit
// status: its error's kind ("" when the file was read; "io", "invalid",
// "failed", "interrupted" as webcap's JSON says) and its findings by
// severity.
type Tally struct {
	Kind                    string
	Errors, Warnings, Infos int
}

// Count counts a finding of severity ("error", "warning"; any other an
// info).
func (t *Tally) Count(severity string) {
	switch severity {
	case "error":
		t.Errors++
	case "warning":
		t.Warnings++
	default:
		t.Infos++
	}
}

// A Prior is what is kept of a result read: what resuming compares, and
// what the summary and the exit status count (not the findings: a million
// files' would not fit).
type Prior struct {
	Meta
	Tally
}

// A Log is a results file open for appending.
type Log struct {
	f    *os.File
	done map[string]Prior // the latest result of each input
}

// A LogError is a results file that could not be read, or is not one.
type LogError struct{ Err error }

func (e *LogError) Error() string { return e.Err.Error() }
func (e *LogError) Unwrap() error { return e.Err }

// OpenLog reads the results at path (made when missing), and leaves it
// open for appending. A last line cut short (a run killed while writing
// it) is dropped from the file; any other line that is not a result is an
// error (*LogError): the file is not a run's. An error opening the file
// is pdfio.OpenAppend's.
func OpenLog(path string) (*Log, error) {
	f, err := pdfio.OpenAppend(path)
	if err != nil {
		return nil, err
	}
	l := &Log{f: f, done: map[string]Prior{}}
	end, err := l.read(bufio.NewReader(f))
	if err == nil {
		err = f.Truncate(end)
	}
	if err == nil {
		_, err = f.Seek(end, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, &LogError{err}
	}
	return l, nil
}

// logLine is what Log reads of a line.
type logLine struct {
	Schema string `json:"schema"`
	Input  string `json:"input"`
	Meta
	Error *struct {
		Kind string `json:"kind"`
	} `json:"error"`
	Findings []struct {
		Severity string `json:"severity"`
	} `json:"findings"`
}

func (l *logLine) tally() Tally {
	var t Tally
	if l.Error != nil {
		t.Kind = l.Error.Kind
	}
	for _, f := range l.Findings {
		t.Count(f.Severity)
	}
	return t
}

// read reads the results; end is the offset after the last whole one.
func (l *Log) read(r *bufio.Reader) (end int64, err error) {
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) && (len(line) == 0 || cutShort(line)) {
			return end, nil // a last line without its newline: cut short
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return end, err
		}
		var res logLine
		if jerr := json.Unmarshal(line, &res); err != nil || jerr != nil || res.Schema != LineSchema || res.Input == "" {
			return end, fmt.Errorf("line %d is not a %s result", n, LineSchema)
		}
		l.done[res.Input] = Prior{res.Meta, res.tally()}
		end += int64(len(line))
	}
}

// Len is the number of files the log holds a result of.
func (l *Log) Len() int { return len(l.done) }

// Match is the earlier result of path when it is still good for a file
// that is now m: same size and mtime, or with byHash the same SHA-256;
// never an operational failure (kind "io").
func (l *Log) Match(path string, m *Meta, byHash bool) (Prior, bool) {
	prev, ok := l.done[path]
	switch {
	case !ok, prev.Kind == "io", m.Size == nil:
		return Prior{}, false
	case byHash:
		return prev, prev.SHA256 != "" && prev.SHA256 == m.SHA256
	}
	return prev, prev.Size != nil && *prev.Size == *m.Size && prev.Mtime == m.Mtime
}

// cutShort reports whether line, without its newline, is the start of a
// result (a line is one write, ended by its newline; a kill in the middle
// leaves a part of it, never anything else).
func cutShort(line []byte) bool {
	head := []byte(`{"schema":"` + LineSchema + `"`)
	return bytes.HasPrefix(line, head) || bytes.HasPrefix(head, line)
}

// Writer is where the new results go: the end of the file.
func (l *Log) Writer() io.Writer { return l.f }

// Close closes the file.
func (l *Log) Close() error { return l.f.Close() }
