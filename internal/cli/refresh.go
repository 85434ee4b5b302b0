package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/capture"
	"github.com/webcap/webcap/pdfio"
)

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
--resubmit. Nor does it send, without --resubmit, what a page's scripts
send by POST (or any method but GET and HEAD) while it renders: each is
answered in the browser, empty (204), and named on a "not sent" line.
--dry-run sends no request with a body and no method but GET and HEAD.

Then write OUT.pdf: FILE's bytes, then an incremental update in which each
changed page set's pages are replaced by the new capture (the set keeps its
object, and gets the new identifier, text identifier, title and times), new
pages are added at the end with their page sets, the sources of unchanged
sets get the time they were checked (/TS) and their new expiry (/E), and
links to the pages become internal links. Gone, unreachable and unchecked
pages are kept as they are. FILE itself is never changed unless
--in-place. When no page can be checked, nothing is written. The
bookmarks of a changed set open its new pages (its new Article replaces
the old one in the tags), new sets are filed under their site's item, and
a "New and Changed Pages" item (replacing an earlier refresh's) lists
both, each titled with its reason (--bookmarks none: none of this).

--report FILE.html or FILE.json (also with --dry-run) writes what changed,
page set by page set: the old and new identifiers (ID and TID) and titles,
and the change, one of

  text-changed  the page's text changed (its text identifiers differ)
  changed       the page changed but not its text: markup, images, styles
  new, gone, unreachable, unchecked, unchanged   as above

and for each changed page a word-level diff of its text. A PDF keeps a
page's text identifier, not the source text it was computed from, so the
diff compares the text printed on the pages: the old set's pages in FILE
and the new capture's printed pages, read by one extractor (a change of
line breaks or spacing is no change). The HTML is one self-contained page
(no script, no request; deletions and insertions marked <del> and <ins>,
in words as well as colour); the JSON's schema is refresh-report
(webcap help schema refresh-report).

