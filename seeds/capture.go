package seeds

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/capture"
	"github.com/webcap/webcap/internal/limits"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// Config is how a run captures and writes each seed.
type Config struct {
	Dir     string // where NAME.pdf is written
	WARCDir string // where NAME.warc.gz is written; "": no WARC
	// Resume keeps a seed whose outputs are complete (Complete) instead
	// of capturing it again; without it (or Force) a seed whose output
	// exists fails, the file untouched.
	Resume bool
	Force  bool // replace outputs that exist
	// Capture is each seed's crawl; a seed's own flags replace its
	// Levels, Flags (the scope) and MaxPages.
	Capture capture.Options
	Timeout time.Duration // each seed's time limit (capture.ErrTimeLimit); 0: none
	// MaxMemory stops a seed's crawl once this process needs more memory
	// (limits.WatchMemory), keeping what was captured, and its write
	// (capture.Options.WriteBound, unless set): a write past it writes
	// nothing, and the seed fails with exit 4; 0: no limit.
	MaxMemory int64
	// WARC is the template of each WARC's warcinfo (Software, Command,
	// KeepCredentials); Filename and Args are the seed's.
	WARC capture.WARCInfo
}

// PDF is the path of a seed's PDF.
func (c *Config) PDF(seed string) string { return filepath.Join(c.Dir, Name(seed)+".pdf") }

// WARCPath is the path of a seed's WARC, or "" without one.
func (c *Config) WARCPath(seed string) string {
	if c.WARCDir == "" {
		return ""
	}
	return filepath.Join(c.WARCDir, Name(seed)+".warc.gz")
}

// Statuses of a seed's Result.
const (
	Captured    = "captured"    // captured and written, auditing with no error (perhaps cut short: Stopped)
	Kept        = "kept"        // complete from a run before (Resume)
	Failed      = "failed"      // nothing captured, errors in what was, or outputs not written
	Interrupted = "interrupted" // the run was stopped first; nothing written
)

// A Result is what became of a seed: a line of capture --jsonl.
type Result struct {
	Seed    string   `json:"seed"`
	Line    int      `json:"line"`
	PDF     string   `json:"pdf"`
	WARC    string   `json:"warc,omitempty"`
	Status  string   `json:"status"`
	Pages   int      `json:"pages"`  // PDF pages
	Sets    int      `json:"sets"`   // page sets (captured web pages)
	Skips   int      `json:"skips"`  // URLs not captured
	Errors  int      `json:"errors"` // serious audit findings in the PDF
	Exit    int      `json:"exit"`   // the exit status capture of this seed alone would have
	Message string   `json:"message,omitempty"`
	Stopped string   `json:"stopped,omitempty"` // why the crawl stopped early (a time or memory limit)
	Seconds float64  `json:"seconds"`
	Notes   []string `json:"notes,omitempty"`
}

// A Capturer captures seeds one at a time in one browser, started when
// first needed and started again after a capture that fails with it or
// once its Chromium has exited (killed, out of memory): a seed during
// which Chromium exits fails, nothing written, and the next seed gets a
// new one, unless Chromium exited or failed to start for
// MaxBrowserFailures seeds in a row.
type Capturer struct {
	Config  Config
	Browser func(ctx context.Context) (*capture.Browser, error)
	b       *capture.Browser
	// failures counts the seeds in a row whose Chromium exited or did not
	// start; lastFailure is the last one's error.
	failures    int
	lastFailure error
}

// MaxBrowserFailures is how many seeds in a row a Capturer's Chromium
// may exit during, or fail to start for, before the Capturer gives up:
// every later seed then fails at once, saying why.
const MaxBrowserFailures = 3

// Close stops the browser.
func (c *Capturer) Close() {
	if c.b != nil {
		c.b.Close()
		c.b = nil
	}
}

// Do captures a seed (or keeps it, with Config.Resume), writes its
// outputs and says what became of it.
func (c *Capturer) Do(ctx context.Context, s Seed) Result {
	start := time.Now()
	r := c.do(ctx, s)
	r.Seconds = time.Since(start).Seconds()
	return r
}

