package cli

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/internal/limits"
	"github.com/webcap/webcap/pdfio"
)

// The bounds of every command that reads PDFs, defined once: --timeout
// (one deadline for the whole operation; audit's is per file),
// --max-file-size (every file the command reads: PDFs, manifests,
// sources, password files) and --max-memory (a ceiling on the heap,
// watched while the command works). What passing each means is decided by
// internal/limits; a limit passed exits 4 (exitCode).

// limitFlags are --timeout, --max-file-size and --max-memory.
type limitFlags struct {
	Timeout        time.Duration
	MaxFileSize    byteSize
	MaxMemory      byteSize
	maxMemoryGiven bool // --max-memory was given
	perFile        bool // audit: Timeout bounds each file, not the run
	workerMemory   bool // audit: MaxMemory bounds each worker process, not this one
}

// Flag names, as the errors of the limits name them.
const (
	timeoutFlag     = "--timeout"
	maxFileSizeFlag = "--max-file-size"
	maxMemoryFlag   = "--max-memory"
)

// addLimitFlags adds the three flags; timeout is --timeout's default,
// timeoutUsage and memoryUsage say what they bound in this command.
func (l *limitFlags) add(cmd *cobra.Command, timeout time.Duration, timeoutUsage, memoryUsage string) {
	f := cmd.Flags()
	f.DurationVar(&l.Timeout, "timeout", timeout, timeoutUsage)
	l.addMaxFileSize(cmd)
	l.MaxMemory = defaultMaxMemory
	f.Var(givenSize{&l.MaxMemory, &l.maxMemoryGiven}, "max-memory", memoryUsage)
}

// addMaxFileSize adds --max-file-size alone, to the commands whose
// --timeout is another's (append and refresh: the fetch's).
func (l *limitFlags) addMaxFileSize(cmd *cobra.Command) {
	l.MaxFileSize = pdfio.DefaultMaxFileSize
	cmd.Flags().Var(&l.MaxFileSize, "max-file-size", "refuse an input file larger than `SIZE` before reading it (500MB, 4GiB)")
}

// addReadLimits adds the flags to a command that reads PDFs and bounds its
// whole run.
func (l *limitFlags) addReadLimits(cmd *cobra.Command) {
	l.add(cmd, pdfio.DefaultTimeout, "stop the command if it takes longer than `D` (exit 4)",
		"stop the command if it needs more memory than `SIZE` (exit 4; default: 1 GiB)")
}

// check checks what the flags' types do not.
func (l *limitFlags) check(cmd string) error {
	switch {
	case l.Timeout <= 0:
		return usagef("%s: --timeout %v: want a positive duration", cmd, l.Timeout)
	case l.maxMemoryGiven && l.MaxMemory < minMaxMemory:
		least := byteSize(minMaxMemory)
		return usagef("%s: --max-memory %v: want at least %v", cmd, &l.MaxMemory, &least)
	}
	return nil
}

// defaultMaxMemory is --max-memory's default (limits.DefaultMemory).
const defaultMaxMemory = byteSize(limits.DefaultMemory)

// givenSize is a size flag that records whether it was given.
type givenSize struct {
	*byteSize
	given *bool
}

// String is "" until the flag is given: its help says the default in its
// own words (cobra would otherwise print "(default 1.0 GiB)" beside it).
func (g givenSize) String() string {
	if g.given == nil || !*g.given || g.byteSize == nil {
		return ""
	}
	return g.byteSize.String()
}

func (g givenSize) Set(v string) error {
	*g.given = true
	return g.byteSize.Set(v)
}

// minMaxMemory is the least --max-memory: what a worker's threads and
// runtime need (at 8 MiB it cannot start its threads).
const minMaxMemory = 64 << 20

// pdfOptions are the options of every PDF read under the limits: ctx (a
// bound one) stops the read, --max-file-size refuses a larger file, and
// --timeout bounds pdfcpu's parse as well.
func (l *limitFlags) pdfOptions(ctx context.Context) pdfio.Options {
	return pdfio.Options{Context: ctx, MaxFileSize: int64(l.MaxFileSize), Timeout: l.Timeout}
}

