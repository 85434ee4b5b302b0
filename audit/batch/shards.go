package batch

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/webcap/webcap/audit/export"
)

// Merging shards: the results of runs that each took a part of the files
// (audit --jsonl outputs, a line per file), made one report, as if one run
// had read every file. Of a file's line only where it is (its shard,
// offset and length) and what it counts for are kept; the line is read
// again (Line.Read) when the report is written, so that a report of a
// million files holds no million results.

// MaxLine is the longest line of a shard read by default: a result of
// some million findings. A line is decoded whole, so that a longer one (a
// file of no newline) would be held whole.
const MaxLine = 256 << 20

// A Line is where a file's result is in a shard, and what it counts for.
type Line struct {
	Input string
	Shard int   // the shard's number, as ReadShard was given it
	Off   int64 // the line's offset in the shard
	N     int   // its length, its newline included
	Tally Tally
}

// A LineError is a line of a shard that is not a result: told before it
// is read whole when its first byte that is not a space is not "{", or
// once it passes the longest line read; or after, as the parser says.
type LineError struct {
	Line int   // 1 for the first
	Err  error // what is wrong
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// ShardOptions say how a shard is read.
type ShardOptions struct {
	Shard   int // the shard's number, for its lines
	MaxLine int // the longest line; 0: MaxLine
	// Parse reads a line: the file it is the result of, and what it counts
	// for; an error says it is no result.
	Parse func(line []byte) (input string, t Tally, err error)
	// CutShort is told of a last line without its newline that does not
	// parse (a run killed as it wrote): it is skipped. n is its number.
	CutShort func(n, size int)
}

// ReadShard reads a shard's lines, a line at a time, and returns where
// each result is. A line that is not a result is a *LineError; the
// reader's errors are returned as they are, and ctx's when it is done.
func ReadShard(ctx context.Context, r io.Reader, opts ShardOptions) ([]Line, error) {
	maxLine := opts.MaxLine
	if maxLine <= 0 {
		maxLine = MaxLine
	}
	br := bufio.NewReaderSize(r, 1<<16)
	var lines []Line
	var off int64
	for n := 1; ; n++ {
		line, err := ReadLine(br, maxLine)
		if cerr := context.Cause(ctx); ctx.Err() != nil {
			return nil, cerr
		}
		if le, ok := err.(*LineError); ok {
			le.Line = n
			return nil, le
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
		complete := err == nil
		if len(bytes.TrimSpace(line)) > 0 {
			input, t, perr := opts.Parse(line)
			switch {
			case perr != nil && !complete:
				if opts.CutShort != nil {
					opts.CutShort(n, len(line))
				}
			case perr != nil:
				return nil, &LineError{n, perr}
			default:
				lines = append(lines, Line{Input: input, Shard: opts.Shard, Off: off, N: len(line), Tally: t})
			}
		}
		off += int64(len(line))
		if !complete {
			return lines, nil
		}
	}
}

// ReadLine reads a line of a shard, with its newline; io.EOF with the
// last one if it has none. A line is refused (a *LineError, its Line 0)
// as soon as its first byte that is not a space is not "{", or once it
// passes maxLine bytes.
func ReadLine(br *bufio.Reader, maxLine int) ([]byte, error) {
	var line []byte
	opened := false
	for {
		frag, err := br.ReadSlice('\n')
		if !opened {
			if t := bytes.TrimLeft(frag, " \t\r\n"); len(t) > 0 {
				if t[0] != '{' {
					return nil, &LineError{Err: fmt.Errorf("not an audit --jsonl object: it starts with %.20q", bytes.TrimRight(t, "\r\n"))}
				}
				opened = true
			}
		}
		if len(line)+len(frag) > maxLine {
			return nil, &LineError{Err: fmt.Errorf("longer than %d MiB, the longest line report reads", maxLine>>20)}
		}
		line = append(line, frag...)
		if err != bufio.ErrBufferFull {
			return line, err
		}
	}
}

// Merge keeps one line per file, as export.Merge decides: a file in more
// than one shard (or twice in one: a resumed run) keeps its last result,
// in the place of its first. dups is the number of such files.
func Merge(all []Line) (kept []Line, dups int) {
	keep, dups := export.Merge(len(all), func(i int) string { return all[i].Input })
	kept = make([]Line, len(keep))
	for i, k := range keep {
		kept[i] = all[k]
	}
	return kept, dups
}

// Read reads the line back from its shard, into buf when it is large
// enough.
func (l Line) Read(shard io.ReaderAt, buf []byte) ([]byte, error) {
	if cap(buf) < l.N {
		buf = make([]byte, l.N)
	}
	b := buf[:l.N]
	if _, err := shard.ReadAt(b, l.Off); err != nil {
		return nil, err
	}
	return b, nil
}
