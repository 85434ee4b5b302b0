package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

func newInfoCmd(ios *IOStreams, runF func(context.Context, *infoOptions) error) *cobra.Command {
	opts := &infoOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "info [flags] FILE...",
		Short: "Show the Web Capture structures of PDF files",
		Long: `Show what a PDF file records about the web content it captured: the
SpiderInfo commands, then one block per content set (page set or image
set) with its identifier, the URLS keys that point to it, its source URLs
and redirect chains, content type, dates, title, and its pages (as page
numbers) or images, and counts at the end.

Everything is read byte-exactly; nothing is changed. Malformed structures
(unsorted or duplicate tree keys, wrong /Limits, dangling references, wrong
types) are listed as defects; "webcap audit" judges them. The first 10
defects of each kind are listed, then one line for each kind with the
count of the rest ("  KIND: N more not shown ..."); --verbose lists every
one, and --json always holds them all.

With --json, each file gives one JSON object on its own line (schema:
webcap help schema info); a file that cannot be read gives
{"schema", "input", "error": {"message", "kind"}} in its place. No byte of a string from the file is
lost: it is a JSON string when its bytes are UTF-8, and {"hex": "..."}
(upper-case hex of its bytes) when they are not.`,
		Example: `  $ webcap info capture.pdf
  $ webcap info --verbose damaged.pdf    # every defect, not 10 of each kind
  $ webcap info --json capture.pdf | jq '.contentSets[] | {id, urlsKeys, pages}'
  $ webcap info --password-file pw.txt encrypted.pdf
  $ webcap info --timeout 10s --max-memory 500MB untrusted.pdf   # stop a hostile file early (exit 4)`,
		Args: cobra.MinimumNArgs(1),
		RunE: runner(opts, runF, inBand(bounded(runInfo)), func(args []string) error {
			opts.Files = args
			return opts.limitFlags.check("info")
		}),
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print one JSON object per file")
	cmd.Flags().BoolVarP(&opts.Verbose, "verbose", "v", false, "list every defect, not the first 10 of each kind")
	opts.passwordFlags.add(cmd)
	opts.limitFlags.addReadLimits(cmd)
	return cmd
}

type infoOptions struct {
	IO      *IOStreams
	JSON    bool
	Verbose bool // every defect, not the first perRule of each kind
	passwordFlags
	limitFlags
	Files []string
}

func (o *infoOptions) bounds() (*limitFlags, string, []string) { return &o.limitFlags, "info", o.Files }

func runInfo(ctx context.Context, opts *infoOptions) error {
	if err := opts.resolve("info", opts.IO); err != nil {
		return err
	}
	w := bufio.NewWriter(opts.IO.Out)
	var failed failures
	for i, f := range opts.Files {
		if ctx.Err() != nil {
			return stopError(ctx, "info", f)
		}
		d, err := opts.open(f, opts.pdfOptions(ctx))
		if err != nil && ctx.Err() != nil {
			return readError("info", err) // a limit passed: the run stops
		}
		if err != nil {
			failed.add(err)
			if opts.JSON { // in-band, not on stderr
				e := newErrorJSON(readError("info", err))
				e.Message = err.Error()
				if err := writeLine(w, failureJSON{Schema: schemaName("info"), Input: f, Error: e}); err != nil {
					return &ioError{fmt.Errorf("info: writing output: %w", err)}
				}
				continue
			}
			w.Flush()
			fmt.Fprintf(opts.IO.ErrOut, "webcap: info: %v\n", err)
			continue
		}
		collectAfterRead(d)
		if opts.JSON {
			err = writeInfoJSON(w, d)
		} else {
			if i > 0 {
				w.WriteString("\n")
			}
			err = writeInfo(w, d, opts.Verbose)
		}
		if err != nil {
			return &ioError{fmt.Errorf("info: writing output: %w", err)}
		}
	}
	if err := w.Flush(); err != nil {
		return &ioError{fmt.Errorf("info: writing output: %w", err)}
	}
	// Every failure is a file that could not be read (3) or is no
	// readable PDF (4).
	return failed.err()
}

// collectAfterRead collects the garbage of a large file's read: pdfcpu's
// object graph, several times the file's size, is garbage once the
// document is read, so that what comes next (info's report, audit's
// checks) never adds up with it (the peak is pdfcpu's alone). Without it
// the next collection is due only when the heap has doubled again, and
// the report and the checks grow the heap towards that. For small files a
// collection would only cost time.
func collectAfterRead(d *pdfio.Document) {
	if len(d.Pages)+len(d.Sets) > 2000 {
		runtime.GC()
	}
}