func (c *Capturer) do(ctx context.Context, s Seed) Result {
	cfg := &c.Config
	r := Result{Seed: s.URL, Line: s.Line, PDF: cfg.PDF(s.URL), WARC: cfg.WARCPath(s.URL)}
	removeTemps(r.PDF, r.WARC)
	if cfg.Resume {
		if done, err := Complete(cfg, s.URL); err == nil {
			r.Status, r.Pages, r.Sets = Kept, done.Pages, done.Sets
			return r
		} else if !errors.Is(err, fs.ErrNotExist) {
			r.Message = "redone: " + err.Error()
		}
	}
	if err := cfg.writable(r.PDF, r.WARC); err != nil {
		return r.fail(3, err)
	}
	if ctx.Err() != nil {
		return r.interrupted()
	}
	if err := c.browser(ctx); err != nil {
		return r.fail(3, err)
	}
	res, err := c.capture(ctx, s)
	if ctx.Err() != nil {
		return r.interrupted()
	}
	if exited := c.b.Exited(); exited != nil {
		c.Close()
		c.failed(exited)
		return r.fail(3, fmt.Errorf("%w while the seed was captured: nothing written (the next seed starts another; --resume captures this one again)", exited))
	}
	c.failures = 0
	var nothing *capture.NothingError
	switch {
	case errors.As(err, &nothing):
		r.Skips = len(nothing.Skips)
		return r.fail(1, err)
	case errors.Is(err, limits.ErrLimit): // its write passed --max-memory: nothing written
		return r.fail(4, err)
	case err != nil:
		c.Close() // perhaps the browser failed: a new one for the next seed
		return r.fail(3, err)
	}
	r.Skips = len(res.Skips)
	r.Notes = res.Notes
	if res.Stopped != nil {
		r.Stopped = res.Stopped.Error()
	}
	if err := c.write(&r, res); err != nil {
		return r.fail(3, err)
	}
	if r.Errors > 0 {
		return r.fail(1, fmt.Errorf("%d audit errors; see webcap audit", r.Errors))
	}
	r.Status = Captured
	if errors.Is(res.Stopped, limits.ErrLimit) {
		r.Exit = 4 // as capture's: what was captured is written
	}
	return r
}

// browser makes sure c has a Chromium running: it starts one when there
// is none or the last one exited, unless MaxBrowserFailures seeds in a
// row have seen it exit or fail to start.
func (c *Capturer) browser(ctx context.Context) error {
	if c.b != nil {
		exited := c.b.Exited()
		if exited == nil {
			return nil
		}
		c.Close() // it exited between seeds
		c.failed(exited)
	}
	if c.failures >= MaxBrowserFailures {
		return fmt.Errorf("Chromium not started again: it exited or failed to start for %d seeds in a row (the last time: %w)", c.failures, c.lastFailure)
	}
	b, err := c.Browser(ctx)
	if err != nil {
		c.failed(err)
		return err
	}
	c.b = b
	return nil
}

// failed counts a seed whose Chromium exited or did not start.
func (c *Capturer) failed(err error) {
	c.failures++
	c.lastFailure = err
}

// capture runs the seed's crawl under its time and memory limits.
func (c *Capturer) capture(ctx context.Context, s Seed) (*capture.Result, error) {
	cfg := &c.Config
	if cfg.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, cfg.Timeout, capture.ErrTimeLimit)
		defer cancel()
	}
	ctx, stop := limits.WatchMemory(ctx, cfg.MaxMemory, "--max-memory")
	defer stop()
	co := cfg.Capture
	if co.WriteBound == nil { // the write of what the crawl kept, under the same ceiling
		co.WriteBound = func(ctx context.Context) (context.Context, func()) {
			return limits.WatchMemory(ctx, cfg.MaxMemory, "--max-memory")
		}
	}
	if s.Levels > 0 {
		co.Levels = s.Levels
	}
	if s.ScopeSet {
		co.Flags = co.Flags&^(webcapture.SameSite|webcapture.SamePath) | s.Scope
	}
	if s.MaxPages > 0 {
		co.MaxPages = s.MaxPages
	}
	start := capture.Start{URL: s.URL, Levels: co.Levels, Flags: co.Flags}
	return capture.CaptureStarts(ctx, c.b, []capture.Start{start}, co)
}

// write writes the seed's WARC, then its PDF (the last, which Complete
// looks at first), and audits the PDF.
func (c *Capturer) write(r *Result, res *capture.Result) error {
	cfg := &c.Config
	replace := cfg.Resume || cfg.Force
	if r.WARC != "" {
		var buf bytes.Buffer
		info := cfg.WARC
		info.Filename, info.Args = filepath.Base(r.WARC), []string{r.Seed}
		if err := capture.WriteWARC(&buf, true, res.Pages, res.PDF, info); err != nil {
			return err
		}
		if err := pdfio.WriteFile(r.WARC, buf.Bytes(), pdfio.WriteOptions{Replace: replace}); err != nil {
			return err
		}
	}
	if err := pdfio.WriteFile(r.PDF, res.PDF, pdfio.WriteOptions{Replace: replace}); err != nil {
		return err
	}
	d, err := res.Read(r.PDF)
	if err != nil {
		return fmt.Errorf("reading the result back: %w", err)
	}
	r.Pages, r.Sets = len(d.Pages), pageSets(d)
	r.Errors = audit.Summarize(audit.Check(d, audit.Options{Profile: cfg.Capture.Profile})).Count(audit.Serious)
	return nil
}

