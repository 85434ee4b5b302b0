package cli

import (
	"context"
	"fmt"
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

// Signals returns a context that the first SIGINT or SIGTERM cancels, with
// an *interrupted cause. A second signal is not caught: it ends the process
// as usual. stop releases the handler.
func Signals(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
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