func writeInfo(w io.Writer, d *pdfio.Document, verbose bool) error {
	p := &printer{w: w}
	enc := ""
	if d.Encrypted {
		enc = ", encrypted"
	}
	p.f("%s: PDF %s, %s%s\n", displayInput(d.File), d.Version, plural(len(d.Pages), "page"), enc)
	if d.Info == nil {
		p.f("SpiderInfo: none\n")
	} else {
		v := "no /V"
		if d.Info.Version != nil {
			v = "V " + d.Info.Version.String()
		}
		p.f("SpiderInfo: %s, %s\n", v, plural(len(d.Info.Commands), "command"))
		for i, c := range d.Info.Commands {
			writeCommand(p, i+1, c)
		}
	}
	p.f("%s; %s\n", treeLine("IDS", d.IDS), treeLine("URLS", d.URLS))
	writeZoom(p, d)
	for i, cs := range d.Sets {
		p.f("\n")
		writeSet(p, d, i+1, cs)
	}
	writePriorActions(p, d)
	writeSeals(p, d)
	if len(d.Defects) > 0 {
		p.f("\ndefects:\n")
		limit := newRuleLimit(verbose)
		for _, df := range d.Defects {
			if limit.show(string(df.Kind)) {
				p.f("  %s: %s\n", df.Kind, df.Message)
			}
		}
		limit.eachHidden(func(kind string, n int) {
			p.f("  %s: %s\n", kind, notShown(n, "defect", "--json"))
		})
	}
	c := counts(d)
	p.f("\n%s (%s, %s", plural(c.ContentSets, "content set"), plural(c.PageSets, "page set"), plural(c.ImageSets, "image set"))
	if c.Orphans > 0 {
		p.f(", %d reached by no tree", c.Orphans)
	}
	p.f("), %s (%d with ID), %s (%d with ID), %s\n", plural(c.Pages, "page"), c.PagesWithID,
		plural(c.Images, "image"), c.ImagesWithID, plural(c.Defects, "defect"))
	return p.err
}

func writeCommand(p *printer, n int, c *webcapture.Command) {
	p.f("  command %d (%s): %s\n", n, c.Ref, displayInput(shownURL(c.URL)))
	method := "GET"
	switch {
	case c.PostData == nil && c.IsPost():
		method = "POST (data too large to read"
	case c.IsPost():
		method = fmt.Sprintf("POST (%d bytes", len(*c.PostData))
	}
	if c.IsPost() {
		if c.ContentType != nil {
			method += ", " + displayInput(*c.ContentType)
		}
		method += ")"
	}
	p.f("    levels %d, flags %s, %s\n", c.Depth(), c.FlagsOrDefault(), method)
	if c.Headers != nil {
		p.f("    headers %q\n", *c.Headers)
	}
	if s := c.Settings; s != nil {
		global := "none"
		if s.Global != nil {
			global = webcapture.Format(s.Global)
		}
		p.f("    settings: global %s\n", global)
		for _, e := range s.Engines {
			bad := ""
			if e.Err != nil {
				bad = " (not an engine name)"
			}
			p.f("      engine %s%s: %s\n", displayInput(string(e.Key)), bad, webcapture.Format(e.Settings))
		}
	}
}

// writeZoom lists the pages' /PZ (preferred zoom), pages of one value
// together: "/PZ: 1.33 on pages 1-2; 1 on page 3".
func writeZoom(p *printer, d *pdfio.Document) {
	var values []float64
	pages := map[float64][]int{}
	for _, pg := range d.Pages {
		if pg.PZ == nil {
			continue
		}
		if _, ok := pages[*pg.PZ]; !ok {
			values = append(values, *pg.PZ)
		}
		pages[*pg.PZ] = append(pages[*pg.PZ], pg.Number)
	}
	if len(values) == 0 {
		return
	}
	parts := make([]string, len(values))
	for i, v := range values {
		which := "page"
		if len(pages[v]) > 1 {
			which = "pages"
		}
		parts[i] = fmt.Sprintf("%s on %s %s", strconv.FormatFloat(v, 'f', -1, 64), which, pageRanges(pages[v]))
	}
	p.f("/PZ: %s\n", strings.Join(parts, "; "))
}

