package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"golang.org/x/term"
)

// IOStreams are the streams a command reads and writes; commands never touch
// os.Stdin, os.Stdout or os.Stderr directly.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// OutTTY reports whether Out is a terminal: output is then flushed line
	// by line, and not otherwise. ErrTTY is the same for ErrOut: progress
	// bars are drawn there only then.
	OutTTY, ErrTTY bool
	// ReadPassword asks for a password on the terminal, without echo; nil
	// when stdin is not a terminal (nothing is then asked).
	ReadPassword func(prompt string) (string, error)
}

// System returns the process's standard streams.
func System() *IOStreams {
	ios := &IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr, OutTTY: isTerminal(os.Stdout), ErrTTY: isTerminal(os.Stderr)}
	if isTerminal(os.Stdin) {
		ios.ReadPassword = func(prompt string) (string, error) {
			fmt.Fprint(os.Stderr, prompt)
			b, err := term.ReadPassword(int(os.Stdin.Fd()))
			fmt.Fprintln(os.Stderr)
			return string(b), err
		}
	}
	return ios
}

// Test returns streams backed by buffers, for tests.
func Test() (ios *IOStreams, in, out, errOut *bytes.Buffer) {
	in, out, errOut = new(bytes.Buffer), new(bytes.Buffer), new(bytes.Buffer)
	return &IOStreams{In: in, Out: out, ErrOut: errOut}, in, out, errOut
}

// isTerminal reports whether f is a terminal (golang.org/x/term: a
// character device such as /dev/null is not one).
func isTerminal(f *os.File) bool {
	return term.IsTerminal(int(f.Fd()))
}
