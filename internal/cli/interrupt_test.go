package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/pdfio"
)

// Ctrl-C during a capture: what was captured before is written, the
// command says it was interrupted, and exits 130. The interrupt comes
// when the server is asked for the sixth page.
func TestBrowserCaptureInterrupted(t *testing.T) {
	browserSuite(t)
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var n int
		if _, err := fmt.Sscanf(r.URL.Path, "/p%d.html", &n); err != nil {
			http.NotFound(w, r)
			return
		}
		if asked.Add(1) == 6 {
			cancel(&interrupted{sig: os.Interrupt})
			<-r.Context().Done()
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<title>Page %d</title><p>Page %d</p><a href="/p%d.html">next</a>`, n, n, n+1)
	}))
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "partial.pdf")
	ios, _, stdout, stderr := Test()
	code := Main(ctx, []string{"capture", "--levels", "20", "--wait-idle", "50ms", srv.URL + "/p0.html", "-o", out}, ios)
	if code != 130 {
		t.Errorf("exit %d, want 130\n%s%s", code, stdout, stderr)
	}
	d, err := pdfio.Open(out, pdfio.Options{})
	if err != nil {
		t.Fatalf("nothing written: %v\n%s%s", err, stdout, stderr)
	}
	if n := len(d.Pages); n < 1 || n > 5 || !strings.Contains(stderr.String(), fmt.Sprintf("webcap: capture: interrupted (interrupt): the %s captured before are in %s", plural(n, "page"), out)) {
		t.Errorf("%d pages written; stderr:\n%s", n, stderr)
	}
	if strings.Contains(stderr.String(), "webcap: interrupted") {
		t.Errorf("the interrupt is reported twice:\n%s", stderr)
	}
	if !strings.Contains(stdout.String(), "audits with no error") || !strings.Contains(stdout.String(), "interrupted") {
		t.Errorf("stdout:\n%s", stdout)
	}
}

// notifyWriter is a writer that says when something was written to it.
type notifyWriter struct {
	mu    sync.Mutex
	b     strings.Builder
	wrote chan struct{} // closed at the first write
}

func (w *notifyWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.b.Len() == 0 && len(p) > 0 {
		close(w.wrote)
	}
	return w.b.Write(p)
}

// Ctrl-C while canon reads a stream that sends nothing more (a terminal,
// a pipe still open): the read blocked on it does not hold the command,
// which exits 130 and says so. Deterministic: the interrupt comes after
// the first URL's answer, while the next read waits.
func TestCanonInterruptedOnStdin(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	in, feed := io.Pipe()
	defer feed.Close()
	out := &notifyWriter{wrote: make(chan struct{})}
	var stderr bytes.Buffer
	ios := &IOStreams{In: in, Out: out, ErrOut: &stderr, OutTTY: true}
	code := make(chan int, 1)
	go func() { code <- Main(ctx, []string{"canon"}, ios) }()
	if _, err := io.WriteString(feed, "HTTP://A/\n"); err != nil {
		t.Fatal(err)
	}
	<-out.wrote
	cancel(&interrupted{sig: os.Interrupt})
	if c := <-code; c != 130 || stderr.String() != "webcap: canon: interrupted (interrupt)\n" || out.b.String() != "http://a/\n" {
		t.Errorf("exit %d, stdout %q, stderr %q; want 130, http://a/, the interrupt", c, out.b.String(), stderr.String())
	}
}

// Ctrl-C before a command reads or writes: a reader stops with 130, a
// writer writes nothing and exits 130; each says it was interrupted, once.
func TestInterruptedCommands(t *testing.T) {
	dir := t.TempDir()
	damaged, err := pdfbuild.Sample("damaged")
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "damaged.pdf")
	if err := os.WriteFile(in, damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.pdf")
	manifest := filepath.Join("..", "..", "testdata", "build", "manifest.json")
	for _, args := range [][]string{
		{"info", in},
		{"lookup", in, "http://a/"},
		{"id", in},
		{"audit", in},
		{"canon", "http://a/", "-"},
		{"fix", in, "-o", out},
		{"build", manifest, "-o", out},
	} {
		t.Run(args[0], func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			cancel(&interrupted{sig: os.Interrupt})
			ios, stdin, stdout, stderr := Test()
			stdin.WriteString("http://b/\n")
			if code := Main(ctx, args, ios); code != 130 || stderr.String() != "webcap: "+args[0]+": interrupted (interrupt)\n" {
				t.Errorf("webcap %q: exit %d, stderr %q; want 130 and %q\nstdout: %s", args, code, stderr, "webcap: "+args[0]+": interrupted (interrupt)", stdout)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("webcap %q wrote %s", args, out)
			}
		})
	}
}

// blockedReader is a stdin that sends nothing: its first Read says so on
// reading, then waits until the test ends.
type blockedReader struct {
	reading chan struct{}
	release chan struct{}
}

func (b *blockedReader) Read(p []byte) (int, error) {
	close(b.reading)
	<-b.release
	return 0, io.EOF
}

// Ctrl-C while id - or audit --files-from - waits for stdin ends the
// command at once (130), as it does canon's.
func TestStdinReadersInterrupted(t *testing.T) {
	for _, args := range [][]string{
		{"id", "-"},
		{"audit", "--files-from", "-"},
		{"report", "-"},
	} {
		t.Run(args[0], func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			in := &blockedReader{reading: make(chan struct{}), release: make(chan struct{})}
			defer close(in.release)
			var stdout, stderr bytes.Buffer
			ios := &IOStreams{In: in, Out: &stdout, ErrOut: &stderr}
			code := make(chan int, 1)
			go func() { code <- Main(ctx, args, ios) }()
			<-in.reading
			cancel(&interrupted{sig: os.Interrupt})
			want := "webcap: " + args[0] + ": interrupted (interrupt)\n"
			if c := <-code; c != 130 || stderr.String() != want || stdout.Len() > 0 {
				t.Errorf("exit %d, stdout %q, stderr %q; want 130, nothing, %q", c, stdout.String(), stderr.String(), want)
			}
		})
	}
}