Exit status: 0 when OUT.pdf is written and audits with no error (with
--dry-run: when every page is unchanged), 1 when errors remain or nothing
could be checked (with --dry-run: when a page is not unchanged), 2 for a
usage error, 3 when a file cannot be read or written or Chromium cannot be
started, 130 when interrupted.`,
		Example: `  $ webcap refresh capture.pdf -o refreshed.pdf
  $ webcap refresh --text-only capture.pdf -o refreshed.pdf
  $ webcap refresh --dry-run --json capture.pdf
  # What changed, with a word diff of each changed page, for people and for programs
  $ webcap refresh --report changes.html capture.pdf -o refreshed.pdf
  $ webcap refresh --dry-run --report changes.json capture.pdf
  $ webcap refresh --dry-run --allow-private intranet-capture.pdf`,
		Args: cobra.ExactArgs(1),
		RunE: runner(opts, runF, inBand(runRefresh), func(args []string) error {
			opts.File = args[0]
			if opts.DryRun && (opts.Out != "" || opts.InPlace) {
				return usagef("refresh: --dry-run writes nothing: drop -o and --in-place")
			}
			if opts.DryRun && opts.WARC != "" {
				return usagef("refresh: --dry-run writes nothing: drop --warc")
			}
			if err := checkReportFlag("refresh", opts.Report); err != nil {
				return err
			}
			if err := opts.outputFlags.flags("refresh", true, !opts.DryRun); err != nil {
				return err
			}
			if err := opts.embed.check("refresh", opts.WARC); err != nil {
				return err
			}
			return opts.fetchFlags.check("refresh")
		}),
	}
	opts.outputFlags.add(cmd, "write the refreshed capture to `OUT.pdf`", true)
	opts.fetchFlags.add(cmd, 100)
	f := cmd.Flags()
	f.BoolVar(&opts.DryRun, "dry-run", false, "report what changed, write nothing")
	f.BoolVar(&opts.TextOnly, "text-only", false, "compare only the pages' text (TID)")
	f.BoolVar(&opts.JSON, "json", false, "print the report as JSON")
	f.BoolVar(&opts.Resubmit, "resubmit", false, "replay the commands that submit forms, with the file's data, and send the POSTs of pages' scripts (never with --dry-run)")
	f.StringVar(&opts.Report, "report", "", "also write what changed, with a word diff of each changed page's text, to `FILE.html` or FILE.json (the format is the extension's; with --dry-run too)")
	f.StringVar(&opts.WARC, "warc", "", "also write every request and response fetched, and the refreshed PDF, to the WARC `OUT.warc.gz` (uncompressed unless it ends in .gz)")
	f.BoolVar(&opts.WARCKeepCreds, "warc-keep-credentials", false, warcKeepCredentialsUsage)
	opts.embed.add(cmd)
	opts.passwordFlags.add(cmd)
	opts.lim.addMaxFileSize(cmd)
	opts.sealFlags.add(cmd)
	return cmd
}

type refreshOptions struct {
	IO   *IOStreams
	File string
	outputFlags
	fetchFlags
	passwordFlags
	lim           limitFlags // --max-file-size (its --timeout is the fetch's)
	DryRun        bool
	TextOnly      bool
	JSON          bool
	Resubmit      bool
	WARC          string // --warc: the web archive written beside the PDF
	WARCKeepCreds bool   // --warc-keep-credentials
	embed         embedFlags
	Report        string // --report: the change report, .html or .json
	sealFlags            // --timestamp-url, --sign-*, --ltv (sealflags.go)
}

func runRefresh(ctx context.Context, opts *refreshOptions) error {
	r := &runFiles{inPlace: opts.File}
	r.input("", opts.File, opts.IO)
	r.input("--password-file", opts.PasswordFile, opts.IO)
	r.output("-o", opts.Out)
	r.output("--warc", opts.WARC)
	r.output("--report", opts.Report)
	if err := opts.sealFlags.prepare("refresh", opts.IO, r); err != nil {
		return err
	}
	if err := r.check("refresh"); err != nil {
		return err
	}
	if err := opts.outputFlags.check("refresh", opts.IO, opts.File); err != nil {
		return err
	}
	if err := checkWARCOut("refresh", opts.WARC, opts.Force, opts.WARCKeepCreds); err != nil {
		return err
	}
	if opts.Report != "" {
		if err := checkOutput("refresh", "--report", opts.Report, opts.Force); err != nil {
			return err
		}
	}
	if err := opts.resolve("refresh", opts.IO); err != nil {
		return err
	}
	file, err := opts.lim.readFile("refresh", opts.File)
	if err != nil {
		return err
	}
	if _, err := opts.readPDF("refresh", file, opts.File, opts.lim.pdfOptions(ctx)); err != nil {
		return err
	}
	// The file is read before Chromium starts: one that cannot be
	// refreshed needs no browser.
	co := opts.fetchFlags.options(opts.IO, "refresh")
	co.Archive = opts.WARC != "" // every answer, for the WARC
	co.AllowCertified, co.Password = opts.Force, opts.get()
	plan, err := capture.PlanRefresh(file, opts.File, capture.RefreshOptions{TextOnly: opts.TextOnly, DryRun: opts.DryRun,
		Resubmit: opts.Resubmit, Options: co})
	if err != nil {
		return fmt.Errorf("refresh: %w", err)
	}
	var res *capture.RefreshResult
	err = opts.browse(ctx, opts.IO, "refresh", func(ctx context.Context, b *capture.Browser) (err error) {
		var ws *capture.WriteStoppedError
		if res, err = plan.Run(ctx, b); errors.As(err, &ws) { // past --max-memory: exit 4
			return fmt.Errorf("refresh: %s: %w", displayOutput(opts.target(opts.File)), err)
		} else if err != nil {
			return fmt.Errorf("refresh: %w", err)
		}
		return nil
	})
	opts.clearProgress(opts.IO)
	if err != nil {
		return err
	}
	count := res.Count()
	differ := len(res.Changes) - count[capture.StatusUnchanged]
	written := !opts.DryRun && res.PDF != nil
	var d *pdfio.Document
	var sum audit.Summary
	if written {
		if d, err = opts.embed.writeRead(ctx, "refresh", &opts.outputFlags, &opts.sealFlags, opts.IO, opts.File, res.PDF, res.Read, opts.WARC, func(pdf []byte) error {
			return writeWARC("refresh", opts.WARC, opts.Force, res.Pages, pdf, warcInfo(opts.WARC, "refresh", opts.File, nil, opts.WARCKeepCreds))
		}); err != nil {
			return err
		}
		opts.sealFlags.unsealedUpdate(opts.IO, "refresh", opts.File, opts.target(opts.File), d)
		sum = summarize(d, opts.Profile)
	}
	if opts.Report != "" {
		rep, err := plan.Report(res)
		if err != nil {
			return fmt.Errorf("refresh: %w", err)
		}
		out := ""
		if written {
			out = opts.target(opts.File)
		}
		if err := writeRefreshReport("refresh", opts.Report, opts.Force, rep, opts.File, out, opts.DryRun); err != nil {
			return err
		}
	}
	var nothing error // no page could be checked: the command fails
	if !opts.DryRun && !written {
		nothing = fmt.Errorf("refresh: nothing written: no page of %s could be checked (%s)", displayInput(opts.File), statusCounts(count))
	}
	if opts.JSON {
		err = refreshJSON(opts, res, written, sum, nothing)
	} else {
		err = refreshText(opts, res, written, sum, count)
	}
	if err != nil && !errors.Is(err, errFailed) {
		return err
	}
	if written || opts.DryRun {
		kept := fmt.Sprintf("%s compared before it", plural(len(res.Changes)-res.Count()[capture.StatusUnchecked], "page"))
		if written {
			kept += "; the refreshed file is " + displayOutput(opts.target(opts.File))
		}
		if stop := stopped(opts.IO, "refresh", res.Stopped, kept); stop != nil {
			return stop
		}
	}
	switch {
	case nothing != nil:
		return nothing
	case opts.DryRun && differ > 0:
		return errFailed
	}
	return err
}

// shownCommands and shownChanges are refresh's commands and changes with
// their URLs as webcap shows them: without a password (shownURL).
func shownCommands(cs []capture.Replay) []capture.Replay {
	out := make([]capture.Replay, len(cs))
	for i, c := range cs {
		c.URL = shownURL(c.URL)
		out[i] = c
	}
	return out
}

func shownUnsent(us []capture.Unsent) []capture.Unsent {
	out := make([]capture.Unsent, len(us))
	for i, u := range us {
		u.URL, u.Page = shownURL(u.URL), shownURL(u.Page)
		out[i] = u
	}
	return out
}

func shownChanges(cs []capture.Change) []capture.Change {
	out := make([]capture.Change, len(cs))
	for i, c := range cs {
		c.URL = shownURL(c.URL)
		out[i] = c
	}
	return out
}

// refreshJSON prints refresh's report as JSON.
func refreshJSON(opts *refreshOptions, res *capture.RefreshResult, written bool, sum audit.Summary, nothing error) error {
	out := refreshSummary{Schema: schemaName("refresh"), Input: opts.File, DryRun: opts.DryRun, Commands: shownCommands(res.Commands), Changes: shownChanges(res.Changes), Skips: skipsOrNone(res.Skips), Replaced: res.Replaced,
		Added: res.Added, Checked: res.Checked, Links: res.Links, Bookmarks: res.Bookmarks, Notes: res.Notes, Stopped: stopCause(res.Stopped),
		Unsent: shownUnsent(res.Unsent), UnsentMore: res.UnsentMore}
	if written {
		out.Output, out.Errors = opts.target(opts.File), sum.Count(audit.Serious)
	}
	if nothing != nil {
		out.Error = newErrorJSON(nothing)
	}
	return jsonVerdict(opts.summary(opts.IO), out, out.Errors)
}

// refreshText prints refresh's report: the commands replayed, a line per
// page, and the totals.
func refreshText(opts *refreshOptions, res *capture.RefreshResult, written bool, sum audit.Summary, count map[string]int) error {
	w := opts.summary(opts.IO)
	for i, c := range res.Commands {
		what := fmt.Sprintf("command %d: %s %s (levels %d", i+1, c.Method, displayInput(shownURL(c.URL)), c.Levels)
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
			fmt.Fprintf(w, "%-11s %s: %s\n", c.Status, displayInput(shownURL(c.URL)), c.Reason)
		} else {
			fmt.Fprintf(w, "%-11s %s\n", c.Status, displayInput(shownURL(c.URL)))
		}
	}
	why := "a page's request, sent only with --resubmit"
	if opts.DryRun {
		why = "a page's request: a dry run sends only GET and HEAD"
	}
	for _, u := range res.Unsent {
		fmt.Fprintf(w, "%-11s %s %s (by %s): %s\n", "not sent", u.Method, displayInput(shownURL(u.URL)), displayInput(shownURL(u.Page)), why)
	}
	if res.UnsentMore > 0 {
		fmt.Fprintf(w, "%-11s %d more, not listed\n", "not sent", res.UnsentMore)
	}
	writeNotes(w, res.Notes)
	by := map[bool]string{false: "by ID", true: "by text"}[opts.TextOnly]
	switch {
	case opts.DryRun:
		fmt.Fprintf(w, "%s: %s compared (%s): %s (dry run: nothing written)\n",
			displayInput(opts.File), plural(len(res.Changes), "page"), by, statusCounts(count))
		return nil
	case !written:
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
		displayOutput(opts.target(opts.File)), plural(len(res.Changes), "page"), by, strings.Join(parts, ", "), kept, plural(res.Links, "link"))
	return writeVerdict(w, opts.target(opts.File), sum)
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
