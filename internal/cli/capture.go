package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/webcap/webcap/build"
	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/capture"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

type captureOptions struct {
	IO              *IOStreams
	File            string // append: the capture to add to
	URLs            []string
	Out             string
	Levels          int
	SameSite        bool
	SamePath        bool
	MaxPages        int
	MaxBytes        byteSize
	Timeout         time.Duration
	PageTimeout     time.Duration
	Jobs            int
	Profile         string
	Chromium        string
	IgnoreRobots    bool
	KeepCredentials bool
	Force           bool
	JSON            bool
	Verbose         bool
	Submit          bool
	Post            string
	PostType        string
	AllowPrivate    bool
	Media           string
	NoSandbox       bool
	WaitIdle        time.Duration
}

func newCaptureCmd(ios *IOStreams, runF func(context.Context, *captureOptions) error) *cobra.Command {
	opts := &captureOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "capture [flags] URL... -o OUT.pdf",
		Short: "Capture web pages into a PDF with their Web Capture structures (headless Chromium)",
		Long: `Fetch web pages, render each with headless Chromium, join them into one PDF,
and record where they came from: a page set per page (its identifier over
the bytes fetched, the page's and its images'), the redirect chain, the
capture time and expiry (Cache-Control, Expires), the title, and a command
per start URL with its levels and flags.

Links are followed breadth-first up to --levels (1: the start pages only),
only to http and https, within --same-site (the start URL's host) or
--same-path (its scheme, host and path up to the last /), and never to what
robots.txt forbids unless --ignore-robots. --max-pages bounds the pages,
--max-bytes the bytes fetched (no page is started past it),
--page-timeout each page (a slower one is skipped and reported), and
--timeout the whole capture: when it is reached, what was captured is
written and the rest reported; so is Ctrl-C, which then exits 130.
--post DATA submits DATA to each start URL by POST, as a form would
(--submit: the start URLs are GET form submissions); the command records
it, so refresh can submit it again. User information in URLs is left out
of the PDF unless --keep-credentials. Chromium is Debian's chromium package,
found on PATH, or --chromium; it runs with its sandbox unless webcap runs
as root (or --no-sandbox).

Every request is fetched by webcap itself and handed to the browser, so the
identifiers are computed from exactly the bytes rendered: whole 200
answers only (the browser's cache is off and no conditional request is
sent). A page is printed once it is done: its load event, its lazy images
(loaded eagerly, the page scrolled through), a quiet network, its fonts.
Each fetched resource is one content set: every URL that redirected to a
page is in its URL alias chain and finds it in the URLS tree. Only http and
https are fetched, and only from public addresses, unless a start URL is
itself a loopback or private address (then such addresses are allowed) or
--allow-private. An auxiliary file that cannot or must not be fetched is
left out of its page's identifier and reported; the crawl goes on.
Skipped links are summarised by reason (--verbose lists each).

Exit status: 0 when the capture audits with no error, 1 when no page could
be captured or errors remain, 2 for a usage error, 3 when a file cannot be
written or Chromium cannot be started, 130 when interrupted (what was
captured before is written).`,
		Example: `  $ webcap capture https://example.com/ -o example.pdf
  $ webcap capture --levels 2 --same-path https://example.com/docs/ -o docs.pdf
  $ webcap capture --max-pages 20 --timeout 2m --json https://a.example/ https://b.example/ -o two.pdf
  $ webcap capture --post 'q=web+capture' https://example.com/search -o results.pdf`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.URLs = args
			if err := checkCapture("capture", opts); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runCapture(cmd.Context(), opts)
		},
	}
	captureFlags(cmd, opts)
	return cmd
}