// readFile reads an input file whole: a regular file no larger than
// --max-file-size (limits.ReadFile). A file that is not one, or that
// cannot be read, is an I/O error (exit 3); one too large, a limit passed
// (exit 4).
func (l *limitFlags) readFile(cmd, path string) ([]byte, error) {
	b, err := limits.ReadFile(path, int64(l.MaxFileSize), maxFileSizeFlag)
	if err != nil {
		return nil, &ioError{fmt.Errorf("%s: %w", cmd, pathError(err))}
	}
	return b, nil
}

// sayFlag names --max-file-size in the error of a file larger than it
// that a library found (pdfio, record: they know no flags), so that every
// command says which flag to give; err is returned.
func sayFlag(err error) error {
	var se *limits.SizeError
	if errors.As(err, &se) && se.Flag == "" {
		se.Flag = maxFileSizeFlag
	}
	return err
}

// stopError is the error of a command that stops because ctx is done: an
// interrupt as it is (Main says it), a limit passed prefixed by the
// command and the file it was at, if any ("fix: a.pdf: took longer than
// --timeout 2s").
func stopError(ctx context.Context, cmd, file string) error {
	cause := context.Cause(ctx)
	var in *interrupted
	if errors.As(cause, &in) {
		return cause
	}
	if file != "" {
		return fmt.Errorf("%s: %s: %w", cmd, file, cause)
	}
	return fmt.Errorf("%s: %w", cmd, cause)
}

// stopGrace is how long a command whose limit passed (or that was
// interrupted) has to return after its context is done, before bound
// returns without it: work blocked where it does not look at its context
// (a system call, a long decode inside pdfcpu) is left behind, and the
// process exits.
var stopGrace = 2 * time.Second

// stopHold keeps run from returning while a command writes its output
// (holdStop): a command stopped then would leave a temporary file behind,
// or half an output on stdout. Writing an output is bounded by the writer.
type stopHold struct{ sync.Mutex }

type stopHoldKey struct{}

// holdStop marks the start of a part of the command's work that run must
// not leave behind (writing its output); release marks its end. Outside
// run, it does nothing.
func holdStop(ctx context.Context) (release func()) {
	h, ok := ctx.Value(stopHoldKey{}).(*stopHold)
	if !ok {
		return func() {}
	}
	h.Lock()
	return h.Unlock
}

// boundedCommand is the options of a command bound by limitFlags: the
// flags, the command's name, and the files it reads (for --max-memory's
// default and for messages).
type boundedCommand interface {
	bounds() (l *limitFlags, cmd string, files []string)
}

// bounded runs a command under its limits (limitFlags.run).
func bounded[T any, P interface {
	*T
	boundedCommand
}](run func(context.Context, *T) error) func(context.Context, *T) error {
	return func(ctx context.Context, opts *T) error {
		l, cmd, files := P(opts).bounds()
		return l.run(ctx, cmd, files, func(ctx context.Context) error { return run(ctx, opts) })
	}
}

// run runs f under the limits: its context is done once --timeout passes
// (unless per file: audit's workers are bound by their pool) or the heap
// grows past --max-memory, with a cause wrapping limits.ErrLimit that the
// command's readers return. Should f not return within stopGrace of its
// context being done, run returns the cause itself, naming the file when
// the command reads one.
func (l *limitFlags) run(ctx context.Context, cmd string, files []string, f func(context.Context) error) error {
	cancel := context.CancelFunc(func() {})
	if !l.perFile {
		ctx, cancel = limits.Deadline(ctx, l.Timeout, timeoutFlag)
	}
	defer cancel()
	if !l.workerMemory {
		var stop func()
		ctx, stop = limits.WatchMemory(ctx, int64(l.MaxMemory), maxMemoryFlag)
		defer stop()
	}
	hold := &stopHold{}
	ctx = context.WithValue(ctx, stopHoldKey{}, hold)
	done := make(chan error, 1)
	go func() { done <- f(ctx) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	t := time.NewTimer(stopGrace)
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-t.C:
	}
	hold.Lock() // an output being written is written first
	select {
	case err := <-done:
		return err
	default:
	}
	file := ""
	if len(files) == 1 {
		file = files[0]
	}
	return stopError(ctx, cmd, file)
}
