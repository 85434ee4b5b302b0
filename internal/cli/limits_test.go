package cli

import (
	"context"
	"errors"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/webcap/webcap/internal/limits"
)

// limitFlags.run stops a command at its deadline, or at a signal, even when
// the command's work is blocked where it does not look at its context: it
// waits stopGrace for the work to return, then returns without it (the
// process then exits), the cause naming the command, the file and the
// limit. Work that returns in time is heard: its own error is the result.
func TestRunStopsBlockedWork(t *testing.T) {
	defer func(g time.Duration) { stopGrace = g }(stopGrace)
	never := make(chan struct{}) // blocked work never returns
	defer close(never)
	blocked := func(context.Context) error { <-never; return nil }
	sigterm := func() (context.Context, context.CancelFunc) {
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(&interrupted{sig: syscall.SIGTERM})
		return ctx, func() {}
	}
	for _, tc := range []struct {
		name     string
		ctx      func() (context.Context, context.CancelFunc)
		timeout  time.Duration
		files    []string
		work     func(context.Context) error
		wantMsg  string
		wantCode int
	}{
		{"deadline, blocked", nil, time.Nanosecond, []string{"a.pdf"}, blocked,
			"info: a.pdf: took longer than --timeout 1ns", exitInvalid},
		{"deadline, two files", nil, time.Nanosecond, []string{"a.pdf", "b.pdf"}, blocked,
			"info: took longer than --timeout 1ns", exitInvalid},
		{"signal, blocked", sigterm, time.Hour, []string{"a.pdf"}, blocked,
			"interrupted (terminated)", 143},
		{"deadline, work that stops", nil, time.Nanosecond, []string{"a.pdf"},
			func(ctx context.Context) error { <-ctx.Done(); return errors.New("stopped by its own look") },
			"stopped by its own look", exitFailed},
		{"no limit passed", nil, time.Hour, []string{"a.pdf"},
			func(context.Context) error { return nil }, "", exitOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.Background(), context.CancelFunc(func() {})
			if tc.ctx != nil {
				ctx, cancel = tc.ctx()
			}
			defer cancel()
			stopGrace = 0 // blocked work is not waited for
			if tc.wantCode == exitFailed {
				stopGrace = time.Hour // work that stops is
			}
			l := &limitFlags{Timeout: tc.timeout, MaxMemory: defaultMaxMemory, maxMemoryGiven: true}
			done := make(chan error, 1)
			go func() { done <- l.run(ctx, "info", tc.files, tc.work) }()
			var err error
			select {
			case err = <-done:
			case <-time.After(time.Minute):
				t.Fatal("run still waits for blocked work after a minute")
			}
			msg := ""
			if err != nil {
				msg = err.Error()
			}
			if msg != tc.wantMsg || exitCode(err) != tc.wantCode {
				t.Errorf("run = %q (exit %d), want %q (exit %d)", msg, exitCode(err), tc.wantMsg, tc.wantCode)
			}
		})
	}
}

// A limit passed is exit 4 in every command, whatever wraps it; an
// interrupt stays 130/143.
func TestLimitExitCodes(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{&limits.DeadlineError{Limit: time.Second, Flag: timeoutFlag}, exitInvalid},
		{&limits.MemoryError{Limit: 64 << 20, Flag: maxMemoryFlag}, exitInvalid},
		{&ioError{&limits.SizeError{Size: 2, Max: 1}}, exitInvalid},
		{&interrupted{sig: syscall.SIGINT}, 130},
	} {
		if got := exitCode(tc.err); got != tc.want {
			t.Errorf("exitCode(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

// A command stopped while it writes its output (holdStop) is not left
// behind before the output is written: run returns after release.
func TestRunWaitsForTheOutput(t *testing.T) {
	defer func(g time.Duration) { stopGrace = g }(stopGrace)
	stopGrace = 0
	never, held := make(chan struct{}), make(chan struct{})
	defer close(never)
	var written atomic.Bool
	work := func(ctx context.Context) error {
		release := holdStop(ctx)
		close(held)
		<-ctx.Done() // the signal comes while the output is written
		written.Store(true)
		release()
		<-never // and the work then blocks where it does not look
		return nil
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	l := &limitFlags{Timeout: time.Hour, MaxMemory: defaultMaxMemory, maxMemoryGiven: true}
	result := make(chan error, 1)
	go func() { result <- l.run(ctx, "fix", []string{"a.pdf"}, work) }()
	<-held
	cancel(&interrupted{sig: syscall.SIGTERM})
	err := <-result
	if !written.Load() {
		t.Error("run returned before the output was written")
	}
	if exitCode(err) != 143 {
		t.Errorf("run = %v, want the signal (exit 143)", err)
	}
	if release := holdStop(context.Background()); release == nil {
		t.Error("holdStop outside run: nil release")
	} else {
		release()
	}
}
