package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/capture"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/record"
	"github.com/webcap/webcap/webcapture"
)

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
robots.txt forbids unless --ignore-robots. Every redirect, and every page
load a script starts, is held to the same rules (but a start URL may
redirect out of its scope): a page that leads elsewhere is skipped, saying
where it led. --max-pages bounds the pages,
--max-bytes the bytes fetched (no page is started past it),
--page-timeout each page (a slower one is skipped and reported; a resource
of a page not arrived within half of it is left out and named, and the page
printed without it) and each robots.txt (one not read whole in that time, or answered with a 5xx, or
lost to a network error, forbids its whole origin, as RFC 9309 §2.3.1.4
says; a 4xx allows everything; each page skipped says which), and
--timeout the whole capture: when it is reached, what was captured is
written and the rest reported; so is Ctrl-C, which then exits 130, and
--max-memory (webcap's own memory), which then exits 4. The write of what
was captured is under --max-memory too: when writing all the pages kept
would take more, the first half of them is written, and so on until what
is written fits (the others are said, skipped: kind memory-limit), and
the command exits 4; append writes all its pages or none. Memory is bounded
throughout: a page's first 1,000 links are followed, no more; the pages
being rendered hold at most 256 MiB of responses at once (a response that
finds none left is left out, and said); and Chromium's processes may hold
--browser-memory together (its scripts half of it): the page that takes
more is skipped, saying so, and the crawl goes on.
--post DATA submits DATA to each start URL by POST, as a form would
(--submit: the start URLs are GET form submissions); the command records
it, so refresh can submit it again. User information in URLs
(user:password@) is left out of the PDF unless --keep-credentials: out of
the recorded URLs and out of the printed pages' links. Chromium is Debian's
chromium package, found on PATH, or --chromium; it runs with its sandbox
unless webcap runs as root (or --no-sandbox).

Every request is fetched by webcap itself and handed to the browser, so the
identifiers are computed from exactly the bytes rendered: whole 200
answers only (the browser's cache is off and no conditional request is
sent). A page is printed once it is done: its load event, its lazy images
(loaded eagerly, the page scrolled through), a quiet network, its fonts;
then the timers it has due within --settle (5s of page time) run on virtual
time, so an image a script inserts after 3 s is printed without waiting 3 s.
Each page is rendered in an empty browser context (no cookie, storage or
database another page left: what a stranger sees), so a capture does not
depend on --jobs or on timing; --session renders the pages one at a time in
queue order in one context, so a cookie account.html sets reaches the pages
after it (recorded in the command's settings: refresh does the same).
Each fetched resource is one content set: every URL that redirected to a
page is in its URL alias chain and finds it in the URLS tree. Only http and
https are fetched, and only from public addresses, unless a start URL is
itself a loopback or private address (then such addresses are allowed:
with --same-site or --same-path, at that start URL's host only, for pages
and for their images, frames and scripts' requests alike) or
--allow-private. An auxiliary file that cannot or must not be fetched is
left out of its page's identifier and reported; the crawl goes on.
Skipped links are summarised by reason (--verbose lists each).

Pages are filed as Acrobat Web Capture filed them: the PDF opens with its
bookmarks shown, an item per site (its registrable domain: www.example.co.uk
gives example.co.uk), and under it an item per page set, titled with the
page's title (its URL when it has none), opening its first page (--bookmarks
none: no bookmarks). Each page set is tagged as an Article of class SpdrArt
holding the browser's own tags of its pages (headings, paragraphs, lists,
links), so a screen reader and pdfinfo -struct-text read every page; a file
whose structure tree cannot be extended gets untagged pages, and a note
says so. append adds its sets to the file's outline (under the item of
their site when it has one), never replacing it.

