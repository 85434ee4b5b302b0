//go:build unix

package limits

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"syscall"
	"testing"
	"time"
)

// Open and ReadFile refuse what is no regular file before opening it (a
// named pipe with no writer would block the open for ever), and a file
// larger than the limit before reading it.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	if err := os.WriteFile(at("small.pdf"), []byte("%PDF-1.7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(at("sparse.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(3 << 30); err != nil { // sparse: no byte written
		t.Fatal(err)
	}
	f.Close()
	if err := os.Symlink("small.pdf", at("link.pdf")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", at("zero.pdf")); err != nil {
		t.Fatal(err)
	}
	fifo := runtime.GOOS != "windows" && syscall.Mkfifo(at("fifo.pdf"), 0o644) == nil
	for _, tc := range []struct {
		name      string
		max       int64
		want      error  // errors.Is
		wantMsg   string // the error's message, without "open PATH: "
		stream    bool   // OpenStream
		needsFIFO bool
	}{
		{name: "small.pdf", max: 100},
		{name: "small.pdf", max: 0},
		{name: "link.pdf", max: 100},
		{name: "sparse.pdf", max: DefaultMaxFileSize, want: ErrTooLarge, wantMsg: "file too large: 3221225472 bytes, more than 2147483648 (--max-file-size)"},
		{name: "small.pdf", max: 4, want: ErrLimit, wantMsg: "file too large: 9 bytes, more than 4 (--max-file-size)"},
		{name: "zero.pdf", max: 100, want: ErrNotRegular, wantMsg: "is a character device, not a regular file"},
		{name: ".", max: 100, want: syscall.EISDIR, wantMsg: "is a directory"},
		{name: "missing.pdf", max: 100, want: fs.ErrNotExist},
		{name: "fifo.pdf", max: 100, want: ErrNotRegular, wantMsg: "is a FIFO, not a regular file", needsFIFO: true},
		{name: "fifo.pdf", max: 100, stream: true, needsFIFO: true},
		{name: "zero.pdf", max: 100, stream: true, want: ErrNotRegular, wantMsg: "is a character device, not a regular file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.needsFIFO && !fifo {
				t.Skip("no named pipes here")
			}
			open := Open
			if tc.stream {
				open = OpenStream
			}
			done := make(chan error, 1)
			go func() {
				f, _, err := open(at(tc.name), tc.max, "--max-file-size")
				if err == nil {
					f.Close()
				}
				done <- err
			}()
			var err error
			select {
			case err = <-done:
			case <-time.After(30 * time.Second):
				t.Fatalf("Open(%s) still blocked after 30 s", tc.name)
			}
			if tc.want == nil {
				if err != nil {
					t.Fatalf("Open(%s, %d) = %v, want no error", tc.name, tc.max, err)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("Open(%s, %d) = %v, want %v", tc.name, tc.max, err, tc.want)
			}
			var pe *fs.PathError
			if tc.wantMsg != "" && (!errors.As(err, &pe) || pe.Err.Error() != tc.wantMsg) {
				t.Errorf("Open(%s, %d) = %q, want %q", tc.name, tc.max, err, tc.wantMsg)
			}
		})
	}
	b, err := ReadFile(at("link.pdf"), 100, "")
	if err != nil || string(b) != "%PDF-1.7\n" {
		t.Errorf("ReadFile(link.pdf) = %q, %v", b, err)
	}
}

// ReadFile reads no more than max bytes of a file whose size says less
// than it holds (as files of /proc do, or one that grows).
func TestReadFileBoundsWhatItReads(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc")
	}
	if _, err := ReadFile("/proc/self/status", 16, ""); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadFile(/proc/self/status, 16) = %v, want ErrTooLarge", err)
	}
	if b, err := ReadFile("/proc/self/status", 1<<20, ""); err != nil || len(b) == 0 {
		t.Errorf("ReadFile(/proc/self/status) = %d bytes, %v", len(b), err)
	}
}

