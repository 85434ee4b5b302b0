package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/internal/limits"
	"github.com/webcap/webcap/mirror"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/record"
	"github.com/webcap/webcap/warc"
)

func newBuildCmd(ios *IOStreams, runF func(context.Context, *buildOptions) error) *cobra.Command {
	opts := &buildOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "build [flags] MANIFEST -o OUT.pdf",
		Short: "Add Web Capture content sets to a PDF, from a JSON manifest",
		Long: `Add Web Capture structures to a PDF made from web content. The manifest
(JSON; schema: webcap help schema manifest, example:
testdata/build/manifest.json) names the input PDF and, for each page set,
its pages, source URL, redirects, captured file, content type, capture
time, title, submission type and command; for each image set, the image
and the image XObjects made from it (by page and resource name, or object
number); and the commands, in execution order.

With a WARC file (--warc, or the manifest's "warc" instead of "sources"),
the manifest only needs to say which URL makes which pages (and which
image XObjects): each set's source and a page's auxiliary files are the
content of the last 200 response archived for their URLs (transfer and
content coding removed, as id --warc reads them), a set without
"redirects" gets the redirect chains archived that end at its URL (3xx
responses with a Location), and a set without "captured" gets the
WARC-Date of its response record. What the manifest says is kept.

build computes every identifier from the captured data: a page set's ID
over the page and its auxiliary files (read from the manifest's sources,
a wget mirror), an image set's ID, a text page's TID. It canonicalizes
every source URL for the URLS tree (--profile), sets each page's and
image's /ID, counts each image's pages for /R, and appends the commands to
/SpiderInfo. Sets already in the input are kept, and its trees are
rebuilt with the new keys.

The manifest's paths (input, sources, warc, each set's source) are
relative to its directory and read inside it only, as are the files its
sources (or --sources) name: a path with "..", an absolute path, a
symbolic link or a file: URL that leads outside is refused (exit 4,
nothing written), unless --allow-outside. --sources and --warc, given on
the command line, are read where they are.

The result is an incremental update: the input's bytes are the output's
first bytes, unchanged. The output is written to a temporary file and
renamed (-o - writes it to stdout, the summary to stderr); the input is
never changed unless --in-place. A manifest error names the manifest's
line and column or field, and nothing is written.

Exit status: 0 when the result audits with no error, 1 when the manifest
is wrong or the result has audit errors, 2 for a usage error, 3 when a file
cannot be read or written, 4 when a path leads outside the manifest's or
the sources' directory.`,
		Example: `  $ webcap build testdata/build/manifest.json -o captured.pdf
  $ webcap build --profile pdf2 --sources mirror/ site.json -o site.pdf
  $ wget -p --warc-file=site https://example.com/
  $ webcap build --warc site.warc.gz site.json -o site.pdf   # sources, redirects, times from the WARC
  $ webcap build --json manifest.json -o out.pdf | jq '.sets[].id'
  $ webcap build --allow-outside ../shared/site.json -o site.pdf   # its paths may leave its directory`,
		Args: cobra.ExactArgs(1),
		RunE: runner(opts, runF, inBand(bounded(runBuild)), func(args []string) error {
			opts.Manifest = args[0]
			if err := opts.limitFlags.check("build"); err != nil {
				return err
			}
			switch {
			case opts.Sources != "" && opts.WARC != "":
				return usagef("build: give --sources or --warc, not both: a WARC file is the sources")
			case opts.WARC != "" && !warc.IsWARC(opts.WARC):
				return usagef("build: --warc %q: want a .warc or .warc.gz file", opts.WARC)
			}
			return opts.outputFlags.flags("build", true, true)
		}),
	}
	opts.outputFlags.add(cmd, "write the new file to `OUT.pdf`", true)
	addProfileFlag(cmd, &opts.Profile, nil, "canonicalization for URLS keys: pdf, pdf2 or rfc3986 (default: the manifest's, or pdf)")
	f := cmd.Flags()
	f.StringVar(&opts.Sources, "sources", "", "read captured files from a wget mirror `DIR`, a WARC file or aux MANIFEST (default: the manifest's sources)")
	f.StringVar(&opts.WARC, "warc", "", "read sources, redirect chains and capture times from `FILE`.warc[.gz] (default: the manifest's warc)")
	f.BoolVar(&opts.JSON, "json", false, "print the summary as JSON")
	addAllowOutsideFlag(cmd, &opts.AllowOutside)
	opts.passwordFlags.add(cmd)
	opts.limitFlags.addReadLimits(cmd)
	return cmd
}

type buildOptions struct {
	IO *IOStreams
	outputFlags
	passwordFlags
	limitFlags
	Profile  *canon.Profile // nil: the manifest's
	Sources  string
	WARC     string
	JSON     bool
	Manifest string
	// AllowOutside lets the manifest's paths and what its sources name
	// lead outside their directory.
	AllowOutside bool
}

func (o *buildOptions) bounds() (*limitFlags, string, []string) {
	return &o.limitFlags, "build", []string{o.Manifest}
}