// captureFlags are capture's and append's flags.
func captureFlags(cmd *cobra.Command, opts *captureOptions) {
	f := cmd.Flags()
	f.StringVarP(&opts.Out, "output", "o", "", "write the result to `OUT.pdf`")
	f.IntVar(&opts.Levels, "levels", 1, "levels of links followed (1: the start pages only)")
	f.BoolVar(&opts.SameSite, "same-site", false, "follow links to the start URL's host only")
	f.BoolVar(&opts.SamePath, "same-path", false, "follow links below the start URL's path only")
	f.IntVar(&opts.MaxPages, "max-pages", 50, "capture at most `N` pages")
	opts.MaxBytes = 100 << 20
	f.Var(&opts.MaxBytes, "max-bytes", "start no page once `N` bytes are fetched (k, M, G)")
	f.DurationVar(&opts.Timeout, "timeout", 5*time.Minute, "stop capturing after `D` and write what was captured")
	f.IntVar(&opts.Jobs, "jobs", 2, "render `N` pages at once, in parallel browser tabs")
	f.DurationVar(&opts.PageTimeout, "page-timeout", 30*time.Second, "skip a page that takes longer than `D` to fetch and render")
	f.StringVar(&opts.Profile, "profile", "pdf", "canonicalization for URLS keys: pdf, pdf2 or rfc3986")
	f.StringVar(&opts.Chromium, "chromium", "", "the Chromium executable (default: chromium on PATH)")
	f.BoolVar(&opts.IgnoreRobots, "ignore-robots", false, "fetch pages robots.txt forbids")
	f.BoolVar(&opts.KeepCredentials, "keep-credentials", false, "write URLs with user:password@ as they are")
	f.BoolVar(&opts.Submit, "submit", false, "the start URLs are form submissions by GET (the data in their query)")
	f.StringVar(&opts.Post, "post", "", "submit `DATA` to each start URL by POST, as a form (recorded in the command)")
	f.StringVar(&opts.PostType, "post-type", capture.DefaultPostType, "the content type of --post's data")
	f.BoolVar(&opts.Force, "force", false, "replace OUT.pdf if it exists")
	f.BoolVar(&opts.JSON, "json", false, "print the summary as JSON (every skipped URL included)")
	f.BoolVarP(&opts.Verbose, "verbose", "v", false, "list every skipped URL, not a line per reason")
	browserFlags(f, &opts.AllowPrivate, &opts.Media, &opts.NoSandbox, &opts.WaitIdle)
}

// browserFlags are the flags of every command that fetches pages.
func browserFlags(f *pflag.FlagSet, allowPrivate *bool, media *string, noSandbox *bool, waitIdle *time.Duration) {
	f.BoolVar(allowPrivate, "allow-private", false, "fetch from loopback, private and link-local addresses too (and cloud metadata ones)")
	f.StringVar(media, "media", "print", "print pages with CSS media `print` or screen")
	f.BoolVar(noSandbox, "no-sandbox", false, "run Chromium without its sandbox (it always is as root)")
	f.DurationVar(waitIdle, "wait-idle", capture.DefaultIdleQuiet, "print a page once it has fetched nothing for `D` (at most 10s after its load)")
}

// allowed is what --allow-private allows.
func allowed(allowPrivate bool) capture.AddressClass {
	if allowPrivate {
		return capture.Loopback | capture.Private | capture.LinkLocal | capture.Metadata
	}
	return 0
}

// checkCapture checks capture's and append's flags.
func checkCapture(name string, opts *captureOptions) error {
	switch {
	case opts.Out == "":
		return usagef("%s: say where to write: -o OUT.pdf", name)
	case opts.Levels < 1:
		return usagef("%s: --levels %d: 1 captures the start pages only", name, opts.Levels)
	case opts.Jobs < 1:
		return usagef("%s: --jobs %d: render at least one page at a time", name, opts.Jobs)
	case opts.MaxPages < 1:
		return usagef("%s: --max-pages %d: capture at least one page", name, opts.MaxPages)
	case opts.PostType != "" && !isASCIIText(opts.PostType):
		return usagef("%s: --post-type %q is not ASCII", name, opts.PostType)
	case opts.Media != "print" && opts.Media != "screen":
		return usagef("%s: --media %q: want print or screen", name, opts.Media)
	case opts.WaitIdle <= 0 || opts.WaitIdle > capture.DefaultIdleMax:
		return usagef("%s: --wait-idle %v: give a time above 0 and up to %v", name, opts.WaitIdle, capture.DefaultIdleMax)
	}
	return nil
}

