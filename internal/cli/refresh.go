package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/capture"
	"github.com/webcap/webcap/pdfio"
)

type refreshOptions struct {
	IO           *IOStreams
	File         string
	Out          string
	Force        bool
	DryRun       bool
	TextOnly     bool
	JSON         bool
	Profile      string
	Chromium     string
	MaxPages     int
	MaxBytes     byteSize
	Timeout      time.Duration
	PageTimeout  time.Duration
	Robots       bool
	Resubmit     bool
	AllowPrivate bool
	Media        string
	NoSandbox    bool
	WaitIdle     time.Duration
}

func newRefreshCmd(ios *IOStreams, runF func(context.Context, *refreshOptions) error) *cobra.Command {
	opts := &refreshOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "refresh [flags] FILE -o OUT.pdf",
		Short: "Re-run a capture's commands, report which pages changed, and replace them",
		Long: `Re-run the commands stored in FILE's /SpiderInfo (their URLs, levels and
flags; each is listed first, with whether it is replayed), and compare each
page set with what its source gives now, by canonical URL (its own, or any
URL of its redirect chains):

  unchanged    the source gives what the set holds
  changed      the source gives something else
  new          captured now (linked), not in the file
  gone         the server answers 404 or 410
  unreachable  it could not be fetched: connection refused, DNS, TLS,
               a time-out, another error status (the cause is shown)
  unchecked    not fetched: a limit, robots.txt, a form not resubmitted,
               an address not allowed (--allow-private)

A page set the crawl does not reach is fetched on its own, so gone means
the server said so. Pages are compared by their identifiers, which change
with any byte of the page or of its images; --text-only compares the text
identifiers (TID) instead, as Acrobat's "compare only page text" does.

A capture is a file from someone else: refresh fetches only from public
addresses (--allow-private for loopback, private, link-local and cloud
metadata ones), only http and https, and resubmits a form's data only with
--resubmit. --dry-run sends no request with a body and no method but GET
and HEAD, even from a page's scripts.

Then write OUT.pdf: FILE's bytes, then an incremental update in which each
changed page set's pages are replaced by the new capture (the set keeps its
object, and gets the new identifier, text identifier, title and times), new
pages are added at the end with their page sets, the sources of unchanged
sets get the time they were checked (/TS) and their new expiry (/E), and
links to the pages become internal links. Gone, unreachable and unchecked
pages are kept as they are. FILE itself is never changed. When no page can
be checked, nothing is written.

Exit status: 0 when OUT.pdf is written and audits with no error (with
--dry-run: when every page is unchanged), 1 when errors remain or nothing
could be checked (with --dry-run: when a page is not unchanged), 2 for a
usage error, 3 when a file cannot be read or written or Chromium cannot be
started, 130 when interrupted.`,
		Example: `  $ webcap refresh capture.pdf -o refreshed.pdf
  $ webcap refresh --text-only capture.pdf -o refreshed.pdf
  $ webcap refresh --dry-run --json capture.pdf
  $ webcap refresh --dry-run --allow-private intranet-capture.pdf`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.File = args[0]
			switch {
			case !opts.DryRun && opts.Out == "":
				return usagef("refresh: say where to write: -o OUT.pdf (or --dry-run to report only)")
			case opts.DryRun && opts.Out != "":
				return usagef("refresh: --dry-run writes nothing: drop -o %s", opts.Out)
			case opts.Media != "print" && opts.Media != "screen":
				return usagef("refresh: --media %q: want print or screen", opts.Media)
			case opts.WaitIdle <= 0 || opts.WaitIdle > capture.DefaultIdleMax:
				return usagef("refresh: --wait-idle %v: give a time above 0 and up to %v", opts.WaitIdle, capture.DefaultIdleMax)
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runRefresh(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.Out, "output", "o", "", "write the refreshed capture to `OUT.pdf`")
	f.BoolVar(&opts.Force, "force", false, "replace OUT.pdf if it exists")
	f.BoolVar(&opts.DryRun, "dry-run", false, "report what changed, write nothing")
	f.BoolVar(&opts.TextOnly, "text-only", false, "compare only the pages' text (TID)")
	f.BoolVar(&opts.JSON, "json", false, "print the report as JSON")
	f.StringVar(&opts.Profile, "profile", "pdf", "canonicalization of URLs: pdf, pdf2 or rfc3986")
	f.StringVar(&opts.Chromium, "chromium", "", "the Chromium executable (default: chromium on PATH)")
	f.IntVar(&opts.MaxPages, "max-pages", 100, "fetch at most `N` pages")
	opts.MaxBytes = 100 << 20
	f.Var(&opts.MaxBytes, "max-bytes", "start no page once `N` bytes are fetched (k, M, G)")
	f.DurationVar(&opts.Timeout, "timeout", 5*time.Minute, "stop fetching after `D`")
	f.DurationVar(&opts.PageTimeout, "page-timeout", 30*time.Second, "skip a page that takes longer than `D`")
	f.BoolVar(&opts.Robots, "ignore-robots", false, "fetch pages robots.txt forbids")
	f.BoolVar(&opts.Resubmit, "resubmit", false, "replay the commands that submit forms, with the file's data (never by POST with --dry-run)")
	browserFlags(f, &opts.AllowPrivate, &opts.Media, &opts.NoSandbox, &opts.WaitIdle)
	return cmd
}

func runRefresh(ctx context.Context, opts *refreshOptions) error {
	p, err := canon.ParseProfile(opts.Profile)
	if err != nil {
		return usagef("refresh: --profile %q: want pdf, pdf2 or rfc3986", opts.Profile)
	}
	if opts.Out != "" {
		if err := checkOutput("refresh", opts.Out, opts.Force, opts.File); err != nil {
			return err
		}
	}
	file, err := os.ReadFile(opts.File)
	if err != nil {
		return &ioError{fmt.Errorf("refresh: %w", err)}
	}
	ctx, cancel := context.WithTimeoutCause(ctx, opts.Timeout, capture.ErrTimeLimit)
	defer cancel()
	b, err := startBrowser(ctx, opts.IO, "refresh", opts.Chromium, opts.NoSandbox)
	if err != nil {
		return err
	}
	defer b.Close()
	res, err := capture.Refresh(ctx, b, file, opts.File, capture.RefreshOptions{TextOnly: opts.TextOnly, DryRun: opts.DryRun, Resubmit: opts.Resubmit,
		Options: capture.Options{Profile: p, MaxPages: opts.MaxPages, MaxBytes: int64(opts.MaxBytes), PageTimeout: opts.PageTimeout, IgnoreRobots: opts.Robots,
			Allow: allowed(opts.AllowPrivate), Media: opts.Media, IdleQuiet: opts.WaitIdle, Progress: newCaptureProgress(opts.IO, "refresh", opts.MaxPages)}})
	if err != nil {
		return fmt.Errorf("refresh: %w", err)
	}
	clearProgress(opts.IO)
	count := res.Count()
	differ := len(res.Changes) - count[capture.StatusUnchanged]
	written := !opts.DryRun && res.PDF != nil
	var d *pdfio.Document
	if written {
		if err := writeAtomically(opts.Out, res.PDF); err != nil {
			return &ioError{fmt.Errorf("refresh: %w", err)}
		}
		if d, err = pdfio.ReadBytes(res.PDF, opts.Out, pdfio.Options{}); err != nil {
			return &ioError{fmt.Errorf("refresh: reading the result back: %w", err)}
		}
	}
	if opts.JSON {
		err = refreshJSON(opts, res, d, p)
	} else {
		err = refreshText(opts, res, d, p, count)
	}
	if err != nil && !errors.Is(err, errFailed) {
		return err
	}
	if written || opts.DryRun {
		kept := fmt.Sprintf("%s compared before it", plural(len(res.Changes)-res.Count()[capture.StatusUnchecked], "page"))
		if written {
			kept += "; the refreshed file is " + displayInput(opts.Out)
		}
		if stop := stopped(opts.IO, "refresh", res.Stopped, kept); stop != nil {
			return stop
		}
	}
	switch {
	case !opts.DryRun && !written:
		return fmt.Errorf("refresh: nothing written: no page of %s could be checked (%s)", displayInput(opts.File), statusCounts(count))
	case opts.DryRun && differ > 0:
		return errFailed
	}
	return err
}

// refreshJSON prints refresh's report as JSON.
func refreshJSON(opts *refreshOptions, res *capture.RefreshResult, d *pdfio.Document, p *canon.Profile) error {
	out := struct {
		File     string           `json:"file"`
		Output   string           `json:"output,omitempty"`
		Commands []capture.Replay `json:"commands"`
		Changes  []capture.Change `json:"pages"`
		Skips    []capture.Skip   `json:"skipped"`
		Replaced int              `json:"replaced"`
		Added    int              `json:"added"`
		Checked  int              `json:"checked"`
		Links    int              `json:"internalLinks"`
		Errors   int              `json:"auditErrors"`
		Stopped  string           `json:"stopped,omitempty"`
	}{File: opts.File, Commands: res.Commands, Changes: res.Changes, Skips: res.Skips, Replaced: res.Replaced, Added: res.Added,
		Checked: res.Checked, Links: res.Links}
	if out.Skips == nil {
		out.Skips = []capture.Skip{}
	}
	if res.Stopped != nil {
		out.Stopped = res.Stopped.Error()
	}
	if d != nil {
		out.Output, out.Errors = opts.Out, countErrors(d, p)
	}
	if err := writeJSON(opts.IO.Out, out); err != nil {
		return err
	}
	if out.Errors > 0 {
		return errFailed
	}
	return nil
}

// refreshText prints refresh's report: the commands replayed, a line per
// page, and the totals.
func refreshText(opts *refreshOptions, res *capture.RefreshResult, d *pdfio.Document, p *canon.Profile, count map[string]int) error {
	w := opts.IO.Out
	for i, c := range res.Commands {
		what := fmt.Sprintf("command %d: %s %s (levels %d", i+1, c.Method, c.URL, c.Levels)
		if c.Flags != "" {
			what += ", " + c.Flags
		}
		what += ")"
		if c.Replayed {
			fmt.Fprintf(w, "%s: replayed\n", what)
		} else {
			fmt.Fprintf(w, "%s: not replayed: %s\n", what, c.Reason)
		}
	}
	for _, c := range res.Changes {
		if c.Reason != "" {
			fmt.Fprintf(w, "%-11s %s: %s\n", c.Status, c.URL, c.Reason)
		} else {
			fmt.Fprintf(w, "%-11s %s\n", c.Status, c.URL)
		}
	}
	by := map[bool]string{false: "by ID", true: "by text"}[opts.TextOnly]
	switch {
	case opts.DryRun:
		fmt.Fprintf(w, "%s: %s compared (%s): %s (dry run: nothing written)\n",
			displayInput(opts.File), plural(len(res.Changes), "page"), by, statusCounts(count))
		return nil
	case d == nil:
		return nil
	}
	var parts []string
	for _, n := range []struct {
		n    int
		what string
	}{{res.Replaced, "replaced"}, {res.Added, "added"}, {res.Checked, "unchanged (checked)"}, {count[capture.StatusGone], "gone"},
		{count[capture.StatusUnreachable], "unreachable"}, {count[capture.StatusUnchecked], "unchecked"}} {
		if n.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n.n, n.what))
		}
	}
	kept := ""
	if count[capture.StatusGone]+count[capture.StatusUnreachable]+count[capture.StatusUnchecked] > 0 {
		kept = " (the gone, unreachable and unchecked kept as they were)"
	}
	fmt.Fprintf(w, "%s: %s compared (%s): %s%s; %s made internal\n",
		displayInput(opts.Out), plural(len(res.Changes), "page"), by, strings.Join(parts, ", "), kept, plural(res.Links, "link"))
	return remaining(w, d, p, opts.Out)
}

// statusCounts says how many pages have each status, in the order the
// statuses are documented, leaving out those none has.
func statusCounts(count map[string]int) string {
	var parts []string
	for _, s := range []string{capture.StatusUnchanged, capture.StatusChanged, capture.StatusNew, capture.StatusGone, capture.StatusUnreachable, capture.StatusUnchecked} {
		if count[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", count[s], s))
		}
	}
	if len(parts) == 0 {
		return "no page"
	}
	return strings.Join(parts, ", ")
}