func runBuild(ctx context.Context, opts *buildOptions) error {
	bo := record.Options{Profile: opts.Profile, AllowCertified: opts.Force, ReadBack: true, AllowOutside: opts.AllowOutside,
		Context: ctx, MaxFileSize: int64(opts.MaxFileSize)}
	// The manifest names the input PDF: it is read first (it is small), so
	// that the output is checked against the input before any work.
	data, err := opts.readFile("build", opts.Manifest)
	if err != nil {
		return err
	}
	m, err := record.ParseManifestBytes(data, opts.Manifest)
	if err != nil {
		return buildError(err)
	}
	r := &runFiles{inPlace: m.InputPath()}
	r.input("", opts.Manifest, opts.IO)
	r.in = append(r.in, m.Files()...)
	r.source("--sources", opts.Sources)
	r.input("--warc", opts.WARC, nil)
	r.input("--password-file", opts.PasswordFile, opts.IO)
	r.output("-o", opts.Out)
	if err := r.check("build"); err != nil {
		return err
	}
	if err := opts.outputFlags.check("build", opts.IO, m.InputPath()); err != nil {
		return err
	}
	if err := opts.resolve("build", opts.IO); err != nil {
		return err
	}
	if opts.Sources != "" {
		src, err := loadSources(ctx, "build", "--sources", opts.Sources, mirror.Options{AllowOutside: opts.AllowOutside}, int64(opts.MaxFileSize))
		if err != nil {
			return err
		}
		bo.Sources = src
	}
	if opts.WARC != "" {
		if err := checkWARC("build", opts.WARC, int64(opts.MaxFileSize)); err != nil {
			return err
		}
		bo.WARC = opts.WARC
	}
	bo.Password = opts.get()
	res, err := record.Apply(m, bo)
	if err != nil && opts.retry(err, m.InputPath()) {
		bo.Password = opts.get()
		res, err = record.Apply(m, bo)
	}
	if err != nil && errors.Is(context.Cause(ctx), limits.ErrLimit) && errors.As(err, new(*warc.FileError)) {
		return fmt.Errorf("build: %w", err) // the WARC file stopped at a record, named
	}
	if err != nil && ctx.Err() != nil && !errors.As(err, new(*pdfio.Error)) {
		return stopError(ctx, "build", opts.Manifest) // nothing written
	}
	if err != nil {
		return buildError(err)
	}
	if ctx.Err() != nil {
		return stopError(ctx, "build", opts.Manifest) // nothing written
	}
	release := holdStop(ctx) // the output is written whole, or not at all
	err = opts.put("build", opts.IO, res.Input, res.Output)
	release()
	if err != nil {
		return err
	}
	out := opts.target(res.Input)
	// The result is read back for the audit from what Apply already
	// parsed and wrote (record.Result.Read), not parsed a second time.
	d, err := res.Read(out)
	if d, err = readBack("build", d, err); err != nil {
		return err
	}
	sum := summarize(d, res.Profile)
	w := opts.summary(opts.IO)
	if opts.JSON {
		return jsonVerdict(w, newBuildSummary(opts.Manifest, out, res, sum), sum.Count(audit.Serious))
	}
	writeSets(w, res.Sets)
	fmt.Fprintf(w, "%s: %s and %s written to %s (%d bytes appended; the input's %d bytes are unchanged)\n",
		displayInput(res.Input), plural(len(res.Sets), "content set"), plural(len(res.Commands), "command"),
		displayOutput(out), res.Appended, len(res.Output)-res.Appended)
	return writeVerdict(w, out, sum)
}

// newBuildSummary is build --json's output.
func newBuildSummary(manifest, out string, res *record.Result, sum audit.Summary) buildSummary {
	bs := buildSummary{Schema: schemaName("build"), Input: manifest, PDF: res.Input, Output: out, Appended: res.Appended, Sets: []buildSet{}, Commands: len(res.Commands), Errors: sum.Count(audit.Serious)}
	for _, s := range res.Sets {
		set := buildSet{Subtype: string(s.Kind), Object: s.Ref.String(), ID: s.ID.String(), URL: s.URL, Key: s.Key, Pages: s.Pages, R: s.RefCount, Aux: s.Aux,
			Aliases: s.Aliases, Shared: s.Shared}
		if s.TextID != nil {
			set.TextID = s.TextID.String()
		}
		if s.Kind == "SIS" {
			for _, o := range s.Objects {
				set.Objects = append(set.Objects, o.String())
			}
		}
		bs.Sets = append(bs.Sets, set)
	}
	return bs
}

// checkWARC checks that --warc names a WARC file that can be read, before
// any work: one that cannot be opened is an I/O error, one larger than
// maxSize or whose first record's header is not valid an invalid input
// (sourcesError). record reads it whole, under the same limits.
func checkWARC(cmd, path string, maxSize int64) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return usagef("%s: --warc: %s is a directory, not a WARC file", cmd, path)
	}
	f, _, err := limits.Open(path, maxSize, "") // a regular file (a pipe would block the open)
	if err != nil {
		return sourcesError(cmd, "--warc", err)
	}
	defer f.Close()
	if _, err := warc.NewReader(f).NextHeader(); err != nil && err != io.EOF {
		return sourcesError(cmd, "--warc", fmt.Errorf("%s: %w", path, err))
	}
	return nil
}

// buildError sorts build's errors into exit codes: a file that cannot be
// read is an I/O error, the rest make the build fail.
func buildError(err error) error {
	sayFlag(err)
	var pe *fs.PathError
	if errors.As(err, &pe) || isPasswordError(err) {
		return &ioError{fmt.Errorf("build: %w", pathError(err))}
	}
	return fmt.Errorf("build: %w", err)
}