func newAppendCmd(ios *IOStreams, runF func(context.Context, *captureOptions) error) *cobra.Command {
	opts := &captureOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "append [flags] FILE URL... -o OUT.pdf",
		Short: "Capture more web pages into an existing capture (incremental update)",
		Long: `Capture web pages as webcap capture does and add them after the last page of
FILE, a capture, as an incremental update: FILE's bytes are kept exactly
(a signature over them stays valid) and FILE itself is never changed.

Pages FILE already has (by canonical URL, redirects included) are not
fetched again: they are reported as skipped, and links to them become
internal links. Links on FILE's pages to the newly captured pages become
internal links too. The new page sets, commands and IDS/URLS entries join
FILE's; an image whose identifier an image set of FILE already has joins
that set instead of making a second one.

The flags are webcap capture's: --levels, --same-site and --same-path apply
to the new start URLs, which are recorded as new commands in /SpiderInfo.

Exit status: 0 when the result audits with no error, 1 when no page could
be captured or errors remain, 2 for a usage error, 3 when a file cannot be
read or written or Chromium cannot be started.`,
		Example: `  $ webcap append site.pdf https://example.com/about.html -o site2.pdf
  $ webcap append --levels 2 --same-path site.pdf https://example.com/blog/ -o site2.pdf`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.File, opts.URLs = args[0], args[1:]
			if err := checkCapture("append", opts); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runCapture(cmd.Context(), opts)
		},
	}
	captureFlags(cmd, opts)
	return cmd
}

