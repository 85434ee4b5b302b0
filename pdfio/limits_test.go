//go:build unix

package pdfio

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/webcap/webcap/internal/limits"
	pb "github.com/webcap/webcap/internal/pdfbuild"
)

// Options.Context bounds the whole read, not only pdfcpu's parse: once it
// is done, the read fails with its cause, in every entry point; a limit
// passed is Invalid (a finding about the file), an interrupt is not.
func TestReadStopsWithContext(t *testing.T) {
	b := pb.Big(200, true)
	deadline := &limits.DeadlineError{Limit: time.Second, Flag: "--timeout"}
	memory := &limits.MemoryError{Limit: 64 << 20}
	cancelled := func(cause error) context.Context {
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(cause)
		return ctx
	}
	path := filepath.Join(t.TempDir(), "big.pdf")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	read := map[string]func(Options) error{
		"ReadBytes": func(o Options) error { _, err := ReadBytes(b, "big.pdf", o); return err },
		"Open":      func(o Options) error { _, err := Open(path, o); return err },
		"OpenUpdate+Document": func(o Options) error {
			u, err := OpenUpdate(b, "big.pdf", o)
			if err == nil {
				_, err = u.Document()
			}
			return err
		},
	}
	for _, tc := range []struct {
		name    string
		cause   error
		invalid bool
	}{
		{"deadline", deadline, true},
		{"memory", memory, true},
		{"interrupt", context.Canceled, false},
	} {
		for name, f := range read {
			t.Run(tc.name+"/"+name, func(t *testing.T) {
				err := f(Options{Context: cancelled(tc.cause)})
				var pe *Error
				if !errors.As(err, &pe) || !errors.Is(err, tc.cause) {
					t.Fatalf("%s = %v, want an *Error wrapping %v", name, err, tc.cause)
				}
				if pe.Invalid() != tc.invalid || pe.Stack != nil {
					t.Errorf("%s: %v: Invalid %v, Stack %v; want Invalid %v, no stack", name, err, pe.Invalid(), pe.Stack != nil, tc.invalid)
				}
			})
		}
	}
	// The reader's own walk looks at the context too, not only the parse:
	// a context done once pdfcpu has parsed stops the walk.
	ctx, err := parse(b, Options{}.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Context: cancelled(deadline)}.withDefaults()
	func() {
		defer func() {
			p := recover()
			if _, ok := p.(stopRead); !ok {
				t.Errorf("the walk of a done context ended with %v, want a stopRead", p)
			}
		}()
		newReader(ctx, newDecoder(ctx.XRefTable, opts), "big.pdf", opts, b).read()
	}()
	if d, err := ReadBytes(b, "big.pdf", Options{Context: context.Background()}); err != nil || len(d.Sets) != 200 {
		t.Errorf("a context not done: %v", err)
	}
}

// Open refuses what is not a regular file before opening it (a named pipe
// would block the open) and a file larger than MaxFileSize before reading
// it.
func TestOpenRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	at := func(n string) string { return filepath.Join(dir, n) }
	if err := syscall.Mkfifo(at("pipe.pdf"), 0o644); err != nil {
		t.Skipf("no named pipes: %v", err)
	}
	if err := os.Symlink("/dev/zero", at("zero.pdf")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(at("web.pdf"), pb.Web(false), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file    string
		opts    Options
		want    string
		invalid bool
	}{
		{"pipe.pdf", Options{}, "pipe.pdf: is a FIFO, not a regular file", false},
		{"zero.pdf", Options{}, "zero.pdf: is a character device, not a regular file", false},
		{".", Options{}, ": is a directory", false},
		{"web.pdf", Options{MaxFileSize: 10}, "web.pdf: file too large:", true},
	} {
		done := make(chan error, 1)
		go func() { _, err := Open(at(tc.file), tc.opts); done <- err }()
		var err error
		select {
		case err = <-done:
		case <-time.After(30 * time.Second):
			t.Fatalf("Open(%s) blocked for 30 s", tc.file)
		}
		var pe *Error
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) || pe.Invalid() != tc.invalid {
			t.Errorf("Open(%s) = %v, want %q (invalid %v)", tc.file, err, tc.want, tc.invalid)
		}
	}
}
