package cli

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/internal/limits"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/seal"
	"github.com/webcap/webcap/warc"
	"github.com/webcap/webcap/webcapture"
)

// Exit codes, documented in the exit-codes help topic (exitCodesHelp).
const (
	exitOK      = 0 // success
	exitFailed  = 1 // at least one input failed; each failure is on stderr
	exitUsage   = 2 // bad command line: unknown command or flag, bad flag value, wrong arguments
	exitIOError = 3 // a file or stream could not be read or written: worth retrying
	exitInvalid = 4 // an input is not a PDF, too damaged to parse, or hostile: never worth retrying
	// An interrupt exits 128 + the signal's number (130: Ctrl-C, 143:
	// TERM; interrupted.code); what was done before is kept.
)

const exitCodesHelp = `webcap exits with one of these codes, the same in every command:

    0  success
    1  an input was read but failed; each failure is said on stderr, and
       the other inputs are still done:
         canon    a URL that cannot be canonicalized
         id       an identifier left incomplete (an auxiliary file not read)
         lookup   a URL or identifier that is not in the file
         audit    a file with an error finding
         build    a manifest that is wrong, or a result with audit errors
         fix      a result with audit errors, or URLS keys that would collide
         capture, append
                  no page captured, or a result with audit errors
         refresh  nothing to re-run or check, or a result with audit errors
                  (with --dry-run: a page that is not unchanged)
       (info has no 1: a file it can read is shown, defects and all)
    2  usage error, found before anything is read, fetched or started:
       unknown command or flag, bad flag value, wrong arguments, a start
       URL that cannot be captured
    3  a file or stream could not be read or written, an operational
       failure worth retrying: an input that is missing, a directory, or
       encrypted with a password not given (or a wrong one); an output that
       cannot be written; Chromium that cannot be started; a time-stamping
       authority, OCSP responder or CRL server that fails (seal, --timestamp-url)
    4  an input is not a PDF, is too damaged to parse, or is hostile (larger
       than --max-file-size, its reading outlived --timeout, needed more
       than --max-memory, or crashed the reader; a mirror or manifest whose
       link or path leads outside its directory, without --allow-outside;
       a WARC file that is not valid, or passes one of its limits; report's
       shard that is not audit --jsonl's): a finding about the file, which
       reading it again will not change
  130  interrupted by Ctrl-C (143: by a TERM signal, 129: by HUP), said as
       "webcap: COMMAND: interrupted"; capture, append and refresh write
       what they captured before it, and say so; build and fix write nothing;
       no temporary file or Chromium profile is left

Every failure is one line: "webcap: COMMAND: FILE: what is wrong" (or
"webcap: COMMAND: what is wrong"); a usage error is followed by
"Run 'webcap COMMAND --help' for usage."

A command that reads many inputs (audit, info, id) and meets several
kinds of failure exits with the most urgent: 3 wins over 4, which wins
over 1. In JSON, a failure's "kind" says its code: "failed" (1), "io" (3),
"invalid" (4), "interrupted" (130, 143).
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

// invalidError marks an input that is not a PDF, too damaged to parse, or
// hostile: a finding about the file, not an operational failure.
type invalidError struct{ err error }

func (e *invalidError) Error() string { return e.err.Error() }
func (e *invalidError) Unwrap() error { return e.err }

// failures counts the failures of a command that reads many inputs, by
// the exit code each makes; err is the command's: 3 wins over 4 wins over
// 1 (an operational failure is the one to act on: retry the run).
type failures struct{ failed, io, invalid int }

func (f *failures) add(err error) {
	switch exitCode(err) {
	case exitIOError:
		f.io++
	case exitInvalid:
		f.invalid++
	default:
		f.failed++
	}
}

// addKind counts a failure said in JSON by its kind.
func (f *failures) addKind(kind string) {
	switch kind {
	case "io":
		f.io++
	case "invalid":
		f.invalid++
	default:
		f.failed++
	}
}

func (f failures) err() error {
	switch {
	case f.io > 0:
		return &ioError{errFailed}
	case f.invalid > 0:
		return &invalidError{errFailed}
	case f.failed > 0:
		return errFailed
	}
	return nil
}

// errFailed reports that some inputs failed; each failure has already been
// reported, so nothing more is printed.
var errFailed = errors.New("some inputs failed")

// exitCode is the one place that maps an error to an exit code. A PDF
// that cannot be read is, in every command, either a finding about the
// file (pdfio.Error.Invalid: not a PDF, does not parse, over a limit; 4)
// or, as a file that cannot be opened, an I/O error (3: encrypted with no
// password, cannot be read).
func exitCode(err error) int {
	var ue *usageError
	var ie *ioError
	var ve *invalidError
	var in *interrupted
	var pe *pdfio.Error
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &in):
		return in.code()
	case errors.As(err, &ue), isCobraUsage(err):
		return exitUsage
	case errors.Is(err, limits.ErrLimit): // a file too large, --timeout or --max-memory passed
		return exitInvalid
	case errors.As(err, &ie):
		return exitIOError
	case errors.Is(err, seal.ErrService), errors.Is(err, seal.ErrSigner): // a TSA, OCSP or CRL server that failed; credentials that cannot be used
		return exitIOError
	case errors.As(err, &ve), errors.As(err, &pe) && pe.Invalid(), errors.Is(err, webcapture.ErrRefused),
		errors.Is(err, warc.ErrFormat): // a WARC file that is not one, or passes its limits
		return exitInvalid
	case pe != nil && pe.Unreadable():
		return exitIOError
	}
	return exitFailed
}

// commandPrefix is "COMMAND: " for a command's messages, "" for the root
// (Main says "webcap: " before every message).
func commandPrefix(cmd *cobra.Command) string {
	if cmd == nil || !cmd.HasParent() {
		return ""
	}
	return strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ") + ": "
}

// cobraArgs matches the errors of cobra's argument checks (cobra.ExactArgs
// and its kin), which carry no type.
var cobraArgs = regexp.MustCompile(`^(requires at least|accepts at most|accepts) (\d+) arg\(s\), (?:only )?received (\d+)$`)

// cobraUsage says cobra's own command-line errors as webcap says its
// usage errors, prefixed by the command ("fix: want 1 argument (FILE -o
// OUT.pdf), got 2"; "version: unexpected argument "x""); other errors
// are returned as they are.
func cobraUsage(cmd *cobra.Command, err error) error {
	var ue *usageError
	if err == nil || errors.As(err, &ue) || !isCobraUsage(err) {
		return err
	}
	msg := err.Error()
	if m := cobraArgs.FindStringSubmatch(msg); m != nil && cmd != nil {
		want := map[string]string{"requires at least": "at least ", "accepts at most": "at most ", "accepts": ""}[m[1]]
		n, _ := strconv.Atoi(m[2])
		return usagef("%swant %s%s (%s), got %s", commandPrefix(cmd), want, plural(n, "argument"), argsSynopsis(cmd), m[3])
	}
	if cmd != nil && cmd.HasParent() && strings.HasSuffix(msg, fmt.Sprintf(" for %q", cmd.CommandPath())) {
		// cobra.NoArgs ("unknown command"), cobra.OnlyValidArgs ("invalid
		// argument").
		arg := strings.TrimSuffix(msg, fmt.Sprintf(" for %q", cmd.CommandPath()))
		if rest, ok := strings.CutPrefix(arg, "invalid argument "); ok {
			return usagef("%sinvalid argument %s: want %s", commandPrefix(cmd), rest, argsSynopsis(cmd))
		}
		return usagef("%sunexpected argument %s", commandPrefix(cmd), strings.TrimPrefix(arg, "unknown command "))
	}
	if rest, ok := strings.CutPrefix(msg, "unknown command "); ok {
		// "unknown command "x" for "webcap"", and cobra's suggestions after it.
		name, tail, _ := strings.Cut(rest, " for ")
		_, sugg, _ := strings.Cut(tail, "\n")
		if sugg != "" {
			sugg = "\n" + sugg
		}
		return usagef("%sunknown command %s%s", commandPrefix(cmd), name, strings.TrimRight(sugg, "\n"))
	}
	return &usageError{fmt.Errorf("%s%w", commandPrefix(cmd), err)}
}

// argsSynopsis is the arguments a command's Use line names ("FILE -o
// OUT.pdf" of "fix [flags] FILE -o OUT.pdf").
func argsSynopsis(cmd *cobra.Command) string {
	f := strings.Fields(cmd.Use)
	var out []string
	for _, w := range f[1:] {
		if w != "[flags]" {
			out = append(out, w)
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, " ")
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