// Writable checks, before anything is captured, that the outputs of
// every seed of a list named list may be written (see writable): an
// output that exists without Resume or Force, or that is not a regular
// file, is a [*LineError] (wrapping an [*OutputError]) naming the first
// such seed's line and file, and how many more seeds have one. Once ctx
// is done (an interrupt), it stops and returns ctx's cause.
func (c *Config) Writable(ctx context.Context, list string, ss []Seed) error {
	var first *LineError
	more := 0
	// Each directory is listed once: a seed's outputs are looked at only
	// when their names are in it (a million seeds: one listing, not a
	// million lstat calls).
	there := func(dir string) func(path string) bool {
		f, err := os.Open(dir)
		if err != nil {
			return func(string) bool { return !errors.Is(err, fs.ErrNotExist) } // absent: nothing there
		}
		defer f.Close()
		names, err := f.Readdirnames(-1)
		if err != nil {
			return func(string) bool { return true }
		}
		in := make(map[string]bool, len(names))
		for _, n := range names {
			in[n] = true
		}
		return func(path string) bool { return in[filepath.Base(path)] }
	}
	inDir, inWARCDir := there(c.Dir), func(string) bool { return false }
	if c.WARCDir != "" {
		inWARCDir = there(c.WARCDir)
	}
	for i, s := range ss {
		if err := stopped(ctx, i); err != nil {
			return err
		}
		pdf, warc := c.PDF(s.URL), c.WARCPath(s.URL)
		if !inDir(pdf) && (warc == "" || !inWARCDir(warc)) {
			continue
		}
		err := c.writable(pdf, warc)
		switch {
		case err == nil:
		case first == nil:
			first = &LineError{List: list, Line: s.Line, Err: err}
		default:
			more++
		}
	}
	if first == nil {
		return nil
	}
	if more > 0 {
		first.Err = fmt.Errorf("%w; %d more %s such an output", first.Err, more, plural(more, "seed has", "seeds have"))
	}
	return first
}

// stopped is ctx's cause once it is done, looked at on every
// checkEvery-th seed i (ctx may be nil), else nil.
func stopped(ctx context.Context, i int) error {
	if ctx == nil || i%checkEvery != 0 || ctx.Err() == nil {
		return nil
	}
	return context.Cause(ctx)
}

// writable checks that a seed's outputs may be written: absent, or
// regular files that Resume or Force allow to replace. A symbolic link
// (to an input, say) is never written through.
func (c *Config) writable(paths ...string) error {
	for _, p := range paths {
		if p == "" {
			continue
		}
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return err
		case !fi.Mode().IsRegular():
			return &OutputError{p, kind(fi.Mode()) + ", not a regular file: not replaced"}
		case !c.Resume && !c.Force:
			return &OutputError{p, "exists (--resume keeps it when complete, --force replaces it)"}
		}
	}
	return nil
}

// An OutputError is a seed's output that may not be written: it exists
// (without Config.Resume or Force), or is not a regular file.
type OutputError struct {
	Path    string
	Problem string
}

func (e *OutputError) Error() string { return e.Path + ": " + e.Problem }

// plural is one or other by n.
func plural(n int, one, other string) string {
	if n == 1 {
		return one
	}
	return other
}

// kind says what a file that is not a regular one is.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	}
	return "a special file"
}

// removeTemps removes the temporary files pdfio.WriteFile made for path
// and a killed run left.
func removeTemps(paths ...string) {
	for _, path := range paths {
		if path == "" {
			continue
		}
		tmps, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "."+globQuote(filepath.Base(path))+".*.tmp"))
		for _, t := range tmps {
			if fi, err := os.Lstat(t); err == nil && fi.Mode().IsRegular() {
				os.Remove(t)
			}
		}
	}
}

// globQuote escapes a name's glob metacharacters (a name holds none, but
// DIR's base is not ours).
func globQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`)
	return r.Replace(s)
}

func pageSets(d *pdfio.Document) int {
	n := 0
	for _, s := range d.Sets {
		if s.ContentSet != nil && s.IsPageSet() {
			n++
		}
	}
	return n
}

// fail is r failed with err (after what r said: "redone: ...").
func (r Result) fail(exit int, err error) Result {
	msg := err.Error()
	if r.Message != "" {
		msg = r.Message + "; " + msg
	}
	r.Status, r.Exit, r.Message = Failed, exit, msg
	return r
}

func (r Result) interrupted() Result {
	r.Status, r.Exit, r.Message = Interrupted, 130, "interrupted before the seed was written"
	return r
}
