package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/audit/export"
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

// A shardLine is where a file's result is.
type shardLine struct {
	input string
	shard int
	off   int64
	n     int
	t     tally // what it counts for
}

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
	br := bufio.NewReaderSize(r, 1<<16)
	var lines []shardLine
	var off int64
	for n := 1; ; n++ {
		line, err := readShardLine(br)
		if err := checkInterrupt(ctx); err != nil {
			return nil, err
		}
		var le *shardLineError
		switch {
		case errors.As(err, &le):
			return nil, &invalidError{fmt.Errorf("report: %s: line %d: %w", name, n, err)}
		case errors.Is(err, limits.ErrLimit):
			return nil, fmt.Errorf("report: %s: %w", name, err)
		case err != nil && err != io.EOF:
			if _, ok := err.(*fs.PathError); ok { // it names the file
				return nil, &ioError{fmt.Errorf("report: %w", pathError(err))}
			}
			return nil, &ioError{fmt.Errorf("report: %s: %w", name, err)}
		}
		complete := err == nil
		if len(bytes.TrimSpace(line)) > 0 {
			f, perr := parseShardLine(line)
			switch {
			case perr != nil && !complete:
				fmt.Fprintf(ios.ErrOut, "webcap: report: %s: line %d is cut short (%d bytes without a newline): skipped\n", name, n, len(line))
			case perr != nil:
				return nil, &invalidError{fmt.Errorf("report: %s: line %d: %v", name, n, perr)}
			default:
				l := shardLine{input: f.Input, shard: idx, off: off, n: len(line)}
				l.t = tallyOf(f.fileJSON)
				lines = append(lines, l)
			}
		}
		off += int64(len(line))
		if !complete {
			return lines, nil
		}
	}
}

// maxShardLine is the longest line of a shard report reads: an audit-file
// line of some million findings. The JSON a line holds is decoded whole,
// so that a longer one (a file of no newline) would be held whole; audit
// writes every finding of a file there, without a cap, and a file whose
// line is longer cannot be reported. A variable for tests.
var maxShardLine = 256 << 20

// A shardLineError is a line that cannot be an audit --jsonl object, told
// before it is read whole: one longer than maxShardLine, or one that does
// not start with "{" (a file of zeros, of text, of another format).
type shardLineError struct{ msg string }

func (e *shardLineError) Error() string { return e.msg }

// readShardLine reads a line of a shard, with its newline; io.EOF with
// the last one if it has none. A line is refused as soon as its first
// byte that is not a space is not "{", or once it passes maxShardLine.
func readShardLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	opened := false
	for {
		frag, err := br.ReadSlice('\n')
		if !opened {
			if t := bytes.TrimLeft(frag, " \t\r\n"); len(t) > 0 {
				if t[0] != '{' {
					return nil, &shardLineError{fmt.Sprintf("not an audit --jsonl object: it starts with %.20q", bytes.TrimRight(t, "\r\n"))}
				}
				opened = true
			}
		}
		if len(line)+len(frag) > maxShardLine {
			return nil, &shardLineError{fmt.Sprintf("longer than %d MiB, the longest line report reads", maxShardLine>>20)}
		}
		line = append(line, frag...)
		if err != bufio.ErrBufferFull {
			return line, err
		}
	}
}

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

// merge keeps one line per file, as export.Merge decides.
func (s *shardSet) merge(all []shardLine) (shardResults, int) {
	keep, dups := export.Merge(len(all), func(i int) string { return all[i].input })
	out := shardResults{set: s, lines: make([]shardLine, len(keep))}
	for i, k := range keep {
		out.lines[i] = all[k]
	}
	return out, dups
}

// line reads l's line back.
func (s *shardSet) line(l shardLine) ([]byte, error) {
	if s.cur != l.shard {
		if s.f != nil {
			s.f.Close()
		}
		f, err := os.Open(s.paths[l.shard])
		if err != nil {
			s.f, s.cur = nil, -1
			return nil, err
		}
		s.f, s.cur = f, l.shard
	}
	if cap(s.buf) < l.n {
		s.buf = make([]byte, l.n)
	}
	b := s.buf[:l.n]
	if _, err := s.f.ReadAt(b, l.off); err != nil {
		return nil, err
	}
	return b, nil
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
	if err == nil && f.Input != l.input {
		err = fmt.Errorf("the line of %s is another file's", l.input)
	}
	if err != nil {
		if s.set.err == nil {
			s.set.err = fmt.Errorf("%s changed while it was read: %v", s.set.names[l.shard], err)
		}
		f = fileResultJSON{fileJSON: fileJSON{Input: l.input, Findings: []findingJSON{}}}
	}
	f.Status = fileStatus(f.fileJSON)
	return f
}
