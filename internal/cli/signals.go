package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// interrupted is the cause of a context cancelled by a signal (Ctrl-C, or
// a TERM from a supervisor). It is context.Canceled to the libraries, which
// stop and keep what they did; the command reports it and exits 128 plus
// the signal's number (130 for Ctrl-C).
type interrupted struct {
	sig      os.Signal
	reported bool // the command has said what it kept: Main prints nothing more
}

func (e *interrupted) Error() string        { return fmt.Sprintf("interrupted (%v)", e.sig) }
func (e *interrupted) Is(target error) bool { return target == context.Canceled }

func (e *interrupted) code() int {
	if s, ok := e.sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 130
}

// checkInterrupt returns the signal that cancelled ctx, if one has: a
// command that writes calls it before it writes, so that Ctrl-C during
// its work leaves nothing written.
func checkInterrupt(ctx context.Context) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return nil
}

// interruptible is r read so that a Read blocked on a stream that sends
// nothing (a terminal, a pipe) returns the context's cause as soon as ctx
// is done. Each Read reads into a buffer of its own in a goroutine; once
// ctx is done, a read still blocked is left behind (the command is
// ending) and every Read returns the cause. A regular file, whose reads
// never wait, is read as it is (the reads cost no goroutine).
func interruptible(ctx context.Context, r io.Reader) io.Reader {
	if ctx.Done() == nil {
		return r // never cancelled
	}
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			return r
		}
	}
	return &ctxReader{ctx: ctx, r: r}
}

type ctxReader struct {
	ctx context.Context
	r   io.Reader
	buf []byte
}

type readResult struct {
	n   int
	err error
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := checkInterrupt(c.ctx); err != nil {
		return 0, err
	}
	if len(c.buf) < len(p) {
		c.buf = make([]byte, len(p))
	}
	buf := c.buf[:len(p)]
	done := make(chan readResult, 1)
	go func() {
		n, err := c.r.Read(buf)
		done <- readResult{n, err}
	}()
	select {
	case r := <-done:
		return copy(p, buf[:r.n]), r.err
	case <-c.ctx.Done():
		c.buf = nil // the goroutine may still write to it
		return 0, context.Cause(c.ctx)
	}
}

// Signals returns a context that the first SIGINT, SIGTERM or SIGHUP (a
// terminal closed) cancels, with an *interrupted cause: the command stops,
// keeps what it did, and returns through its deferred clean-ups, so that
// no temporary file (pdfio.Output, report's copy of stdin) and no Chromium
// profile directory (removed once Chromium has exited) is left. A second
// signal is not caught: it ends the process as usual, at once, like
// SIGKILL, and what is in progress is then left. stop releases the
// handler.
func Signals(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			signal.Stop(ch)
			cancel(&interrupted{sig: s})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}