// writePriorActions lists the link annotations' /PA: the URI a Web
// Capture link pointed to before it became a link inside the file.
func writePriorActions(p *printer, d *pdfio.Document) {
	if len(d.PriorActions) == 0 {
		return
	}
	p.f("\nlinks with /PA: %d\n", len(d.PriorActions))
	for _, a := range d.PriorActions {
		p.f("  page %d, link %s: %s\n", a.Page, a.Annot, priorActionText(a))
	}
}

// priorActionText says what a /PA is: "URI http://a/", or what it is
// instead of a URI action.
func priorActionText(a *pdfio.PriorAction) string {
	switch {
	case a.Action == "URI" && a.URI:
		return "URI " + displayInput(shownURL(a.Target))
	case a.Kind != "a dictionary":
		return a.Kind + ", not a URI action"
	case a.Action == "":
		return "an action dictionary without /S"
	case a.Action == "URI":
		return "a URI action without a /URI string"
	}
	return "a /" + a.Action + " action, not a URI action"
}

// showText shows a text string decoded, or, when its bytes do not decode,
// quoted as written.
func showText(t webcapture.Text) string {
	if s, ok := decodeText(t); ok {
		return displayInput(s)
	}
	return fmt.Sprintf("%q (as written: not valid %s)", string(t), t.Encoding())
}

func treeLine(name string, t *pdfio.Tree) string {
	if t == nil {
		return name + ": none"
	}
	return fmt.Sprintf("%s: %s (%s, depth %d)", name, plural(len(t.Entries), "key"), plural(t.Nodes, "node"), t.Depth)
}

func writeSet(p *printer, d *pdfio.Document, n int, cs *pdfio.ContentSet) {
	kind := map[webcapture.Subtype]string{webcapture.PageSet: "page set", webcapture.ImageSet: "image set"}[cs.Subtype]
	if kind == "" {
		kind = "content set of unknown type"
	}
	p.f("content set %d: %s (%s), %s\n", n, kind, orNone(string(cs.Subtype)), cs.Ref)
	if cs.Orphan {
		p.f("  (no IDS or URLS key reaches it)\n")
	}
	id := "none"
	if cs.ID != nil {
		id = cs.ID.Hex()
	}
	p.f("  ID       %s\n", id)
	switch {
	case len(cs.IDSKeys) == 1 && cs.ID != nil && cs.IDSKeys[0] == string(*cs.ID):
		p.f("  IDS      same as ID\n")
	default:
		for _, k := range cs.IDSKeys {
			p.f("  IDS      %s\n", webcapture.RawID(k).Hex())
		}
	}
	for _, k := range cs.URLSKeys {
		p.f("  URLS     %s\n", displayInput(shownURL(k)))
	}
	for _, si := range cs.Sources {
		p.f("  source   %s\n", displayInput(shownURL(si.URLs.URL)))
		for _, chain := range si.URLs.Chains {
			shown := make([]string, len(chain))
			for i, u := range chain {
				shown[i] = displayInput(shownURL(u))
			}
			p.f("           redirected: %s\n", strings.Join(shown, " -> "))
		}
		var extra []string
		if si.Updated != nil {
			extra = append(extra, "updated "+si.Updated.String())
		}
		if si.Expires != nil {
			extra = append(extra, "expires "+si.Expires.String())
		}
		if si.Submission != nil {
			extra = append(extra, "submission "+si.SubmissionOrDefault().String())
		}
		if si.Command != nil {
			extra = append(extra, "command "+si.Command.String())
		}
		if len(extra) > 0 {
			p.f("           %s\n", strings.Join(extra, ", "))
		}
		if si.SHA256 != nil {
			p.f("           sha256 %s\n", sha256Hex(*si.SHA256))
		}
	}
	if cs.ContentType != nil {
		p.f("  type     %s\n", displayInput(*cs.ContentType))
	}
	if cs.Created != nil {
		p.f("  created  %s\n", cs.Created)
	}
	if cs.Title != nil {
		p.f("  title    %s\n", showText(*cs.Title))
	}
	if cs.IsImageSet() || !cs.IsPageSet() && len(cs.RefCounts) > 0 {
		objs := make([]string, len(cs.Objects))
		for i, o := range cs.Objects {
			objs[i] = o.String()
			if i < len(cs.RefCounts) {
				objs[i] += fmt.Sprintf(" (count %d)", cs.RefCounts[i])
			}
		}
		p.f("  images   %s\n", orNone(strings.Join(objs, ", ")))
	} else {
		p.f("  pages    %s\n", orNone(pageRanges(d.PageNumbers(cs))))
	}
	if cs.TextID != nil {
		p.f("  TID      %s\n", cs.TextID.Hex())
	}
}
