package cli

import (
	"bytes"
	"io"
	"os"
)

// IOStreams are the streams a command reads and writes; commands never touch
// os.Stdin, os.Stdout or os.Stderr directly.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// OutTTY reports whether Out is a terminal: output is then flushed line
	// by line, and not otherwise.
	OutTTY bool
}

// System returns the process's standard streams.
func System() *IOStreams {
	return &IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr, OutTTY: isTerminal(os.Stdout)}
}

// Test returns streams backed by buffers, for tests.
func Test() (ios *IOStreams, in, out, errOut *bytes.Buffer) {
	in, out, errOut = new(bytes.Buffer), new(bytes.Buffer), new(bytes.Buffer)
	return &IOStreams{In: in, Out: out, ErrOut: errOut}, in, out, errOut
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
