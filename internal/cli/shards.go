package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/audit/batch"
	"github.com/webcap/webcap/internal/limits"
)

// The shards webcap report merges: audit --jsonl outputs, indexed. Of a
// file's line only where it is (its shard, offset and length) and its
// counts are kept; the line is read again, and decoded, when the report is
// written, so that a report of a million files holds no million results.

// shardLineJSON is a line of a shard: audit --jsonl's object.
type shardLineJSON struct {
	Schema string `json:"schema"`
	fileResultJSON
}

// A shardLine is where a file's result is (batch.Line).
type shardLine = batch.Line

// A shardSet is the shards read: each one's file (stdin: a temporary
// copy), the one open for reading lines back, and the first error met
// doing it (a shard changed while it was read).
type shardSet struct {
	names []string // as messages say them
	paths []string
	temp  string // the copy of stdin, removed by close
	cur   int    // the shard open in f; -1: none
	f     *os.File
	buf   []byte
	err   error
}

// read reads a shard's lines, a line at a time. A last line without its
// newline that does not parse is a line cut short (a run killed as it
// wrote): skipped, and said on stderr.
func (s *shardSet) read(ctx context.Context, shard string, ios *IOStreams, maxSize int64) ([]shardLine, error) {
	idx := len(s.paths)
	var r io.Reader
	if shard == "-" {
		tmp, err := os.CreateTemp("", "webcap-report-*.jsonl")
		if err != nil {
			return nil, &ioError{fmt.Errorf("report: a copy of stdin: %w", err)}
		}
		defer tmp.Close()
		s.temp = tmp.Name()
		s.names, s.paths = append(s.names, "stdin"), append(s.paths, tmp.Name())
		// The copy is no larger than --max-file-size, as a shard named is.
		r = io.TeeReader(&sizeCap{r: interruptible(ctx, ios.In), max: maxSize}, tmp)
	} else {
		// A regular file (its lines are read again, by offset), no larger
		// than --max-file-size.
		f, _, err := limits.Open(shard, maxSize, maxFileSizeFlag)
		if err != nil {
			return nil, &ioError{fmt.Errorf("report: %w", pathError(err))}
		}
		defer f.Close()
		s.names, s.paths = append(s.names, displayInput(shard)), append(s.paths, shard)
		r = f
	}
	name := s.names[idx]
	lines, err := batch.ReadShard(ctx, r, batch.ShardOptions{Shard: idx, MaxLine: maxShardLine,
		Parse: func(line []byte) (string, tally, error) {
			f, err := parseShardLine(line)
			return f.Input, tallyOf(f.fileJSON), err
		},
		CutShort: func(n, size int) {
			fmt.Fprintf(ios.ErrOut, "webcap: report: %s: line %d is cut short (%d bytes without a newline): skipped\n", name, n, size)
		}})
	var le *batch.LineError
	switch {
	case err == nil:
		return lines, nil
	case ctx.Err() != nil && errors.Is(err, context.Cause(ctx)):
		return nil, err
	case errors.As(err, &le):
		return nil, &invalidError{fmt.Errorf("report: %s: %w", name, le)}
	case errors.Is(err, limits.ErrLimit):
		return nil, fmt.Errorf("report: %s: %w", name, err)
	}
	if _, ok := err.(*fs.PathError); ok { // it names the file
		return nil, &ioError{fmt.Errorf("report: %w", pathError(err))}
	}
	return nil, &ioError{fmt.Errorf("report: %s: %w", name, err)}
}

// maxShardLine is the longest line of a shard report reads
// (batch.MaxLine): a variable for tests.
var maxShardLine = batch.MaxLine

// sizeCap is a stream that fails once it gives more than max bytes (max
// <= 0: none): stdin is read as a shard named is, within --max-file-size.
type sizeCap struct {
	r   io.Reader
	n   int64
	max int64
}

func (c *sizeCap) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.max > 0 && c.n > c.max {
		return 0, &limits.SizeError{Size: c.n, Max: c.max, Flag: maxFileSizeFlag}
	}
	return n, err
}

// parseShardLine reads a line of a shard: an audit --jsonl object.
func parseShardLine(line []byte) (fileResultJSON, error) {
	var l shardLineJSON
	if err := json.Unmarshal(line, &l); err != nil {
		return l.fileResultJSON, err
	}
	if l.Schema != schemaName("audit-file") || l.Input == "" {
		return l.fileResultJSON, fmt.Errorf("not an audit --jsonl object (schema %q)", l.Schema)
	}
	if l.Findings == nil {
		l.Findings = []findingJSON{}
	}
	return l.fileResultJSON, nil
}

// merge keeps one line per file (batch.Merge).
func (s *shardSet) merge(all []shardLine) (shardResults, int) {
	kept, dups := batch.Merge(all)
	return shardResults{set: s, lines: kept}, dups
}

// line reads l's line back.
func (s *shardSet) line(l shardLine) ([]byte, error) {
	if s.cur != l.Shard {
		if s.f != nil {
			s.f.Close()
		}
		f, err := os.Open(s.paths[l.Shard])
		if err != nil {
			s.f, s.cur = nil, -1
			return nil, err
		}
		s.f, s.cur = f, l.Shard
	}
	b, err := l.Read(s.f, s.buf)
	if err == nil {
		s.buf = b
	}
	return b, err
}

// close closes the shard open and removes the copy of stdin.
func (s *shardSet) close() {
	if s.f != nil {
		s.f.Close()
	}
	if s.temp != "" {
		os.Remove(s.temp)
	}
}

// shardResults are the merged lines, as export reads them.
type shardResults struct {
	set   *shardSet
	lines []shardLine
}

func (s shardResults) Len() int                  { return len(s.lines) }
func (s shardResults) At(i int) audit.FileResult { return s.file(i).result() }

// file reads and decodes the i-th line, with its status. A line that no
// longer reads as it did (its shard changed since) is the set's error,
// and an empty result.
func (s shardResults) file(i int) fileResultJSON {
	l := s.lines[i]
	b, err := s.set.line(l)
	var f fileResultJSON
	if err == nil {
		f, err = parseShardLine(b)
	}
	if err == nil && f.Input != l.Input {
		err = fmt.Errorf("the line of %s is another file's", l.Input)
	}
	if err != nil {
		if s.set.err == nil {
			s.set.err = fmt.Errorf("%s changed while it was read: %v", s.set.names[l.Shard], err)
		}
		f = fileResultJSON{fileJSON: fileJSON{Input: l.Input, Findings: []findingJSON{}}}
	}
	f.Status = fileStatus(f.fileJSON)
	return f
}
