package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/capture"
	"github.com/webcap/webcap/pdfio"
)

type refreshOptions struct {
	IO          *IOStreams
	File        string
	DryRun      bool
	TextOnly    bool
	JSON        bool
	Profile     string
	Chromium    string
	MaxPages    int
	Timeout     time.Duration
	PageTimeout time.Duration
	Robots      bool
}

func newRefreshCmd(ios *IOStreams, runF func(context.Context, *refreshOptions) error) *cobra.Command {
	opts := &refreshOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "refresh --dry-run [flags] FILE",
		Short: "Re-run a capture's commands and report which pages changed",
		Long: `Re-run the commands stored in FILE's /SpiderInfo (their URLs, levels and
flags), and compare each page set with what its source gives now, by
canonical URL: unchanged, changed, new (linked now, not in the file) or gone
(in the file, not captured now). Pages are compared by their identifiers,
which change with any byte of the page or of its images; --text-only
compares the text identifiers (TID) instead, as Acrobat's "compare only
page text" does.

This version reports only (--dry-run is required): replacing the changed
pages in the file comes next.

Exit status: 0 when nothing changed, 1 when something changed, is new or
gone, 2 for a usage error, 3 when the file cannot be read or Chromium
cannot be started.`,
		Example: `  $ webcap refresh --dry-run capture.pdf
  $ webcap refresh --dry-run --text-only --json capture.pdf`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.File = args[0]
			if !opts.DryRun {
				return usagef("refresh: only --dry-run is available yet: it reports what changed without writing")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runRefresh(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&opts.DryRun, "dry-run", false, "report what changed, write nothing")
	f.BoolVar(&opts.TextOnly, "text-only", false, "compare only the pages' text (TID)")
	f.BoolVar(&opts.JSON, "json", false, "print the report as JSON")
	f.StringVar(&opts.Profile, "profile", "pdf", "canonicalization of URLs: pdf, pdf2 or rfc3986")
	f.StringVar(&opts.Chromium, "chromium", "", "the Chromium executable (default: chromium on PATH)")
	f.IntVar(&opts.MaxPages, "max-pages", 100, "fetch at most `N` pages")
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
	d, err := pdfio.Open(opts.File, pdfio.Options{})
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
	changes, skips, err := capture.Refresh(ctx, b, d, capture.RefreshOptions{TextOnly: opts.TextOnly,
		Options: capture.Options{Profile: p, MaxPages: opts.MaxPages, PageTimeout: opts.PageTimeout, IgnoreRobots: opts.Robots}})
	if err != nil {
		return fmt.Errorf("refresh: %w", err)
	}
	different := 0
	for _, c := range changes {
		if c.Status != "unchanged" {
			different++
		}
	}
	if opts.JSON {
		e := json.NewEncoder(opts.IO.Out)
		e.SetIndent("", "  ")
		if err := e.Encode(struct {
			File    string           `json:"file"`
			Changes []capture.Change `json:"pages"`
			Skips   []capture.Skip   `json:"skipped"`
		}{opts.File, changes, skips}); err != nil {
			return &ioError{err}
		}
	} else {
		for _, c := range changes {
			fmt.Fprintf(opts.IO.Out, "%-9s %s\n", c.Status, c.URL)
		}
		fmt.Fprintf(opts.IO.Out, "%s: %d pages compared (%s), %d differ (dry run: nothing written)\n",
			displayInput(opts.File), len(changes), map[bool]string{false: "by ID", true: "by text"}[opts.TextOnly], different)
	}
	if different > 0 {
		return errFailed
	}
	return nil
}
