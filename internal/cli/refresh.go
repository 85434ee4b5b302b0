package cli

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/capture"
	"github.com/webcap/webcap/pdfio"
)

type refreshOptions struct {
	IO          *IOStreams
	File        string
	Out         string
	Force       bool
	DryRun      bool
	TextOnly    bool
	JSON        bool
	Profile     string
	Chromium    string
	MaxPages    int
	MaxBytes    byteSize
	Timeout     time.Duration
	PageTimeout time.Duration
	Robots      bool
}

func newRefreshCmd(ios *IOStreams, runF func(context.Context, *refreshOptions) error) *cobra.Command {
	opts := &refreshOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "refresh [flags] FILE -o OUT.pdf",
		Short: "Re-run a capture's commands, report which pages changed, and replace them",
		Long: `Re-run the commands stored in FILE's /SpiderInfo (their URLs, levels and
flags), and compare each page set with what its source gives now, by
canonical URL: unchanged, changed, new (linked now, not in the file) or gone
(in the file, not captured now). Pages are compared by their identifiers,
which change with any byte of the page or of its images; --text-only
compares the text identifiers (TID) instead, as Acrobat's "compare only
page text" does.

Then write OUT.pdf: FILE's bytes, then an incremental update in which each
changed page set's pages are replaced by the new capture (the set keeps its
object, and gets the new identifier, text identifier, title and times), new
pages are added at the end with their page sets, the sources of unchanged
sets get the time they were checked (/TS) and their new expiry (/E), and
links to the pages become internal links. Gone pages are kept as they are.
FILE itself is never changed. --dry-run reports without writing.

Exit status: 0 when OUT.pdf is written and audits with no error (with
--dry-run: when nothing changed), 1 when errors remain (with --dry-run:
when something changed, is new or gone), 2 for a usage error, 3 when a
file cannot be read or written or Chromium cannot be started.`,
		Example: `  $ webcap refresh capture.pdf -o refreshed.pdf
  $ webcap refresh --text-only capture.pdf -o refreshed.pdf
  $ webcap refresh --dry-run --json capture.pdf`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.File = args[0]
			switch {
			case !opts.DryRun && opts.Out == "":
				return usagef("refresh: say where to write: -o OUT.pdf (or --dry-run to report only)")
			case opts.DryRun && opts.Out != "":
				return usagef("refresh: --dry-run writes nothing: drop -o %s", opts.Out)
			case opts.Out != "" && sameFile(opts.Out, opts.File):
				return usagef("refresh: -o %s is FILE: refresh never changes its input; write to another file", opts.Out)
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
	return cmd
}

func runRefresh(ctx context.Context, opts *refreshOptions) error {
	p, err := canon.ParseProfile(opts.Profile)
	if err != nil {
		return usagef("refresh: --profile %q: want pdf, pdf2 or rfc3986", opts.Profile)
	}
	if opts.Out != "" && !opts.Force {
		if _, err := os.Stat(opts.Out); err == nil {
			return usagef("refresh: %s exists: choose another -o, or --force to replace it", opts.Out)
		}
	}
	file, err := os.ReadFile(opts.File)
	if err != nil {
		return &ioError{fmt.Errorf("refresh: %w", err)}
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	b, err := startBrowser(ctx, "refresh", opts.Chromium)
	if err != nil {
		return err
	}
	defer b.Close()
	res, err := capture.Refresh(ctx, b, file, opts.File, capture.RefreshOptions{TextOnly: opts.TextOnly, DryRun: opts.DryRun,
		Options: capture.Options{Profile: p, MaxPages: opts.MaxPages, MaxBytes: int64(opts.MaxBytes), PageTimeout: opts.PageTimeout, IgnoreRobots: opts.Robots,
			Progress: newCaptureProgress(opts.IO, "refresh", opts.MaxPages)}})
	if err != nil {
		return fmt.Errorf("refresh: %w", err)
	}
	clearProgress(opts.IO)
	different, gone := 0, 0
	for _, c := range res.Changes {
		if c.Status != "unchanged" {
			different++
		}
		if c.Status == "gone" {
			gone++
		}
	}
	var d *pdfio.Document
	if !opts.DryRun {
		if err := writeAtomically(opts.Out, res.PDF); err != nil {
			return &ioError{fmt.Errorf("refresh: %w", err)}
		}
		if d, err = pdfio.ReadBytes(res.PDF, opts.Out, pdfio.Options{}); err != nil {
			return &ioError{fmt.Errorf("refresh: reading the result back: %w", err)}
		}
	}
	by := map[bool]string{false: "by ID", true: "by text"}[opts.TextOnly]
	if opts.JSON {
		out := struct {
			File     string           `json:"file"`
			Output   string           `json:"output,omitempty"`
			Changes  []capture.Change `json:"pages"`
			Skips    []capture.Skip   `json:"skipped"`
			Replaced int              `json:"replaced"`
			Added    int              `json:"added"`
			Checked  int              `json:"checked"`
			Links    int              `json:"internalLinks"`
			Errors   int              `json:"auditErrors"`
		}{File: opts.File, Output: opts.Out, Changes: res.Changes, Skips: res.Skips, Replaced: res.Replaced, Added: res.Added,
			Checked: res.Checked, Links: res.Links}
		if d != nil {
			out.Errors = countErrors(d, p)
		}
		if err := writeJSON(opts.IO.Out, out); err != nil {
			return err
		}
		if (opts.DryRun && different > 0) || out.Errors > 0 {
			return errFailed
		}
		return nil
	}
	w := opts.IO.Out
	for _, c := range res.Changes {
		fmt.Fprintf(w, "%-9s %s\n", c.Status, c.URL)
	}
	if opts.DryRun {
		fmt.Fprintf(w, "%s: %s compared (%s), %d differ (dry run: nothing written)\n",
			displayInput(opts.File), plural(len(res.Changes), "page"), by, different)
		if different > 0 {
			return errFailed
		}
		return nil
	}
	fmt.Fprintf(w, "%s: %s compared (%s): %d replaced, %d added, %d unchanged (checked), %d gone (kept); %s made internal\n",
		displayInput(opts.Out), plural(len(res.Changes), "page"), by, res.Replaced, res.Added, res.Checked, gone, plural(res.Links, "link"))
	return remaining(w, d, p, opts.Out)
}
