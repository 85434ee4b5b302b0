package cli

import (
	"bufio"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/mirror"
	"github.com/webcap/webcap/warc"
	"github.com/webcap/webcap/webcapture"
)

func newIDCmd(ios *IOStreams, runF func(context.Context, *idOptions) error) *cobra.Command {
	opts := &idOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "id [flags] FILE...",
		Short: "Compute the Web Capture digital identifiers of source files",
		Long: `Compute the MD5 digital identifier that keys a content set in the IDS tree
(PDF Reference 1.7 §10.9.2), and print it in upper-case hex, one line per
file ("ID  FILE"). "-" reads a file from stdin.

Kinds (--kind):
  page   MD5 of an HTML or XHTML page's bytes followed by the identifier of
         each auxiliary file it references (images, srcset candidates,
         input type=image, object/embed, frames, background), each once, in
         order of first reference
  image  MD5 of the image file's bytes (an image set's ID)
  pdf    MD5 of the PDF file's bytes (a page set made from a PDF)
  file   MD5 of any other file's bytes (plain text, XML, ...)
  text   the text identifier (TID): MD5 of the page's text
  auto   the rule the file's type calls for, by its bytes (sniffed):
         HTML and XHTML are pages, image/* images, PDF a PDF, the rest
         files; capture, build and audit --sources decide the same way

The auxiliary files of a page come from --aux: a directory laid out as
"wget --mirror" writes it (host/path), a WARC file (.warc, .warc.gz), or a
JSON manifest {"URL": "file"}.
References are resolved against <base href>, or the page's --url, or the URL
the file has inside a --aux mirror directory. When an auxiliary file cannot
be found, the identifier printed leaves it out: it is reported on stderr and
the exit status is 1.

A mirror's or manifest's files are read inside its directory only: a
symbolic link that leads out of it, a manifest path with ".." or an
absolute one outside it, and a file: URL (the path of a file on the
machine that captured the page) outside it are refused, as an auxiliary
file not read (exit 1); a FILE inside the --aux mirror that is such a
link is refused (exit 4). --allow-outside reads them where they lead.

With --warc, the arguments are URLs, and each URL's data and its
auxiliary files come from the WARC file (.warc, .warc.gz): the last 200
response archived for the URL (a redirect is followed within the archive),
its content coding (gzip, deflate) removed, as the server sent the entity.
Each line is "ID  URL  sha256:HEX  RECORD  PAYLOAD-DIGEST": the
identifier; the SHA-256 of the bytes it hashes first (the URL's content,
as /WCSHA256 records it); the WARC-Record-ID of the response that holds
them and its WARC-Payload-Digest ("-" if none). The payload digest covers
the entity as sent: for a gzip or deflate Content-Encoding, its decoding
is what the SHA-256 covers (docs/sha256.md). Without a URL, every URL the
archive has a 200 response for, sorted. A URL the archive lacks is reported on stderr and the
exit status is 1.

--aux-id sets how each auxiliary identifier is fed to
MD5: raw 16 bytes (default), HEX or hex digits; the specification does not
say, so "webcap audit --sources" tries all three.

With --json, each file gives one JSON object on its own line (schema:
webcap help schema id):
  {"schema": "webcap.id/1", "input", "kind", "id", "complete", "url",
   "base", "auxId", "aux": [{"url", "element", "attr", "raw", "id", "found",
   "reason"}], "skipped": [...], "textLength", and with --warc "sha256",
   "warc": {"record", "payloadDigest", "contentEncoding"}}
and a file that cannot be read {"schema", "input", "error": {"message",
"kind"}}.`,
		Example: `  $ webcap id logo.gif report.pdf
  $ webcap id --aux mirror/ mirror/www.example.com/index.html
  $ webcap id --kind page --url http://www.example.com/ --aux files.json page.html
  $ webcap id --kind text page.html
  $ curl -s https://example.com/ | webcap id --kind page --url https://example.com/ -
  $ webcap id --json --aux mirror/ mirror/www.example.com/index.html
  $ webcap id --aux mirror/ --allow-outside mirror/www.example.com/index.html   # links out of mirror/ followed
  $ webcap id --warc site.warc.gz http://www.example.com/ http://www.example.com/logo.gif
  $ webcap id --warc site.warc.gz`,
		Args: func(cmd *cobra.Command, args []string) error {
			if opts.WARC != "" {
				return nil // no URL: every URL archived
			}
			return cobra.MinimumNArgs(1)(cmd, args)
		},
		RunE: runner(opts, runF, inBand(bounded(runID)), func(args []string) error {
			opts.Files = args
			switch {
			case opts.WARC != "" && (opts.Aux != "" || opts.URL != ""):
				return usagef("id: --warc gives the URLs and the auxiliary files: --aux and --url cannot go with it")
			case opts.WARC != "" && !warc.IsWARC(opts.WARC):
				return usagef("id: --warc %q: want a .warc or .warc.gz file", opts.WARC)
			}
			if i := slices.Index(args, "-"); i >= 0 && slices.Contains(args[i+1:], "-") {
				return usagef("id: - (stdin) can be read once")
			}
			if _, ok := idKinds[opts.Kind]; !ok && opts.Kind != "text" {
				return usagef("id: --kind %q: want auto, page, image, pdf, file or text", opts.Kind)
			}
			if _, err := webcapture.ParseAuxEncoding(opts.AuxID); err != nil {
				return usagef("id: --aux-id %q: want raw, HEX or hex", opts.AuxID)
			}
			return opts.limitFlags.check("id")
		}),
	}
	f := cmd.Flags()
	f.StringVar(&opts.Kind, "kind", "auto", "auto, page, image, pdf, file or text")
	f.StringVar(&opts.URL, "url", "", "the page's own `URL`, for relative references")
	f.StringVar(&opts.Aux, "aux", "", "auxiliary files: a wget mirror `DIR`, a WARC file or a JSON MANIFEST")
	f.StringVar(&opts.WARC, "warc", "", "take the URLs' data and auxiliary files from a WARC `FILE` (.warc, .warc.gz)")
	f.StringVar(&opts.AuxID, "aux-id", "raw", "how auxiliary identifiers are hashed: raw, HEX or hex")
	addAllowOutsideFlag(cmd, &opts.AllowOutside)
	f.BoolVar(&opts.JSON, "json", false, "print one JSON object per file")
	_ = cmd.RegisterFlagCompletionFunc("kind", cobra.FixedCompletions(
		[]string{"auto", "page", "image", "pdf", "file", "text"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("aux-id", cobra.FixedCompletions(
		[]string{"raw\t16 bytes (default)", "HEX\tupper-case hex", "hex\tlower-case hex"}, cobra.ShellCompDirectiveNoFileComp))
	opts.limitFlags.addReadLimits(cmd)
	return cmd
}

type idOptions struct {
	IO    *IOStreams
	Kind  string
	URL   string
	Aux   string
	AuxID string
	WARC  string // the arguments are URLs in this WARC file
	JSON  bool
	limitFlags
	Files []string
	// AllowOutside lets the --aux mirror's or manifest's links, paths and
	// file: URLs lead outside its directory.
	AllowOutside bool
}

func (o *idOptions) bounds() (*limitFlags, string, []string) { return &o.limitFlags, "id", o.Files }

func runID(ctx context.Context, opts *idOptions) error {
	enc, _ := webcapture.ParseAuxEncoding(opts.AuxID) // checked with the flags
	if opts.WARC != "" {
		return runIDWARC(ctx, opts, enc)
	}
	var aux webcapture.AuxSource
	var dir mirror.Dir
	if opts.Aux != "" {
		var err error
		if aux, err = loadSources(ctx, "id", "--aux", opts.Aux, mirror.Options{AllowOutside: opts.AllowOutside}, int64(opts.MaxFileSize)); err != nil {
			return err
		}
		dir, _ = aux.(mirror.Dir)
	}
	w := bufio.NewWriter(opts.IO.Out)
	failed, ioFailed, invalid := 0, false, false
	for _, file := range opts.Files {
		if ctx.Err() != nil {
			return stopError(ctx, "id", file)
		}
		// A file inside the --aux mirror is one of its files: read inside
		// it only, as its auxiliary files are.
		err := dir.Check(file)
		var data []byte
		if err == nil {
			data, err = readInput(ctx, file, opts.IO, int64(opts.MaxFileSize))
		}
		if ctx.Err() != nil {
			return stopError(ctx, "id", file)
		}
		if err != nil {
			kind := "io"
			if exitCode(err) == exitInvalid {
				kind, invalid = "invalid", true
			} else {
				ioFailed = true
			}
			failed++
			if !opts.JSON {
				w.Flush()
				fmt.Fprintf(opts.IO.ErrOut, "webcap: id: %v\n", err)
				continue
			}
			// In-band, not on stderr.
			if err := writeLine(w, failureJSON{Schema: schemaName("id"), Input: file, Error: &errorJSON{Message: err.Error(), Kind: kind}}); err != nil {
				return &ioError{fmt.Errorf("id: writing output: %w", err)}
			}
			continue
		}
		j, err := computeID(data, file, opts, aux, dir, enc)
		switch {
		case err != nil:
			failed++
			if !opts.JSON {
				w.Flush()
				fmt.Fprintf(opts.IO.ErrOut, "webcap: id: %s: %v\n", displayInput(file), err)
				continue
			}
		case !j.Complete:
			failed++
			if !opts.JSON {
				w.Flush()
				fmt.Fprintf(opts.IO.ErrOut, "webcap: id: %s: identifier incomplete: %s\n", displayInput(file), missing(j.Aux))
			}
		}
		switch {
		case opts.JSON && err != nil:
			err = writeLine(w, failureJSON{Schema: schemaName("id"), Input: file, Error: &errorJSON{Message: err.Error(), Kind: "failed"}})
		case opts.JSON:
			err = writeLine(w, j)
		default:
			_, err = fmt.Fprintf(w, "%s  %s\n", j.ID, displayInput(file))
		}
		if err != nil {
			return &ioError{fmt.Errorf("id: writing output: %w", err)}
		}
	}
	if err := w.Flush(); err != nil {
		return &ioError{fmt.Errorf("id: writing output: %w", err)}
	}
	switch {
	case ioFailed:
		return &ioError{errFailed}
	case invalid:
		return &invalidError{errFailed}
	case failed > 0:
		return errFailed
	}
	return nil
}

// computeID computes a file's identifier; an error is a file whose
// identifier cannot be computed at all.
func computeID(data []byte, file string, opts *idOptions, aux webcapture.AuxSource, dir mirror.Dir, enc webcapture.AuxEncoding) (idJSON, error) {
	j := idJSON{Schema: schemaName("id"), Input: file, Kind: opts.Kind, Complete: true}
	if opts.Kind == "text" {
		id, text := webcapture.TextID(data, "")
		j.ID = id.String()
		n := len(text)
		j.TextLength = &n
		return j, nil
	}
	u := opts.URL
	if u == "" && dir.Path != "" {
		u, _ = dir.URLOf(file)
	}
	src, err := webcapture.SourceID(data, webcapture.SourceOptions{Kind: idKinds[opts.Kind], URL: u, Aux: aux, AuxEncoding: enc})
	if err != nil {
		return j, err
	}
	j.Kind, j.ID, j.Complete = src.Kind.String(), src.ID.String(), src.Complete()
	if r := src.Page; r != nil {
		j.URL, j.Base, j.AuxID = u, r.Base, enc.String()
		j.Aux, j.Skipped = auxRefs(r.Aux), auxRefs(r.Skipped)
	}
	return j, nil
}

// idKinds are --kind's rules (auto: the one SourceID decides).
var idKinds = map[string]webcapture.SourceKind{
	"auto": webcapture.SourceAuto, "page": webcapture.SourcePage, "image": webcapture.SourceImage,
	"pdf": webcapture.SourcePDF, "file": webcapture.SourceFile,
}

func auxRefs(refs []webcapture.AuxRef) []auxRefJSON {
	out := []auxRefJSON{}
	for _, a := range refs {
		r := auxRefJSON{URL: a.URL, Element: a.First.Element, Attr: a.First.Attr, Raw: a.First.Raw, Found: a.Found, Reason: a.Err}
		if a.Found {
			r.ID = a.ID.String()
		}
		out = append(out, r)
	}
	return out
}

// missing lists the auxiliary files that were not found.
func missing(aux []auxRefJSON) string {
	var parts []string
	n := 0
	for _, a := range aux {
		if a.Found {
			continue
		}
		n++
		if len(parts) < 5 {
			what := a.URL
			if what == "" {
				what = a.Raw
			}
			parts = append(parts, fmt.Sprintf("%s (%s)", displayInput(what), a.Reason))
		}
	}
	more := ""
	if n > len(parts) {
		more = fmt.Sprintf(", and %d more", n-len(parts))
	}
	return fmt.Sprintf("%d of %s not read: %s%s", n, plural(len(aux), "auxiliary file"), strings.Join(parts, "; "), more)
}

// runIDWARC prints the identifiers of URLs archived in a WARC file, their
// auxiliary files taken from the same file.
func runIDWARC(ctx context.Context, opts *idOptions, enc webcapture.AuxEncoding) error {
	src, err := warc.LoadFile(opts.WARC, warc.Options{MaxFileSize: int64(opts.MaxFileSize), Context: ctx})
	if err != nil {
		return sourcesError("id", "--warc", err)
	}
	for _, p := range src.Problems {
		fmt.Fprintf(opts.IO.ErrOut, "webcap: id: %s: %s\n", opts.WARC, p)
	}
	urls := opts.Files
	if len(urls) == 0 {
		urls = src.URLs()
	}
	w := bufio.NewWriter(opts.IO.Out)
	failed := 0
	for _, u := range urls {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		j, err := warcID(src, u, opts, enc)
		switch {
		case err != nil:
			failed++
			if opts.JSON {
				err = writeLine(w, failureJSON{Schema: schemaName("id"), Input: u, Error: &errorJSON{Message: err.Error(), Kind: "failed"}})
				break
			}
			w.Flush()
			fmt.Fprintf(opts.IO.ErrOut, "webcap: id: %s: %v\n", u, err)
			continue
		case !j.Complete:
			failed++
			if !opts.JSON {
				w.Flush()
				fmt.Fprintf(opts.IO.ErrOut, "webcap: id: %s: identifier incomplete: %s\n", u, missing(j.Aux))
			}
			fallthrough
		default:
			if opts.JSON {
				err = writeLine(w, j)
			} else {
				_, err = fmt.Fprintf(w, "%s  %s  sha256:%s  %s  %s\n", j.ID, u, j.SHA256, j.WARC.Record, orDash(j.WARC.PayloadDigest))
			}
		}
		if err != nil {
			return &ioError{fmt.Errorf("id: writing output: %w", err)}
		}
	}
	if err := w.Flush(); err != nil {
		return &ioError{fmt.Errorf("id: writing output: %w", err)}
	}
	if failed > 0 {
		return errFailed
	}
	return nil
}

// warcID computes the identifier of the data archived for u, following
// the archive's redirects.
func warcID(src *warc.Source, u string, opts *idOptions, enc webcapture.AuxEncoding) (idJSON, error) {
	key, err := canon.Canonical(u)
	if err != nil {
		return idJSON{}, err
	}
	chain := src.Chain(key)
	final := chain[len(chain)-1]
	rc, err := src.Open(final)
	if err != nil {
		return idJSON{}, fmt.Errorf("no 200 response for %s in %s", final, opts.WARC)
	}
	data, err := io.ReadAll(rc)
	rc.Close()
	if err != nil {
		return idJSON{}, err
	}
	o := *opts
	o.URL = final
	j, err := computeID(data, u, &o, src, mirror.Dir{}, enc)
	if err != nil {
		return j, err
	}
	sum := webcapture.SHA256(data)
	j.SHA256 = hex.EncodeToString(sum[:])
	r, _ := src.RecordOf(final)
	j.WARC = &idWARCJSON{Record: orDash(r.ID), PayloadDigest: r.PayloadDigest, ContentEncoding: r.ContentEncoding}
	return j, nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