--warc OUT.warc.gz also writes a web archive (WARC/1.1, a gzip member per
record; uncompressed unless the name ends in .gz): every request and
response fetched, a revisit for a repeated payload, the TLS facts of
each HTTPS origin (version, cipher suite, server name, ALPN, and the
server's certificates in PEM) as metadata records, and the PDF as a
urn:pdf: resource record; each page set's identifier can be recomputed
from it (webcap audit --sources OUT.warc.gz OUT.pdf). Credentials are
redacted in it, so that sharing the archive shares no session: the
requests' Cookie, Authorization and Proxy-Authorization and the
responses' Set-Cookie are written "Cookie: (redacted)" (the warcinfo
record's webcap-redacted-headers field names them), and URLs without
their user:password@ (--keep-credentials is the PDF's); with
--warc-keep-credentials, all are written as sent. With --embed-warc the
WARC, once written, is put into the PDF as well (an associated file,
/AFRelationship /Source): webcap audit OUT.pdf then recomputes every
content set's identifier from it, with no --sources and no network.

--urls-from LIST --out-dir DIR captures each seed of LIST (a URL a line,
then its own --levels, --same-site, --same-path or --max-pages; # starts a
comment) into DIR/NAME.pdf (and, with --warc WDIR, WDIR/NAME.warc.gz), NAME
being a slug of the seed and a hash of it; --shard I/N takes the seeds
whose URL hashes to I (FNV-1a, as audit's), --resume keeps the seeds whose
outputs are complete and audit with no error, --jsonl prints a line per
seed as each is done (in list order with --ordered, as audit's: it
needs --jsonl; these flags mean nothing without --urls-from), --workers
N captures N seeds at once, each worker process with its own Chromium. A
Chromium that exits (killed, out of memory) fails the seed being
captured, nothing written (--resume redoes it), and is started again for
the next seed, up to 3 seeds in a row. Every seed's outputs are checked
before anything starts: one that exists, without --resume or --force, is
a usage error naming its line and file. See docs/scale.md.

Exit status: 0 when the capture audits with no error, 1 when no page could
be captured or errors remain, 2 for a usage error, 3 when a file cannot be
written or Chromium cannot be started, 130 when interrupted (what was
captured before is written).`,
		Example: `  $ webcap capture https://example.com/ -o example.pdf
  # each seed of a list into its own PDF and WARC; shard 0 of 4, resumable
  $ webcap capture --urls-from seeds.txt --out-dir out --warc out --shard 0/4 --resume --jsonl
  # two seeds at a time, their JSON lines in the list's order
  $ webcap capture --urls-from seeds.txt --out-dir out --workers 2 --jsonl --ordered > results.jsonl
  $ webcap capture --levels 2 --same-path https://example.com/docs/ -o docs.pdf
  $ webcap capture --max-pages 20 --timeout 2m --json https://a.example/ https://b.example/ -o two.pdf
  $ webcap capture --post 'q=web+capture' https://example.com/search -o results.pdf
  $ webcap capture --warc example.warc.gz https://example.com/ -o example.pdf
  # robots.txt of slow.example times out (a 5xx, too): everything is forbidden; fetch anyway
  $ webcap capture --ignore-robots https://slow.example/ -o slow.pdf`,
		Args: func(cmd *cobra.Command, args []string) error {
			if opts.many.From != "" { // the seeds are the list's (capturemany.go)
				opts.many.workerArgs = workerFlags(cmd.Flags())
				return nil
			}
			if err := checkNoList(cmd.Flags()); err != nil {
				return err
			}
			return cobra.MinimumNArgs(1)(cmd, args)
		},
		RunE: runner(opts, runF, inBand(runCapture), func(args []string) error {
			if opts.many.From != "" {
				return checkMany(opts, args)
			}
			opts.URLs = args
			return checkCapture("capture", opts)
		}),
	}
	captureFlags(cmd, opts, false)
	opts.many.add(cmd)
	return cmd
}

type captureOptions struct {
	IO   *IOStreams
	File string // append: the capture to add to
	URLs []string
	outputFlags
	fetchFlags
	passwordFlags
	lim             limitFlags // append's --max-file-size (its --timeout is the fetch's)
	Levels          int
	SameSite        bool
	SamePath        bool
	Jobs            int
	KeepCredentials bool
	JSON            bool
	Verbose         bool
	Submit          bool
	Post            string
	PostType        string
	WARC            string     // --warc: the web archive written beside the PDF
	WARCKeepCreds   bool       // --warc-keep-credentials
	sealFlags                  // --timestamp-url, --sign-*, --ltv (sealflags.go)
	embed           embedFlags // --embed-warc (embedflags.go)
	many            manyFlags  // --urls-from, --out-dir, --shard, --resume, --jsonl, --ordered, --workers (capturemany.go)
}

// captureFlags are capture's and append's flags.
func captureFlags(cmd *cobra.Command, opts *captureOptions, inPlace bool) {
	opts.outputFlags.add(cmd, "write the result to `OUT.pdf`", inPlace)
	opts.fetchFlags.add(cmd, 50)
	f := cmd.Flags()
	f.IntVar(&opts.Levels, "levels", 1, "levels of links followed (1: the start pages only)")
	f.BoolVar(&opts.SameSite, "same-site", false, "follow links to the start URL's host only")
	f.BoolVar(&opts.SamePath, "same-path", false, "follow links below the start URL's path only")
	f.IntVar(&opts.Jobs, "jobs", 2, "render `N` pages at once, in parallel browser tabs")
	f.BoolVar(&opts.KeepCredentials, "keep-credentials", false, "write URLs with user:password@ as they are")
	f.BoolVar(&opts.Submit, "submit", false, "the start URLs are form submissions by GET (the data in their query)")
	f.StringVar(&opts.Post, "post", "", "submit `DATA` to each start URL by POST, as a form (recorded in the command)")
	f.StringVar(&opts.PostType, "post-type", capture.DefaultPostType, "the content type of --post's data")
	f.BoolVar(&opts.JSON, "json", false, "print the summary as JSON (every skipped URL included)")
	f.BoolVarP(&opts.Verbose, "verbose", "v", false, "list every skipped URL, not a line per reason")
	f.StringVar(&opts.WARC, "warc", "", "also write every request and response fetched, and the PDF, to the WARC `OUT.warc.gz` (uncompressed unless it ends in .gz)")
	f.BoolVar(&opts.WARCKeepCreds, "warc-keep-credentials", false, warcKeepCredentialsUsage)
	opts.sealFlags.add(cmd)
	opts.embed.add(cmd)
	if inPlace { // append: it reads a PDF
		opts.passwordFlags.add(cmd)
		opts.lim.addMaxFileSize(cmd)
	}
}

// checkCapture checks capture's and append's flags.
func checkCapture(name string, opts *captureOptions) error {
	if err := opts.outputFlags.flags(name, opts.File != "", true); err != nil {
		return err
	}
	switch {
	case opts.Levels < 1:
		return usagef("%s: --levels %d: 1 captures the start pages only", name, opts.Levels)
	case opts.Jobs < 1:
		return usagef("%s: --jobs %d: render at least one page at a time", name, opts.Jobs)
	case opts.PostType != "" && !printableASCII(opts.PostType):
		return usagef("%s: --post-type %q is not ASCII", name, opts.PostType)
	}
	if err := opts.fetchFlags.check(name); err != nil {
		return err
	}
	if err := opts.embed.check(name, opts.WARC); err != nil {
		return err
	}
	// A start URL that cannot be captured is a usage error found before
	// Chromium starts (capture would only skip it).
	for _, u := range opts.URLs {
		if err := capture.CheckStartURL(u, opts.Profile); err != nil {
			var ce *canon.Error
			if errors.As(err, &ce) {
				return usagef("%s: %s: cannot be canonicalized: %s", name, displayInput(u), ce.Detail())
			}
			return usagef("%s: %s: %v", name, displayInput(u), err)
		}
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
(a signature over them stays valid) and FILE itself is never changed
unless --in-place.

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
		RunE: runner(opts, runF, inBand(runCapture), func(args []string) error {
			opts.File, opts.URLs = args[0], args[1:]
			return checkCapture("append", opts)
		}),
	}
	captureFlags(cmd, opts, true)
	return cmd
}

func runCapture(ctx context.Context, opts *captureOptions) error {
	if opts.many.From != "" {
		return runCaptureMany(ctx, opts)
	}
	name := opts.name()
	// Before anything is fetched: a crawl is not lost to a bad -o.
	r := &runFiles{inPlace: opts.File}
	r.input("", opts.File, opts.IO)
	r.input("--password-file", opts.PasswordFile, opts.IO)
	r.output("-o", opts.Out)
	r.output("--warc", opts.WARC)
	if err := opts.sealFlags.prepare(name, opts.IO, r); err != nil {
		return err
	}
	if err := r.check(name); err != nil {
		return err
	}
	if err := opts.outputFlags.check(name, opts.IO, opts.File); err != nil {
		return err
	}
	if err := checkWARCOut(name, opts.WARC, opts.Force, opts.WARCKeepCreds); err != nil {
		return err
	}
	var file []byte
	if opts.File != "" {
		// The file is read before Chromium starts: one that cannot be
		// appended to needs no browser.
		if err := opts.resolve(name, opts.IO); err != nil {
			return err
		}
		var err error
		if file, err = opts.lim.readFile(name, opts.File); err != nil {
			return err
		}
		if err := opts.checkUpdate(name, file, opts.File, opts.lim.pdfOptions(ctx)); err != nil {
			return err
		}
	}
	co, starts := opts.crawl(name)
	co.Password = opts.get()
	var plan *capture.AppendPlan
	if file != nil {
		// The file is read before Chromium starts: one that cannot be
		// appended to needs no browser.
		var err error
		if plan, err = capture.PlanAppend(file, opts.File, co); err != nil {
			return fmt.Errorf("append: %w", err)
		}
	}
	var res *capture.Result
	err := opts.browse(ctx, opts.IO, name, func(ctx context.Context, b *capture.Browser) (err error) {
		if plan != nil {
			res, err = plan.Run(ctx, b, starts)
		} else {
			res, err = capture.CaptureStarts(ctx, b, starts, co)
		}
		return err
	})
	opts.clearProgress(opts.IO)
	var nothing *capture.NothingError
	if errors.As(err, &nothing) {
		if opts.Verbose {
			writeSkips(opts.IO.ErrOut, nothing.Skips, true)
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	var pe *pdfio.Error
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", name, err) // append's FILE: it names the file
	}
	var ws *capture.WriteStoppedError
	if errors.As(err, &ws) { // past --max-memory: exit 4
		return fmt.Errorf("%s: %s: %w", name, displayOutput(opts.target(opts.File)), err)
	}
	if err != nil {
		return err
	}
	d, err := opts.embed.writeRead(ctx, name, &opts.outputFlags, &opts.sealFlags, opts.IO, opts.File, res.PDF, res.Read, opts.WARC, func(pdf []byte) error {
		return writeWARC(name, opts.WARC, opts.Force, res.Pages, pdf, warcInfo(opts.WARC, name, opts.File, opts.URLs, opts.WARCKeepCreds))
	})
	if err != nil {
		return err
	}
	opts.sealFlags.unsealedUpdate(opts.IO, name, opts.File, opts.target(opts.File), d)
	sum := summarize(d, opts.Profile)
	if opts.JSON {
		err = captureJSON(opts, res, sum)
	} else {
		err = captureText(opts, res, d, sum)
	}
	if err == nil || errors.Is(err, errFailed) {
		kept := fmt.Sprintf("the %s captured before are in %s", plural(len(res.Pages), "page"), displayOutput(opts.target(opts.File)))
		if stop := stopped(opts.IO, name, res.Stopped, kept); stop != nil {
			return stop
		}
	}
	return err
}

// name is the command's: capture, or append.
func (o *captureOptions) name() string {
	if o.File != "" {
		return "append"
	}
	return "capture"
}

// crawl returns the crawl's options and its start URLs.
func (o *captureOptions) crawl(name string) (capture.Options, []capture.Start) {
	var flags webcapture.Flags
	if o.SameSite {
		flags |= webcapture.SameSite
	}
	if o.SamePath {
		flags |= webcapture.SamePath
	}
	if o.Submit || o.Post != "" {
		flags |= webcapture.Submit
	}
	co := o.fetchFlags.options(o.IO, name)
	co.AllowCertified = o.Force
	co.Levels, co.Flags, co.Jobs, co.KeepCredentials = o.Levels, flags, o.Jobs, o.KeepCredentials
	co.Archive = o.WARC != "" // every answer, for the WARC
	starts := make([]capture.Start, len(o.URLs))
	for i, u := range o.URLs {
		starts[i] = capture.Start{URL: u, Levels: o.Levels, Flags: flags}
		if o.Post != "" {
			starts[i].Post, starts[i].PostType = []byte(o.Post), o.PostType
		}
	}
	return co, starts
}

// captureJSON prints a capture's summary as JSON.
func captureJSON(opts *captureOptions, res *capture.Result, sum audit.Summary) error {
	out := captureSummary{Schema: schemaName(opts.name()), Input: opts.File, Output: opts.target(opts.File), Pages: []capturedPage{}, Skips: skipsOrNone(shownSkips(res.Skips)), Links: res.Links,
		Bookmarks: res.Bookmarks, Notes: res.Notes, Errors: sum.Count(audit.Serious), Stopped: stopCause(res.Stopped)}
	for i, s := range pageSets(res) {
		rp := res.Pages[i]
		out.Pages = append(out.Pages, capturedPage{URL: shownURL(s.URL), Chains: shownChains(rp.Chains), Title: rp.Title, Pages: s.Pages, ID: s.ID.String(), Missing: shownSkips(rp.Missing)})
	}
	return jsonVerdict(opts.summary(opts.IO), out, out.Errors)
}

// captureText prints a capture's summary: a line per set written, the
// auxiliary files left out of identifiers, the skipped URLs by reason, the
// totals, and what the audit of the result finds.
func captureText(opts *captureOptions, res *capture.Result, d *pdfio.Document, sum audit.Summary) error {
	w := opts.summary(opts.IO)
	out := opts.target(opts.File)
	writeSets(w, res.Build.Sets)
	for _, pg := range res.Pages {
		for _, m := range pg.Missing {
			fmt.Fprintf(w, "left out  %s: %s (an auxiliary file of %s; its identifier does not cover it)\n", shownURL(m.URL), audit.WithoutPasswords(m.Reason), shownURL(pg.URL))
		}
	}
	writeSkips(w, res.Skips, opts.Verbose)
	writeNotes(w, res.Notes)
	if opts.File != "" {
		fmt.Fprintf(w, "%s: %s captured and added after the %s of %s (%s now), %s made internal, %s skipped\n",
			displayOutput(out), plural(len(res.Pages), "page"), plural(res.First-1, "page"), displayInput(opts.File),
			plural(len(d.Pages), "PDF page"), plural(res.Links, "link"), plural(len(res.Skips), "URL"))
	} else {
		fmt.Fprintf(w, "%s: %s captured into %s, %s made internal, %s skipped\n",
			displayOutput(out), plural(len(res.Pages), "page"), plural(len(d.Pages), "PDF page"), plural(res.Links, "link"), plural(len(res.Skips), "URL"))
	}
	return writeVerdict(w, out, sum)
}

// pageSets returns the page sets a capture wrote, one per page in
// res.Pages, in order.
func pageSets(res *capture.Result) []record.Set {
	var out []record.Set
	for _, s := range res.Build.Sets {
		if s.Kind == webcapture.PageSet {
			out = append(out, s)
		}
	}
	return out
}