func runCapture(ctx context.Context, opts *captureOptions) error {
	name := "capture"
	if opts.File != "" {
		name = "append"
	}
	p, err := canon.ParseProfile(opts.Profile)
	if err != nil {
		return usagef("%s: --profile %q: want pdf, pdf2 or rfc3986", name, opts.Profile)
	}
	// Before anything is fetched: a crawl is not lost to a bad -o.
	if err := checkOutput(name, opts.Out, opts.Force, opts.File); err != nil {
		return err
	}
	var file []byte
	if opts.File != "" {
		if file, err = os.ReadFile(opts.File); err != nil {
			return &ioError{fmt.Errorf("append: %w", err)}
		}
	}
	ctx, cancel := context.WithTimeoutCause(ctx, opts.Timeout, capture.ErrTimeLimit)
	defer cancel()
	b, err := startBrowser(ctx, opts.IO, name, opts.Chromium, opts.NoSandbox)
	if err != nil {
		return err
	}
	defer b.Close()
	var flags webcapture.Flags
	if opts.SameSite {
		flags |= webcapture.SameSite
	}
	if opts.SamePath {
		flags |= webcapture.SamePath
	}
	if opts.Submit || opts.Post != "" {
		flags |= webcapture.Submit
	}
	co := capture.Options{Levels: opts.Levels, Flags: flags, MaxPages: opts.MaxPages, MaxBytes: int64(opts.MaxBytes),
		PageTimeout: opts.PageTimeout, Jobs: opts.Jobs, Profile: p, IgnoreRobots: opts.IgnoreRobots, KeepCredentials: opts.KeepCredentials,
		Allow: allowed(opts.AllowPrivate), Media: opts.Media, IdleQuiet: opts.WaitIdle, Progress: newCaptureProgress(opts.IO, name, opts.MaxPages)}
	starts := make([]capture.Start, len(opts.URLs))
	for i, u := range opts.URLs {
		starts[i] = capture.Start{URL: u, Levels: opts.Levels, Flags: flags}
		if opts.Post != "" {
			starts[i].Post, starts[i].PostType = []byte(opts.Post), opts.PostType
		}
	}
	var res *capture.Result
	if file != nil {
		res, err = capture.AppendStarts(ctx, b, file, opts.File, starts, co)
	} else {
		res, err = capture.CaptureStarts(ctx, b, starts, co)
	}
	clearProgress(opts.IO)
	var nothing *capture.NothingError
	if errors.As(err, &nothing) {
		if opts.Verbose {
			writeSkips(opts.IO.ErrOut, nothing.Skips, true)
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	if err != nil {
		return err
	}
	if err := writeAtomically(opts.Out, res.PDF); err != nil {
		return &ioError{fmt.Errorf("%s: %w", name, err)}
	}
	d, err := pdfio.ReadBytes(res.PDF, opts.Out, pdfio.Options{})
	if err != nil {
		return &ioError{fmt.Errorf("%s: reading the result back: %w", name, err)}
	}
	if opts.JSON {
		err = captureJSON(opts, res, d, p)
	} else {
		err = captureText(opts, res, d, p, file != nil)
	}
	if err == nil || errors.Is(err, errFailed) {
		kept := fmt.Sprintf("the %s captured before are in %s", plural(len(res.Pages), "page"), displayInput(opts.Out))
		if stop := stopped(opts.IO, name, res.Stopped, kept); stop != nil {
			return stop
		}
	}
	return err
}

// stopped reports a crawl that stopped before its end, once what it did
// is written: kept says what was kept ("the 3 pages captured before are
// in a.pdf"). A time limit is said; an interrupt is the error returned.
func stopped(ios *IOStreams, name string, why error, kept string) error {
	var in *interrupted
	switch {
	case why == nil:
		return nil
	case errors.As(why, &in):
		fmt.Fprintf(ios.ErrOut, "%s: %v: %s\n", name, in, kept)
		return &interrupted{in.sig, true}
	}
	fmt.Fprintf(ios.ErrOut, "%s: stopped early: %v: %s\n", name, why, kept)
	return nil
}

// captureJSON prints a capture's summary as JSON.
func captureJSON(opts *captureOptions, res *capture.Result, d *pdfio.Document, p *canon.Profile) error {
	type page struct {
		URL     string         `json:"url"`
		Chains  [][]string     `json:"redirects,omitempty"`
		Title   string         `json:"title"`
		Pages   []int          `json:"pages"`
		ID      string         `json:"id"`
		Missing []capture.Skip `json:"missing,omitempty"`
	}
	out := struct {
		Output  string         `json:"output"`
		Pages   []page         `json:"captured"`
		Skips   []capture.Skip `json:"skipped"`
		Links   int            `json:"internalLinks"`
		Errors  int            `json:"auditErrors"`
		Stopped string         `json:"stopped,omitempty"`
	}{Output: opts.Out, Links: res.Links, Errors: countErrors(d, p), Skips: res.Skips}
	if out.Skips == nil {
		out.Skips = []capture.Skip{}
	}
	if res.Stopped != nil {
		out.Stopped = res.Stopped.Error()
	}
	for i, s := range pageSets(res) {
		rp := res.Pages[i]
		out.Pages = append(out.Pages, page{URL: s.URL, Chains: rp.Chains, Title: rp.Title, Pages: s.Pages, ID: s.ID.String(), Missing: rp.Missing})
	}
	if err := writeJSON(opts.IO.Out, out); err != nil {
		return err
	}
	if out.Errors > 0 {
		return errFailed
	}
	return nil
}

// captureText prints a capture's summary: a line per set written, the
// auxiliary files left out of identifiers, the skipped URLs by reason, the
// totals, and what the audit of the result finds.
func captureText(opts *captureOptions, res *capture.Result, d *pdfio.Document, p *canon.Profile, appended bool) error {
	w := opts.IO.Out
	writeSets(w, res.Build.Sets)
	for _, pg := range res.Pages {
		for _, m := range pg.Missing {
			fmt.Fprintf(w, "left out  %s: %s (an auxiliary file of %s; its identifier does not cover it)\n", m.URL, m.Reason, pg.URL)
		}
	}
	writeSkips(w, res.Skips, opts.Verbose)
	if appended {
		fmt.Fprintf(w, "%s: %s captured and added after the %s of %s (%s now), %s made internal, %s skipped\n",
			displayInput(opts.Out), plural(len(res.Pages), "page"), plural(res.First-1, "page"), displayInput(opts.File),
			plural(len(d.Pages), "PDF page"), plural(res.Links, "link"), plural(len(res.Skips), "URL"))
	} else {
		fmt.Fprintf(w, "%s: %s captured into %s, %s made internal, %s skipped\n",
			displayInput(opts.Out), plural(len(res.Pages), "page"), plural(len(d.Pages), "PDF page"), plural(res.Links, "link"), plural(len(res.Skips), "URL"))
	}
	return remaining(w, d, p, opts.Out)
}

// startBrowser finds and starts Chromium for a command, and says once
// what the user should know of how it runs; its errors are I/O errors.
func startBrowser(ctx context.Context, ios *IOStreams, cmd, chromium string, noSandbox bool) (*capture.Browser, error) {
	exe, err := capture.FindChromium(chromium)
	if err != nil {
		return nil, &ioError{fmt.Errorf("%s: %w", cmd, err)}
	}
	b, err := capture.NewBrowser(ctx, exe, capture.BrowserOptions{NoSandbox: noSandbox})
	if err != nil {
		return nil, &ioError{fmt.Errorf("%s: %w", cmd, err)}
	}
	for _, n := range b.Notes {
		fmt.Fprintf(ios.ErrOut, "%s: %s\n", cmd, n)
	}
	return b, nil
}

// newCaptureProgress shows pages done of pages known (done + queued, at
// most max) and bytes fetched: a bar on a terminal, a line per page
// otherwise.
func newCaptureProgress(ios *IOStreams, name string, max int) func(done, queued int, bytes int64, url string) {
	f, ok := ios.ErrOut.(*os.File)
	if !ok || !isTerminal(f) {
		return func(done, queued int, bytes int64, url string) {
			fmt.Fprintf(ios.ErrOut, "%s: %d done, %d queued, %s fetched: %s\n", name, done, queued, sizeOf(bytes), url)
		}
	}
	bar := progressbar.NewOptions(max, progressbar.OptionSetWriter(ios.ErrOut), progressbar.OptionShowCount(),
		progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish())
	return func(done, queued int, bytes int64, url string) {
		bar.ChangeMax(min(done+queued, max))
		bar.Describe(fmt.Sprintf("capturing (%s)", sizeOf(bytes)))
		_ = bar.Set(done)
	}
}

// clearProgress erases the progress bar's line, on a terminal.
func clearProgress(ios *IOStreams) {
	if f, ok := ios.ErrOut.(*os.File); ok && isTerminal(f) {
		fmt.Fprint(ios.ErrOut, "\r\033[K")
	}
}

// writeJSON writes v as indented JSON, a summary's form.
func writeJSON(w io.Writer, v any) error {
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	if err := e.Encode(v); err != nil {
		return &ioError{err}
	}
	return nil
}

func sizeOf(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// pageSets returns the page sets a capture wrote, one per page in
// res.Pages, in order.
func pageSets(res *capture.Result) []build.Set {
	var out []build.Set
	for _, s := range res.Build.Sets {
		if s.Kind == webcapture.PageSet {
			out = append(out, s)
		}
	}
	return out
}

func isASCIIText(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// byteSize is a flag of a number of bytes: 1048576, 500k, 100M, 2G (k, M,
// G: 1024, 1024², 1024³; a trailing B or iB is allowed).
type byteSize int64

func (s *byteSize) String() string {
	switch n := int64(*s); {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%dG", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dM", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dk", n>>10)
	default:
		return strconv.FormatInt(n, 10)
	}
}

func (s *byteSize) Set(v string) error {
	t := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(v), "B"), "i")
	mult := int64(1)
	if t != "" {
		switch t[len(t)-1] {
		case 'k', 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		}
		if mult > 1 {
			t = t[:len(t)-1]
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return fmt.Errorf("%q is not a size: give bytes, or a number with k, M or G", v)
	}
	*s = byteSize(n * mult)
	return nil
}

func (s *byteSize) Type() string { return "size" }
