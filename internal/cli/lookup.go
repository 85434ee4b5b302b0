package cli

import (
	"bufio"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

type lookupOptions struct {
	IO       *IOStreams
	Profile  string
	Base     string
	Input    string
	IDs      []string
	JSON     bool
	Password string
	File     string
	URLs     []string
}

func newLookupCmd(ios *IOStreams, runF func(context.Context, *lookupOptions) error) *cobra.Command {
	opts := &lookupOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "lookup [flags] FILE [URL...]",
		Short: "Find the content set of a URL or identifier in a PDF",
		Long: `Find URLs in a PDF's URLS name tree, or identifiers in its IDS tree, and
show the content set each leads to, with its pages as page numbers.

Each URL is first canonicalized as "webcap canon" would (--profile, --base,
--input), and the canonical key is looked up byte for byte. --id looks up a
hex identifier in IDS instead; it can be given several times.

The exit status is 1 when something is not found or cannot be canonicalized.
With --json, each query gives one JSON object on its own line:
  {"query", "tree", "key", "found", "error", "sets": [content set, ...]}
(content sets as in "webcap info --json").`,
		Example: `  $ webcap lookup capture.pdf 'HTTP://WWW.Example.com:80/#top'
  $ webcap lookup --base http://www.example.com/a/ capture.pdf ../logo.gif
  $ webcap lookup --id 83EDD6AAB530B644B8540F609E468F78 capture.pdf
  $ webcap lookup --json capture.pdf http://www.example.com/`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.File, opts.URLs = args[0], args[1:]
			if len(opts.URLs) == 0 && len(opts.IDs) == 0 {
				return usagef("lookup: give at least one URL or --id")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runLookup(cmd.Context(), opts)
		},
	}
	addCanonFlags(cmd, &opts.Profile, &opts.Base, &opts.Input)
	f := cmd.Flags()
	f.StringArrayVar(&opts.IDs, "id", nil, "look up this hex identifier in IDS (repeatable)")
	f.BoolVar(&opts.JSON, "json", false, "print one JSON object per query")
	f.StringVar(&opts.Password, "password", "", "password of an encrypted file")
	return cmd
}

type lookupJSON struct {
	Query string    `json:"query"`
	Tree  string    `json:"tree"`
	Key   string    `json:"key,omitempty"`
	Found bool      `json:"found"`
	Error string    `json:"error,omitempty"`
	Sets  []setJSON `json:"sets"`
}