// Deadline's cause names the limit and the flag, and is both a limit
// passed and context.DeadlineExceeded.
func TestDeadline(t *testing.T) {
	ctx, cancel := Deadline(context.Background(), time.Nanosecond, "--timeout")
	defer cancel()
	<-ctx.Done()
	err := context.Cause(ctx)
	if err.Error() != "took longer than --timeout 1ns" || !errors.Is(err, ErrLimit) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("cause %q (limit %v, deadline %v)", err, errors.Is(err, ErrLimit), errors.Is(err, context.DeadlineExceeded))
	}
	ctx, cancel = Deadline(context.Background(), 0, "--timeout")
	defer cancel()
	if _, ok := ctx.Deadline(); ok {
		t.Error("Deadline(0) set a deadline")
	}
}

// WatchMemory cancels its context, with a *MemoryError, once the heap is
// over the ceiling; Go's memory limit is 7/8 of it while watched, and is
// what it was after.
func TestWatchMemory(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	const ceiling = 64 << 20
	ctx, stop := WatchMemory(context.Background(), ceiling, "--max-memory")
	if got := debug.SetMemoryLimit(-1); got != ceiling/8*7 {
		t.Errorf("memory limit %d while watched, want %d", got, ceiling/8*7)
	}
	var keep [][]byte
	for len(keep) < 1024 && ctx.Err() == nil { // at most 1 GiB
		b := make([]byte, 1<<20)
		for i := range b {
			b[i] = 1
		}
		keep = append(keep, b)
	}
	for ctx.Err() == nil {
		select {
		case <-ctx.Done():
		case <-time.After(30 * time.Second):
			t.Fatalf("a live heap of %d MiB did not pass a ceiling of 64 MiB", len(keep))
		}
	}
	err := context.Cause(ctx)
	var me *MemoryError
	if !errors.As(err, &me) || !errors.Is(err, ErrLimit) || err.Error() != "took more memory than --max-memory 64 MiB" {
		t.Errorf("cause %q", err)
	}
	runtime.KeepAlive(keep)
	keep = nil
	stop()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("memory limit %d after the watch, want %d as before", got, before)
	}
}

// Two watches at once set Go's memory limit from the smaller, whichever
// ends first.
func TestWatchMemoryNested(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	_, stopA := WatchMemory(context.Background(), 8<<30, "")
	_, stopB := WatchMemory(context.Background(), 1<<30, "")
	if got := debug.SetMemoryLimit(-1); got != (1<<30)-64<<20 {
		t.Errorf("limit %d with two watches, want the smaller's", got)
	}
	stopB()
	if got := debug.SetMemoryLimit(-1); got != (8<<30)-64<<20 {
		t.Errorf("limit %d after the smaller ended, want the other's", got)
	}
	stopA()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("limit %d after both, want %d", got, before)
	}
}

// Go's memory limit under a ceiling keeps 1/8 of it as headroom, 64 MiB
// at most: the headroom is what the heap passes the limit by before the
// collector or the watch catches up, not a share of the ceiling.
func TestSoftLimit(t *testing.T) {
	for _, tc := range []struct{ max, want int64 }{
		{64 << 20, 56 << 20},
		{512 << 20, 448 << 20},
		{1 << 30, 960 << 20},
		{8 << 30, 8<<30 - 64<<20},
		{8, 7},
	} {
		if got := softLimit(tc.max); got != tc.want {
			t.Errorf("softLimit(%d) = %d, want %d", tc.max, got, tc.want)
		}
	}
}

// iecBytes says sizes as the command line's flags do (go-humanize's
// IBytes, which the flags use).
func TestIECBytes(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{5, "5 B"}, {1023, "1023 B"}, {1024, "1.0 KiB"}, {64 << 20, "64 MiB"}, {1 << 30, "1.0 GiB"},
		{500_000_000, "477 MiB"}, {24 * 111_000_000, "2.5 GiB"},
	} {
		if got := iecBytes(tc.n); got != tc.want {
			t.Errorf("iecBytes(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
