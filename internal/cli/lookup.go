package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

func newLookupCmd(ios *IOStreams, runF func(context.Context, *lookupOptions) error) *cobra.Command {
	opts := &lookupOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "lookup [flags] FILE [URL...]",
		Short: "Find the content set of a URL or identifier in a PDF",
		Long: `Find URLs in a PDF's URLS name tree, or identifiers in its IDS tree, and
show the content set each leads to, with its pages as page numbers.

Each URL is first canonicalized as "webcap canon" would (--profile, --base,
--input), and the canonical key is looked up byte for byte. Keys that are
not canonical (Acrobat 10 wrote raw bytes into them) are found too: by the
URL exactly as the file writes it, and by their canonical form. --id looks
up a hex identifier in IDS instead; it can be given several times.

The exit status is 1 when something is not found or cannot be canonicalized.
With --json, each query gives one JSON object on its own line (schema:
webcap help schema lookup):
  {"schema": "webcap.lookup/1", "input", "query", "tree", "key", "found",
   "error": {"message", "kind"}, "sets": [content set, ...]}
(content sets as in "webcap info --json"; "query" and "key" are strings
when their bytes are UTF-8, {"hex": "..."} otherwise). A file that cannot
be read gives one {"schema", "input", "error"}.`,
		Example: `  $ webcap lookup capture.pdf 'HTTP://WWW.Example.com:80/#top'
  $ webcap lookup --base http://www.example.com/a/ capture.pdf ../logo.gif
  $ webcap lookup --id 83EDD6AAB530B644B8540F609E468F78 capture.pdf
  $ webcap lookup --json capture.pdf http://www.example.com/`,
		Args: cobra.MinimumNArgs(1),
		RunE: runner(opts, runF, inBand(bounded(runLookup)), func(args []string) error {
			opts.File, opts.URLs = args[0], args[1:]
			if err := opts.limitFlags.check("lookup"); err != nil {
				return err
			}
			if len(opts.URLs) == 0 && len(opts.IDs) == 0 {
				return usagef("lookup: give at least one URL or --id")
			}
			for _, h := range opts.IDs {
				if _, err := webcapture.ParseRawID(strings.TrimSpace(h)); err != nil {
					return usagef("lookup: --id %q is not hex", h)
				}
			}
			return nil
		}),
	}
	opts.canonFlags.add(cmd)
	f := cmd.Flags()
	f.StringArrayVar(&opts.IDs, "id", nil, "look up this hex identifier in IDS (repeatable)")
	f.BoolVar(&opts.JSON, "json", false, "print one JSON object per query")
	opts.passwordFlags.add(cmd)
	opts.limitFlags.addReadLimits(cmd)
	return cmd
}

type lookupOptions struct {
	IO *IOStreams
	canonFlags
	IDs  []string // hex identifiers, looked up in IDS
	JSON bool
	passwordFlags
	limitFlags
	File string
	URLs []string
}

func (o *lookupOptions) bounds() (*limitFlags, string, []string) {
	return &o.limitFlags, "lookup", []string{o.File}
}

func runLookup(ctx context.Context, opts *lookupOptions) error {
	c, err := opts.canonicalizer("lookup")
	if err != nil {
		return err
	}
	if err := opts.resolve("lookup", opts.IO); err != nil {
		return err
	}
	d, err := opts.openPDF("lookup", opts.File, opts.pdfOptions(ctx))
	if err != nil {
		return err
	}
	l := &lookupRun{opts: opts, d: d, w: bufio.NewWriter(opts.IO.Out), index: map[*pdfio.ContentSet]int{}}
	for i, cs := range d.Sets {
		l.index[cs] = i + 1
	}
	for _, u := range opts.URLs {
		q := lookupJSON{Schema: schemaName("lookup"), Input: opts.File, Query: bytesJSON(u), Tree: "URLS"}
		key, sets, err := d.LookupURL(c, u)
		q.Key, q.Found = bytesJSON(key), err == nil
		var ce *canon.Error
		var amb *pdfio.AmbiguousKeyError
		switch {
		case errors.As(err, &ce):
			q.Key, q.Error = "", lookupError(fmt.Sprintf("%s: %s", displayInput(u), ce.Detail()))
		case errors.As(err, &amb):
			q.Error = lookupError(ambiguousMessage(amb, u))
		case err != nil:
			q.Error = lookupError(notFound("URLS", d.URLS, displayInput(key), u, key))
		}
		if err := l.answer(q, sets); err != nil {
			return err
		}
	}
	for _, h := range opts.IDs {
		id, _ := webcapture.ParseRawID(strings.TrimSpace(h)) // checked with the flags
		q := lookupJSON{Schema: schemaName("lookup"), Input: opts.File, Query: bytesJSON(h), Tree: "IDS", Key: bytesJSON(id.Hex())}
		sets, err := d.LookupID(id)
		if q.Found = err == nil; !q.Found {
			q.Error = lookupError(notFound("IDS", d.IDS, id.Hex(), id.Hex(), id.Hex()))
		}
		if err := l.answer(q, sets); err != nil {
			return err
		}
	}
	if err := l.w.Flush(); err != nil {
		return &ioError{fmt.Errorf("lookup: writing output: %w", err)}
	}
	if l.missing > 0 {
		return errFailed
	}
	return nil
}

