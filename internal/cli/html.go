package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/spf13/cobra"
	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/audit/export"
	"github.com/webcap/webcap/htmlreport"
)

// The HTML report of audit --html and report --html (package htmlreport).

// thumbMode is --thumbnails: auto (pdftoppm when it is on PATH) or none.
type thumbMode string

func (m thumbMode) String() string { return string(m) }

var thumbModes = []thumbMode{"auto", "none"}

func parseThumbMode(s string) (thumbMode, error) {
	for _, m := range thumbModes {
		if string(m) == s {
			return m, nil
		}
	}
	return "", errors.New("no such mode")
}

// htmlFlags are --html and --thumbnails.
type htmlFlags struct {
	HTML       string // the report's path; "": none
	Thumbnails thumbMode
}

func (h *htmlFlags) add(cmd *cobra.Command) {
	h.Thumbnails = "auto"
	f := cmd.Flags()
	f.StringVar(&h.HTML, "html", "", "also write an HTML report to `REPORT.html` (a directory of pages beyond 1,000 files)")
	f.Var(choiceValue[thumbMode]{&h.Thumbnails, thumbModes, parseThumbMode, "mode"}, "thumbnails",
		"with --html, draw each page set's first page: auto (with poppler's pdftoppm, when on PATH; 10 s a page, 30 s a file, 10 min a report) or none")
	_ = cmd.RegisterFlagCompletionFunc("thumbnails", cobra.FixedCompletions([]string{"auto", "none"}, cobra.ShellCompDirectiveNoFileComp))
}

// check refuses, before any work, an --html path that cannot be written:
// one that exists (without --force), a directory that is not an HTML
// report, a directory that does not exist.
func (h *htmlFlags) check(cmd string, force bool) error {
	switch h.HTML {
	case "":
		return nil
	case stdoutName:
		return usagef("%s: --html -: the report is written to a file (or, beyond 1,000 files, a directory), not stdout", cmd)
	}
	fi, err := os.Stat(h.HTML)
	if err == nil && fi.IsDir() {
		if !force {
			return usagef("%s: --html %s exists: --force replaces it", cmd, h.HTML)
		}
		if _, err := os.Stat(filepath.Join(h.HTML, "index.html")); err != nil {
			return usagef("%s: --html %s is a directory but not an HTML report (no index.html): give another path", cmd, h.HTML)
		}
		return nil
	}
	return checkOutput(cmd, "--html", h.HTML, force)
}

// write writes the report of results to --html, and says on stderr what
// it wrote (unless quiet), and once when no renderer was found.
func (h *htmlFlags) write(ctx context.Context, cmd string, ios *IOStreams, results htmlreport.Results, force bool, jobs int, pf progressFlags) error {
	opts := htmlreport.Options{Jobs: jobs, Replace: force, Generator: "webcap " + buildVersion().Version, Time: time.Now()}
	if h.Thumbnails == "none" {
		opts.NoThumbnails = "Thumbnails are off (--thumbnails none)."
	} else if r, err := htmlreport.FindRenderer(); err != nil {
		opts.NoThumbnails = "No thumbnails: " + err.Error() + "."
		fmt.Fprintf(ios.ErrOut, "webcap: %s: --html: %v: the report has no thumbnails\n", cmd, err)
	} else {
		opts.Renderer = r
	}
	progress := newProgress(ios, pf, cmd+" --html", results.Len())
	opts.Progress = func(_, _ int, input string) { progress.step(input) }
	start := time.Now()
	st, err := htmlreport.Write(ctx, h.HTML, results, opts)
	progress.clear()
	if err != nil && ctx.Err() != nil {
		return stopError(ctx, cmd+" --html", "") // interrupted: nothing written
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && pe.Path == h.HTML {
			return &ioError{fmt.Errorf("%s: --html: %w", cmd, err)}
		}
		return &ioError{fmt.Errorf("%s: --html %s: %w", cmd, h.HTML, err)}
	}
	if pf.Quiet {
		return nil
	}
	what := h.HTML
	if st.Dir {
		what = filepath.Join(h.HTML, "index.html") + fmt.Sprintf(" (a directory of %d pages)", st.Pages)
	}
	fmt.Fprintf(ios.ErrOut, "webcap: %s: --html: wrote %s: %s, %s, in %v\n", cmd, what,
		humanize.IBytes(uint64(st.Bytes)), plural(st.Thumbnails, "thumbnail"), time.Since(start).Round(time.Millisecond))
	if st.Failed > 0 {
		fmt.Fprintf(ios.ErrOut, "webcap: %s: --html: %s could not be drawn (the report says why)\n", cmd, plural(st.Failed, "thumbnail"))
	}
	if st.Skipped > 0 {
		fmt.Fprintf(ios.ErrOut, "webcap: %s: --html: %s not drawn: the time for a file's thumbnails or the report's ran out (the report says which)\n", cmd, plural(st.Skipped, "thumbnail"))
	}
	return nil
}

// htmlFile is a file's JSON result as the report reads it.
func htmlFile(j fileJSON) htmlreport.File {
	return htmlreport.File{Result: fileResult(j), Capture: j.Capture}
}

// htmlResults are audit's results, as the report reads them.
type htmlResults []fileJSON

func (r htmlResults) Len() int                 { return len(r) }
func (r htmlResults) At(i int) htmlreport.File { return htmlFile(r[i]) }

// Head and EachFinding make htmlResults htmlreport.Streamed, as
// jsonResults is export.Streamed: a file's findings that spilled are read
// back from the spool's files as far as the report lists them.
func (r htmlResults) Head(i int) (htmlreport.File, audit.Status, []export.Count) {
	res, status, counts := jsonResults(r).Head(i)
	return htmlreport.File{Result: res, Capture: r[i].Capture}, status, counts
}

func (r htmlResults) EachFinding(i int, fn func(audit.Finding) error) error {
	return jsonResults(r).EachFinding(i, fn)
}

var _ htmlreport.Streamed = htmlResults{}

// htmlShards are report's merged shards, as the report reads them.
type htmlShards struct{ shardResults }

func (s htmlShards) At(i int) htmlreport.File { return htmlFile(s.file(i).fileJSON) }
