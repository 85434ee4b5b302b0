package htmlreport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"
)

// A Renderer draws the thumbnail of a page with poppler's pdftoppm, a
// renderer of its own: the parser that read a file for the audit never
// draws it, and pdftoppm, reading an untrusted file, runs as a child
// process under bounds (Render).
//
// A report's thumbnails are bounded in time three ways: each page by
// Timeout, the pages of one file together by FileTime, and every page of
// the report together by RunTime (Write spends them: the time each
// drawing took, summed, whatever the number of Jobs). A file whose pages
// have taken FileTime gets no more thumbnails, nor does any file once the
// report's have taken RunTime; the report says why. FileTime is less than
// RunTime, so that one hostile file cannot take the time of the files
// after it.
type Renderer struct {
	Path      string        // pdftoppm's path
	Size      int           // the longer side of a thumbnail, in pixels
	Timeout   time.Duration // wall time of one page (the CPU limit is the same, in whole seconds); 0: DefaultPageTime
	FileTime  time.Duration // the time the thumbnails of one file may take together; 0: no bound
	RunTime   time.Duration // the time the thumbnails of one report may take together; 0: no bound
	MaxMemory int64         // address space of the child (ulimit -v), in bytes
	MaxOutput int64         // the most PNG bytes read of one page

	clock clock // what the drawings are timed by; nil: the wall clock (a test sets its own)
}

// The report's time bounds on its renderer (FindRenderer): a page that
// takes ten seconds is one no thumbnail is worth (pdftoppm draws a
// captured web page at 160 pixels in well under a second); a file's 30 s
// are its first 20 page sets' many times over; a report's 10 minutes draw
// some 35,000 thumbnails of captured pages (docs/scale.md: 20,000 took
// 320 s of drawing), or the pages of 20 files that each take their 30 s.
const (
	DefaultPageTime = 10 * time.Second
	DefaultFileTime = 30 * time.Second
	DefaultRunTime  = 10 * time.Minute
)

// ErrNoRenderer is FindRenderer's error when pdftoppm is not on PATH.
var ErrNoRenderer = errors.New("no renderer found (poppler's pdftoppm is not on PATH)")

// FindRenderer returns a Renderer for the pdftoppm on PATH, with the
// report's bounds: 160 pixels; 10 s a page, 30 s a file, 10 minutes a
// report; 512 MiB; 1 MiB of PNG.
func FindRenderer() (*Renderer, error) {
	p, err := exec.LookPath("pdftoppm")
	if err != nil {
		return nil, ErrNoRenderer
	}
	return &Renderer{Path: p, Size: 160, Timeout: DefaultPageTime, FileTime: DefaultFileTime, RunTime: DefaultRunTime,
		MaxMemory: 512 << 20, MaxOutput: 1 << 20}, nil
}

// pngMagic begins every PNG file.
var pngMagic = []byte("\x89PNG\r\n\x1a\n")

// Render returns page (1-based) of file as a PNG. The child runs under
// /bin/sh's ulimit (setrlimit before exec: -v the address space, -t the
// CPU seconds; prlimit(1) is not everywhere sh is), is killed at the wall
// time-out or when it writes more than MaxOutput, and what it writes must
// be a PNG.
func (r *Renderer) Render(ctx context.Context, file string, page int) ([]byte, error) {
	return r.render(ctx, file, page, r.pageTime())
}

// clockOf is the clock r's drawings are timed by: the wall clock but in
// a test.
func (r *Renderer) clockOf() clock {
	if r.clock == nil {
		return wallClock{}
	}
	return r.clock
}

// pageTime is the time limit of one page.
func (r *Renderer) pageTime() time.Duration {
	if r.Timeout <= 0 {
		return DefaultPageTime
	}
	return r.Timeout
}

// A timeoutError is a drawing stopped at its time limit: the page's
// (Timeout), or less when that was what was left of a budget.
type timeoutError struct {
	page  int
	limit time.Duration
}

func (e *timeoutError) Error() string {
	return fmt.Sprintf("pdftoppm took longer than %v on page %d", e.limit, e.page)
}

// render is Render with the time limit of this drawing (at most Timeout).
func (r *Renderer) render(ctx context.Context, file string, page int, limit time.Duration) ([]byte, error) {
	ctx, cancel := r.clockOf().withTimeout(ctx, limit)
	defer cancel()
	if !filepath.IsAbs(file) {
		file = "./" + file // a name beginning with "-" is not an option
	}
	secs := max(1, int((limit+time.Second-1)/time.Second))
	p := strconv.Itoa(page)
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", `ulimit -v "$1" && ulimit -t "$2" || exit 125; shift 2; exec "$@"`, "sh",
		strconv.FormatInt(r.MaxMemory>>10, 10), strconv.Itoa(secs),
		r.Path, "-q", "-f", p, "-l", p, "-scale-to", strconv.Itoa(r.Size), "-png", "-singlefile", file)
	cmd.WaitDelay = time.Second
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &limitedBuffer{b: &stderr, n: 4096}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("pdftoppm: %w", err)
	}
	out, rerr := io.ReadAll(io.LimitReader(stdout, r.MaxOutput+1))
	if int64(len(out)) > r.MaxOutput {
		cancel() // kill it: it writes more than a thumbnail
	}
	werr := cmd.Wait()
	switch {
	case errors.Is(context.Cause(ctx), context.DeadlineExceeded):
		return nil, &timeoutError{page, limit}
	case int64(len(out)) > r.MaxOutput:
		return nil, fmt.Errorf("pdftoppm wrote more than %d bytes for page %d", r.MaxOutput, page)
	case rerr != nil:
		return nil, fmt.Errorf("pdftoppm: %w", rerr)
	case werr != nil:
		msg := bytes.TrimSpace(stderr.Bytes())
		if len(msg) == 0 {
			return nil, fmt.Errorf("pdftoppm failed on page %d: %w", page, werr)
		}
		return nil, fmt.Errorf("pdftoppm failed on page %d: %w: %s", page, werr, msg)
	case !bytes.HasPrefix(out, pngMagic):
		return nil, fmt.Errorf("pdftoppm wrote no PNG for page %d", page)
	}
	return out, nil
}

// limitedBuffer keeps the first n bytes written to it.
type limitedBuffer struct {
	b *bytes.Buffer
	n int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.n - l.b.Len(); room > 0 {
		l.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