// lookupError is a query that finds nothing.
func lookupError(msg string) *errorJSON {
	return &errorJSON{Message: msg, Kind: "failed"}
}

// ambiguousMessage says which keys a URL's canonical key could mean.
func ambiguousMessage(a *pdfio.AmbiguousKeyError, query string) string {
	from := ""
	if query != a.Key {
		from = fmt.Sprintf(" (canonical form of %s)", displayInput(query))
	}
	shown := make([]string, len(a.Keys))
	for i, k := range a.Keys {
		shown[i] = strconv.Quote(shownURL(k))
	}
	return fmt.Sprintf("%s%s: not in URLS, and %d keys canonicalize to it: %s (webcap fix reports them as a collision)",
		displayInput(a.Key), from, len(a.Keys), strings.Join(shown, ", "))
}

// lookupRun prints the answers to a lookup's queries.
type lookupRun struct {
	opts    *lookupOptions
	d       *pdfio.Document
	w       *bufio.Writer
	index   map[*pdfio.ContentSet]int // each set's number, as info numbers them
	missing int
}

// answer prints one query's answer: found, on stdout; not found, on
// stderr (with --json, on stdout as the rest).
func (l *lookupRun) answer(q lookupJSON, sets []*pdfio.ContentSet) error {
	q.Sets = []setJSON{}
	for _, cs := range sets {
		q.Sets = append(q.Sets, newSetJSON(l.d, cs, l.index[cs]))
	}
	var err error
	switch {
	case !q.Found && !l.opts.JSON:
		l.missing++
		l.w.Flush()
		fmt.Fprintf(l.opts.IO.ErrOut, "webcap: lookup: %s: %s\n", displayInput(l.opts.File), q.Error.Message)
		return nil
	case !q.Found:
		l.missing++
		fallthrough
	case l.opts.JSON:
		err = writeLine(l.w, q)
	default:
		err = l.write(q, sets)
	}
	if err != nil {
		return &ioError{fmt.Errorf("lookup: writing output: %w", err)}
	}
	return nil
}

// notFound says why a key is not in tree (t, nil when the file has none).
func notFound(tree string, t *pdfio.Tree, shown, query, key string) string {
	from := ""
	if query != key {
		from = fmt.Sprintf(" (canonical form of %s)", displayInput(query))
	}
	if t == nil {
		return fmt.Sprintf("%s%s: the file has no %s tree", shown, from, tree)
	}
	return fmt.Sprintf("%s%s: not in %s (%s)", shown, from, tree, plural(len(t.Entries), "key"))
}

// write prints a found query: the query, its key when it differs, and a
// line per content set.
func (l *lookupRun) write(q lookupJSON, sets []*pdfio.ContentSet) error {
	p := &printer{w: l.w}
	p.f("%s\n", displayInput(string(q.Query)))
	if q.Key != q.Query {
		p.f("  key      %s\n", displayInput(string(q.Key)))
	}
	if len(sets) == 0 {
		p.f("  (the key's value is not a content set)\n")
	}
	for _, cs := range sets {
		kind := map[webcapture.Subtype]string{webcapture.PageSet: "page set", webcapture.ImageSet: "image set"}[cs.Subtype]
		id := "no ID"
		if cs.ID != nil {
			id = "ID " + cs.ID.Hex()
		}
		where := "pages " + orNone(pageRanges(l.d.PageNumbers(cs)))
		if cs.IsImageSet() {
			objs := make([]string, len(cs.Objects))
			for i, o := range cs.Objects {
				objs[i] = o.String()
			}
			where = "images " + orNone(strings.Join(objs, ", "))
		}
		p.f("  %s %d (%s), %s, %s\n", orNone(kind), l.index[cs], cs.Ref, id, where)
	}
	return p.err
}