func runLookup(ctx context.Context, opts *lookupOptions) error {
	c, err := newCanonicalizer("lookup", opts.Profile, opts.Input, opts.Base)
	if err != nil {
		return err
	}
	ids := make([]string, len(opts.IDs))
	for i, h := range opts.IDs {
		b, err := hex.DecodeString(strings.TrimSpace(h))
		if err != nil {
			return usagef("lookup: --id %q is not hex", h)
		}
		ids[i] = string(b)
	}
	d, err := pdfio.Open(opts.File, pdfio.Options{Password: opts.Password})
	if err != nil {
		if isOSError(err) {
			return &ioError{fmt.Errorf("lookup: %w", err)}
		}
		return fmt.Errorf("lookup: %w", err)
	}
	index := map[*pdfio.ContentSet]int{}
	for i, cs := range d.Sets {
		index[cs] = i + 1
	}
	w := bufio.NewWriter(opts.IO.Out)
	missing := 0
	answer := func(q lookupJSON, sets []*pdfio.ContentSet) error {
		q.Sets = []setJSON{}
		for _, cs := range sets {
			q.Sets = append(q.Sets, newSetJSON(d, cs, index[cs]))
		}
		if !q.Found {
			missing++
			if !opts.JSON {
				w.Flush()
				fmt.Fprintf(opts.IO.ErrOut, "webcap: lookup: %s: %s\n", displayInput(opts.File), q.Error)
				return nil
			}
		}
		if opts.JSON {
			enc := json.NewEncoder(w)
			enc.SetEscapeHTML(false)
			return enc.Encode(q)
		}
		return writeLookup(w, d, q, sets, index)
	}
	for _, u := range opts.URLs {
		q := lookupJSON{Query: u, Tree: "URLS"}
		key, err := c.String(u)
		var sets []*pdfio.ContentSet
		switch {
		case err != nil:
			var ce *canon.Error
			if errors.As(err, &ce) {
				q.Error = fmt.Sprintf("%s: %s", displayInput(u), ce.Detail())
			} else {
				q.Error = err.Error()
			}
		default:
			q.Key = key
			sets, q.Found = find(d.URLS, key)
			if !q.Found {
				q.Error = notFound("URLS", d.URLS, displayInput(key), u, key)
			}
		}
		if err := answer(q, sets); err != nil {
			return &ioError{fmt.Errorf("lookup: writing output: %w", err)}
		}
	}
	for i, id := range ids {
		q := lookupJSON{Query: opts.IDs[i], Tree: "IDS", Key: webcapture.RawID(id).Hex()}
		var sets []*pdfio.ContentSet
		sets, q.Found = find(d.IDS, id)
		if !q.Found {
			q.Error = notFound("IDS", d.IDS, q.Key, q.Key, q.Key)
		}
		if err := answer(q, sets); err != nil {
			return &ioError{fmt.Errorf("lookup: writing output: %w", err)}
		}
	}
	if err := w.Flush(); err != nil {
		return &ioError{fmt.Errorf("lookup: writing output: %w", err)}
	}
	if missing > 0 {
		return errFailed
	}
	return nil
}

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

// find returns the content sets of key in t; every entry with the key counts
// (a tree with duplicate keys is shown whole).
func find(t *pdfio.Tree, key string) ([]*pdfio.ContentSet, bool) {
	if t == nil {
		return nil, false
	}
	var sets []*pdfio.ContentSet
	found := false
	for _, e := range t.Entries {
		if e.Key == key {
			found = true
			sets = append(sets, e.Sets...)
		}
	}
	return sets, found
}

func writeLookup(w *bufio.Writer, d *pdfio.Document, q lookupJSON, sets []*pdfio.ContentSet, index map[*pdfio.ContentSet]int) error {
	p := &printer{w: w}
	p.f("%s\n", displayInput(q.Query))
	if q.Key != q.Query {
		p.f("  key      %s\n", displayInput(q.Key))
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
		where := "pages " + orNone(pageRanges(d.PageNumbers(cs)))
		if cs.IsImageSet() {
			objs := make([]string, len(cs.Objects))
			for i, o := range cs.Objects {
				objs[i] = o.String()
			}
			where = "images " + orNone(strings.Join(objs, ", "))
		}
		p.f("  %s %d (%s), %s, %s\n", orNone(kind), index[cs], cs.Ref, id, where)
	}
	return p.err
}

// newCanonicalizer builds a canonicalizer from command-line flags; bad
// values are usage errors.
func newCanonicalizer(cmd, profile, input, base string) (*canon.Canonicalizer, error) {
	p, err := canon.ParseProfile(profile)
	if err != nil {
		return nil, usagef("%s: --profile %q: want pdf, pdf2 or rfc3986", cmd, profile)
	}
	enc, err := canon.ParseEncoding(input)
	if err != nil {
		return nil, usagef("%s: --input %q: want encoded or raw", cmd, input)
	}
	opts := []canon.Option{canon.WithInput(enc)}
	if base != "" {
		opts = append(opts, canon.WithBase(base))
	}
	c, err := canon.New(p, opts...)
	if err != nil {
		var ce *canon.Error
		if errors.As(err, &ce) {
			return nil, usagef("%s: --base %s: %s", cmd, displayInput(ce.Input), ce.Detail())
		}
		return nil, usagef("%s: --base: %v", cmd, err)
	}
	return c, nil
}
