package batch

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
)

// A shard's line is refused at its first byte that is not a space when
// that is not "{", and once it is longer than the longest line, before it
// is read whole.
func TestReadLine(t *testing.T) {
	tests := []struct {
		name, in string
		line     string // the line read, when no error
		err      string // the error's message
	}{
		{"object", "{\"a\":1}\nnext", "{\"a\":1}\n", ""},
		{"blank", "  \n{}", "  \n", ""},
		{"last, cut short", "{\"a\"", "{\"a\"", ""},
		{"zeros", strings.Repeat("\x00", 1<<20), "", `not an audit --jsonl object: it starts with "` + strings.Repeat(`\x00`, 16) + `"`}, // the buffer's 16,
		{"text", "  hello\n", "", `not an audit --jsonl object: it starts with "hello"`},
		{"too long", "{" + strings.Repeat(" ", 1<<20), "", "longer than 0 MiB, the longest line report reads"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// A buffer smaller than the input: the line comes in pieces.
			got, err := ReadLine(bufio.NewReaderSize(strings.NewReader(tc.in), 16), 64)
			var le *LineError
			switch {
			case tc.err != "" && (!errors.As(err, &le) || le.Err.Error() != tc.err):
				t.Errorf("ReadLine(%.20q): %v, want %q", tc.in, err, tc.err)
			case tc.err == "" && ((err != nil && err != io.EOF) || string(got) != tc.line):
				t.Errorf("ReadLine(%.20q) = %q, %v; want %q", tc.in, got, err, tc.line)
			}
		})
	}
}
