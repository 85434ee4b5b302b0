package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webcap/webcap/seeds"
)

// capture --urls-from's usage errors are found before Chromium starts,
// and name the list, the line and the problem.
func TestCaptureManyUsage(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "list.txt")
	os.WriteFile(list, []byte("# seeds\nhttp://127.0.0.1:1/\n\nhttp://127.0.0.1:2/ --levels two\n"), 0o644)
	good := filepath.Join(dir, "good.txt")
	os.WriteFile(good, []byte("http://127.0.0.1:1/\n"), 0o644)
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("x"), 0o644)
	done := filepath.Join(dir, "done") // a run's outputs: found before Chromium starts
	os.Mkdir(done, 0o755)
	os.WriteFile(filepath.Join(done, seeds.Name("http://127.0.0.1:1/")+".pdf"), []byte("x"), 0o644)
	tests := []struct {
		name  string
		args  []string
		stdin string
		want  string
	}{
		{"bad line", []string{"--urls-from", list, "--out-dir", dir}, "", list + `:4: --levels "two": not a whole number`},
		{"stdin", []string{"--urls-from", "-", "--out-dir", dir}, "http://a.example/\nhttp://b.example/ --jobs 2\n", "-:2: --jobs: not a flag a line may give"},
		{"empty", []string{"--urls-from", "-", "--out-dir", dir}, "# none\n", "-: no seed"},
		{"no out-dir", []string{"--urls-from", good}, "", "--urls-from needs --out-dir"},
		{"an argument too", []string{"--urls-from", good, "--out-dir", dir, "http://a.example/"}, "", "the URLs are the list's"},
		{"-o", []string{"--urls-from", good, "--out-dir", dir, "-o", "x.pdf"}, "", "no -o"},
		{"out-dir a file", []string{"--urls-from", good, "--out-dir", file}, "", "not a directory"},
		{"warc a file", []string{"--urls-from", good, "--out-dir", dir, "--warc", file}, "", "not a directory"},
		{"list a directory", []string{"--urls-from", dir, "--out-dir", dir}, "", "a directory, not a list"},
		{"bad shard", []string{"--urls-from", good, "--out-dir", dir, "--shard", "4/4"}, "", "want I/N"},
		{"json", []string{"--urls-from", good, "--out-dir", dir, "--json"}, "", "--jsonl prints a JSON line per seed"},
		{"workers", []string{"--urls-from", good, "--out-dir", dir, "--workers", "0"}, "", "--workers 0"},
		{"output exists", []string{"--urls-from", good, "--out-dir", done}, "", good + ":1: " + filepath.Join(done, seeds.Name("http://127.0.0.1:1/")) + ".pdf: exists (--resume keeps it"},
		{"seal", []string{"--urls-from", good, "--out-dir", dir, "--timestamp-url", "http://127.0.0.1:1/"}, "", "not done per seed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ios, in, _, errOut := Test()
			in.WriteString(tc.stdin)
			code := Main(context.Background(), append([]string{"capture"}, tc.args...), ios)
			if code != exitUsage || !strings.Contains(errOut.String(), tc.want) {
				t.Errorf("capture %q = exit %d, %q; want exit 2 and %q", tc.args, code, errOut.String(), tc.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "good.txt")); err != nil {
		t.Error(err)
	}
}

// cancelAt is a list read from stdin that interrupts the command (cancels
// its context, as Ctrl-C does) when it is read up to at bytes, or at its
// end when at is past it.
type cancelAt struct {
	r      *strings.Reader
	at     int64
	cancel context.CancelCauseFunc
}

func (c *cancelAt) Read(p []byte) (int, error) {
	if read := c.r.Size() - int64(c.r.Len()); read >= c.at || c.r.Len() == 0 {
		c.cancel(&interrupted{sig: os.Interrupt})
	}
	if max := c.at - (c.r.Size() - int64(c.r.Len())); max > 0 && int64(len(p)) > max {
		p = p[:max]
	}
	return c.r.Read(p)
}

// Ctrl-C while a long list is read, or while its seeds' outputs are
// checked (before any worker or Chromium starts): the command stops at
// once with the interrupt's code, nothing made or written.
func TestCaptureManyInterruptedBeforeStart(t *testing.T) {
	var list strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&list, "http://127.0.0.1:1/p/%d\n", i)
	}
	tests := []struct {
		name string
		at   int64 // the bytes read when the interrupt comes
	}{
		{"while the list is read", 1000},
		{"while the outputs are checked", int64(list.Len()) + 1}, // at its end: the read is done
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			dir := filepath.Join(t.TempDir(), "out")
			ios, _, stdout, stderr := Test()
			ios.In = &cancelAt{r: strings.NewReader(list.String()), at: tc.at, cancel: cancel}
			code := Main(ctx, []string{"capture", "--urls-from", "-", "--out-dir", dir, "--jsonl", "--chromium", "/nonexistent/chromium"}, ios)
			if code != 130 || stderr.String() != "webcap: capture: interrupted (interrupt)\n" || stdout.Len() > 0 {
				t.Errorf("exit %d, %d bytes on stdout, stderr %.300q; want 130, nothing, and the interrupt said", code, stdout.Len(), stderr)
			}
			if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("--out-dir %s: %v, want it not made", dir, err)
			}
		})
	}
}
