package cli

import (
	"errors"
	"fmt"

	"github.com/webcap/webcap/audit/batch"
)

// audit --resume RESULTS.jsonl: the library decides (audit/batch's Log):
// the results of an earlier run are read, the files they hold with the
// same size and mtime (--resume-by stat) or SHA-256 (--resume-by sha256)
// skipped, unless the result is an operational failure (kind "io"), and
// the results of the others appended to the same file.

// fileMeta is what a result says of its input for --resume: its size and
// modification time when audit came to it, and its SHA-256 when asked (a
// batch.Meta, with the comments the JSON schema takes).
type fileMeta struct {
	Size   *int64 `json:"size,omitempty"`   // bytes (absent: the file could not be examined)
	Mtime  string `json:"mtime,omitempty"`  // modification time, RFC 3339 in UTC with nanoseconds
	SHA256 string `json:"sha256,omitempty"` // lower-case hex, with --resume-by sha256
}

// statMeta examines the file at path (batch.Stat).
func statMeta(path string, hash bool) fileMeta { return fileMeta(batch.Stat(path, hash)) }

// priorResult is a result --resume read (batch.Prior).
type priorResult = batch.Prior

// resumeLog is the results file of --resume, open for appending.
type resumeLog struct {
	*batch.Log
}

// openResume reads the results at path (made when missing): a usage or
// I/O error names --resume.
func openResume(cmd, path string) (*resumeLog, error) {
	l, err := batch.OpenLog(path)
	var le *batch.LogError
	switch {
	case errors.As(err, &le):
		return nil, &ioError{fmt.Errorf("%s: --resume %s: %w", cmd, path, le.Err)}
	case err != nil:
		return nil, outputError(cmd, "--resume", path, err)
	}
	return &resumeLog{l}, nil
}

func (l *resumeLog) match(path string, m *fileMeta, byHash bool) (priorResult, bool) {
	bm := batch.Meta(*m)
	return l.Match(path, &bm, byHash)
}

// resumeBys are --resume-by's values.
var resumeBys = []string{"stat", "sha256"}
