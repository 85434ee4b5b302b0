package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/webcap/webcap/pdfio"
)

// Exit codes, documented in the exit-codes help topic (exitCodesHelp).
const (
	exitOK      = 0 // success
	exitFailed  = 1 // at least one input failed; each failure is on stderr
	exitUsage   = 2 // bad command line: unknown command or flag, bad flag value, wrong arguments
	exitIOError = 3 // a file or stream could not be read or written, or an input file is no readable PDF
	// An interrupt exits 128 + the signal's number (130: Ctrl-C, 143:
	// TERM; interrupted.code); what was done before is kept.
)

const exitCodesHelp = `webcap exits with one of these codes:

    0  success
    1  at least one input failed (canon: a URL could not be canonicalized);
       each failure is reported on stderr and the other inputs are still done
    2  usage error: unknown command or flag, bad flag value, wrong arguments
    3  a file or stream could not be read or written: an input that is
       missing, a directory, not a PDF, too damaged to parse, or encrypted
       with a password not given; an output that cannot be written
  130  interrupted by Ctrl-C (143: by a TERM signal); capture, append and
       refresh write what they captured before it, and say so
`

// usageError marks an error in the command line.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// ioError marks a failure to read or write a file or stream.
type ioError struct{ err error }

func (e *ioError) Error() string { return e.err.Error() }
func (e *ioError) Unwrap() error { return e.err }

// errFailed reports that some inputs failed; each failure has already been
// reported, so nothing more is printed.
var errFailed = errors.New("some inputs failed")

// exitCode is the one place that maps an error to an exit code. A PDF
// that cannot be read, whatever the reason (pdfio.Error.Unreadable: it
// cannot be opened, is not a PDF, does not parse, is encrypted), is an I/O
// error in every command, as a file that cannot be opened is.
func exitCode(err error) int {
	var ue *usageError
	var ie *ioError
	var in *interrupted
	var pe *pdfio.Error
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &in):
		return in.code()
	case errors.As(err, &ue), isCobraUsage(err):
		return exitUsage
	case errors.As(err, &ie), errors.As(err, &pe) && pe.Unreadable():
		return exitIOError
	}
	return exitFailed
}

// isCobraUsage recognizes the command-line errors cobra makes itself, which
// carry no type.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand flag",
		"flag needs an argument", "invalid argument", "accepts ", "requires at least", "bad flag syntax"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}
