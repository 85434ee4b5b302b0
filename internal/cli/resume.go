package cli

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

// audit --resume RESULTS.jsonl: the results of an earlier run (killed,
// or of fewer files) are read, the files they hold skipped, and the
// results of the others appended to the same file. A file is skipped when
// its result is there for the same path, as given, with the same size and
// modification time (--resume-by stat) or the same SHA-256 (--resume-by
// sha256), unless that result is an operational failure (kind "io": worth
// retrying); then a later line for the same input supersedes the earlier.

// fileMeta is what a result says of its input for --resume: its size and
// modification time when audit came to it, and its SHA-256 when asked.
type fileMeta struct {
	Size   *int64 `json:"size,omitempty"`   // bytes (absent: the file could not be examined)
	Mtime  string `json:"mtime,omitempty"`  // modification time, RFC 3339 in UTC with nanoseconds
	SHA256 string `json:"sha256,omitempty"` // lower-case hex, with --resume-by sha256
}

// statMeta examines the file at path: its size and mtime, and with hash
// its SHA-256. A file that cannot be examined has none (its audit says
// why).
func statMeta(path string, hash bool) fileMeta {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return fileMeta{}
	}
	size := fi.Size()
	m := fileMeta{Size: &size, Mtime: fi.ModTime().UTC().Format(time.RFC3339Nano)}
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

// resumeLog is the results file of --resume, open for appending.
type resumeLog struct {
	f    *os.File
	done map[string]priorResult // the latest result of each input
}

// priorResult is what is kept of a result read: what --resume compares,
// and what the summary and the exit status count (not the findings: a
// million files' would not fit).
type priorResult struct {
	fileMeta
	tally
}

// openResume reads the results at path (made when missing). A last line
// cut short (a run killed while writing it) is dropped from the file; any
// other line that is not a result is an error: the file is not audit's.
func openResume(cmd, path string) (*resumeLog, error) {
	f, err := pdfio.OpenAppend(path)
	if err != nil {
		return nil, outputError(cmd, "--resume", path, err)
	}
	l := &resumeLog{f: f, done: map[string]priorResult{}}
	end, err := l.read(bufio.NewReader(f))
	if err == nil {
		err = f.Truncate(end)
	}
	if err == nil {
		_, err = f.Seek(end, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, &ioError{fmt.Errorf("%s: --resume %s: %w", cmd, path, err)}
	}
	return l, nil
}

// read reads the results; end is the offset after the last whole one.
func (l *resumeLog) read(r *bufio.Reader) (end int64, err error) {
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) && (len(line) == 0 || cutShort(line)) {
			return end, nil // a last line without its newline: cut short
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return end, err
		}
		var res fileLineJSON
		if jerr := json.Unmarshal(line, &res); err != nil || jerr != nil || res.Schema != schemaName("audit-file") || res.Input == "" {
			return end, fmt.Errorf("line %d is not a %s result", n, schemaName("audit-file"))
		}
		l.done[res.Input] = priorResult{res.fileMeta, tallyOf(res.fileJSON)}
		end += int64(len(line))
	}
}

// match is the earlier result of path when it is still good for a file
// that is now m: same size and mtime, or with byHash the same SHA-256 (m
// has it, or it is computed now); never an operational failure.
func (l *resumeLog) match(path string, m *fileMeta, byHash bool) (priorResult, bool) {
	prev, ok := l.done[path]
	switch {
	case !ok, prev.kind == "io", m.Size == nil:
		return priorResult{}, false
	case byHash:
		return prev, prev.SHA256 != "" && prev.SHA256 == m.SHA256
	}
	return prev, prev.Size != nil && *prev.Size == *m.Size && prev.Mtime == m.Mtime
}

// cutShort reports whether line, without its newline, is the start of a
// result (a line audit wrote is one write, ended by its newline; a kill
// in the middle leaves a part of it, never anything else).
func cutShort(line []byte) bool {
	head := []byte(`{"schema":"` + schemaName("audit-file") + `"`)
	return bytes.HasPrefix(line, head) || bytes.HasPrefix(head, line)
}

func (l *resumeLog) Close() error { return l.f.Close() }

// resumeBys are --resume-by's values.
var resumeBys = []string{"stat", "sha256"}
