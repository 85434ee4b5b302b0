package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/audit/export"
	"github.com/webcap/webcap/pdfio"
)

func newReportCmd(ios *IOStreams, runF func(context.Context, *reportOptions) error) *cobra.Command {
	opts := &reportOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "report [flags] SHARD.jsonl...",
		Short: "Merge audit --jsonl shards into one report, in any report format",
		Long: `Merge any number of audit --jsonl outputs (shards: one object per file,
schema webcap.audit-file/1; "-": stdin) into one report, as if one audit
had read every file:

  text           the report audit prints (each finding, the first 10
                 of each rule in a file unless --verbose, each file's
                 status in JHOVE's words, the summary), then the findings
                 counted by rule and severity (the default)
  json           audit --json's document (webcap help schema audit)
  jsonl          the merged lines, as audit --jsonl prints them
  verapdf        a veraPDF-style machine-readable report (XML)
  premis         PREMIS 3 validation events, one per file (XML)
  archivematica  an Archivematica FPR validation command's output, a line
                 per file
  sarif          SARIF 2.1.0
  junit          JUnit XML (valid under the Ant and the Jenkins xUnit
                 schemas)
docs/formats.md documents each mapping.

Files keep the order of the shards, then of their lines. A file in more
than one shard (or twice in one: a resumed run) is reported once, with
its last result, in the place of its first; the count of such files is
said on stderr. A shard's last line that is cut short (a run killed while
it wrote) is skipped and said on stderr; any other line that is not an
audit-file object, or that is longer than 256 MiB, is an error (exit 4).
Stdin is read within --max-file-size, as a shard named is. A shard's
lines are held one at a time, a line's findings decoded whole: some six
times the line (a line of 1,000,000 findings, 149 MB, in 0.9 GB; the
longest, 256 MiB, in about 1.8 GB).

Exit status: as audit's for the same files (0: no error finding; 1: a
file has one; 3: a file or a shard could not be read; 4: a shard that
is not audit --jsonl's, or over a limit); with --format
archivematica, 0 unless a file could not be read for an operational
reason, since the verdict is in the output.

With --html REPORT.html, the HTML report audit --html writes (webcap
audit --help says what it shows) is also written, made from the merged
shards: the same files give the same report. Each file's content sets
show when its line was written with audit --sets (or --html); thumbnails
are drawn from the files at the paths the shards name, when they are
there, --jobs at a time (--thumbnails none: none). Beyond 1,000 files
REPORT.html is a directory of pages (open REPORT.html/index.html). A
report already there is replaced only with --force.`,
		Example: `  # Four machines audit a shard each; one report of them all
  $ webcap audit --jsonl archive/*.pdf > shard1.jsonl
  $ webcap report shard*.jsonl
  $ webcap report --format junit -o audit-junit.xml shard*.jsonl
  $ cat shard*.jsonl | webcap report --format sarif - > audit.sarif
  # The HTML report of a million files from shards made with --sets
  $ webcap audit --jsonl --sets --recursive --shard 1/4 archive/ > shard1.jsonl
  $ webcap report --html report.html shard*.jsonl > /dev/null   # open report.html/index.html`,
		RunE: runner(opts, runF, runReport, func(args []string) error {
			opts.Shards = args
			if len(args) == 0 {
				return usagef("report: give at least one SHARD.jsonl (-: stdin)")
			}
			n := 0
			for _, a := range args {
				if a == "-" {
					n++
				}
			}
			if n > 1 {
				return usagef("report: - (stdin) given %d times", n)
			}
			if opts.Jobs < 1 {
				return usagef("report: --jobs %d: want at least 1", opts.Jobs)
			}
			if err := opts.htmlFlags.check("report", opts.Force); err != nil {
				return err
			}
			return checkFormat("report", opts.Format, "text", "json", "jsonl")
		}),
	}
	f := cmd.Flags()
	f.StringVar(&opts.Format, "format", "text", "the report's `FORMAT`: text, json, jsonl, "+strings.Join(exportFormats(), ", "))
	f.StringVarP(&opts.Out, "output", "o", "", "write the report to `FILE` (\"-\": stdout, the default)")
	f.BoolVar(&opts.Force, "force", false, "replace -o's file, and --html's report, if they exist")
	opts.htmlFlags.add(cmd)
	f.IntVar(&opts.Jobs, "jobs", runtime.NumCPU(), "with --html, thumbnails drawn at once")
	f.Lookup("jobs").DefValue = "number of CPUs"
	f.BoolVarP(&opts.Verbose, "verbose", "v", false, "with --format text, show every finding, not the first 10 of each rule in each file")
	opts.lim.addMaxFileSize(cmd)
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(
		append([]string{"text", "json", "jsonl"}, exportFormats()...), cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

type reportOptions struct {
	IO      *IOStreams
	Format  string
	Out     string // "" or "-": stdout
	Force   bool
	Verbose bool       // every finding in the text, not the first perRule of each rule
	lim     limitFlags // --max-file-size of each shard
	htmlFlags
	Jobs   int // thumbnails drawn at once
	Shards []string
}

func runReport(ctx context.Context, opts *reportOptions) error {
	r := &runFiles{}
	r.inputs("", opts.Shards, opts.IO)
	r.output("-o", opts.Out)
	r.output("--html", opts.HTML)
	if err := r.check("report"); err != nil {
		return err
	}
	if err := opts.checkOutput(); err != nil {
		return err
	}
	set := &shardSet{cur: -1}
	defer set.close()
	var all []shardLine
	for _, shard := range opts.Shards {
		lines, err := set.read(ctx, shard, opts.IO, int64(opts.lim.MaxFileSize))
		if err != nil {
			return err
		}
		all = append(all, lines...)
	}
	files, dups := set.merge(all)
	if dups > 0 {
		fmt.Fprintf(opts.IO.ErrOut, "webcap: report: %s came more than once: the last result of each is kept\n", plural(dups, "file"))
	}
	var sum auditSummary
	var fails failures
	for _, l := range files.lines {
		sum.add(&fails, l.Tally)
	}
	var out io.Writer = opts.IO.Out
	file, err := opts.createOutput()
	if err != nil {
		return err
	}
	if file != nil {
		defer file.Close() // nothing left unless committed
		out = file
	}
	w := bufio.NewWriterSize(out, 1<<16)
	err = writeReport(w, opts.Format, files, sum, opts.Verbose)
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return &ioError{fmt.Errorf("report: writing output: %w", err)}
	}
	if set.err != nil {
		return &ioError{fmt.Errorf("report: %w", set.err)}
	}
	if file != nil {
		if err := file.Commit(); err != nil {
			return &ioError{fmt.Errorf("report: %w", err)}
		}
	}
	if opts.HTML != "" {
		if err := opts.htmlFlags.write(ctx, "report", opts.IO, htmlShards{files}, opts.Force, opts.Jobs, progressFlags{Progress: progressAuto}); err != nil {
			return err
		}
		if set.err != nil {
			return &ioError{fmt.Errorf("report: %w", set.err)}
		}
	}
	return formatExit(opts.Format, files, fails.err())
}

// toFile reports whether -o names a file.
func (opts *reportOptions) toFile() bool { return opts.Out != "" && opts.Out != stdoutName }

// checkOutput checks -o before any shard is read, as every command
// checks the file it writes (checkOutput).
func (opts *reportOptions) checkOutput() error {
	if !opts.toFile() {
		return nil
	}
	return checkOutput("report", "-o", opts.Out, opts.Force)
}

// createOutput starts the file the report is written to, when -o names
// one (pdfio.CreateOutput: a temporary file beside it, renamed over it
// when complete), so that a report of a million files is not held in
// memory and a failed run leaves the old file as it was. It is nil for
// stdout.
func (opts *reportOptions) createOutput() (*pdfio.Output, error) {
	if !opts.toFile() {
		return nil, nil
	}
	f, err := pdfio.CreateOutput(opts.Out, pdfio.WriteOptions{Replace: opts.Force})
	return f, outputError("report", "-o", opts.Out, err)
}

// writeReport writes the merged files in format name, a file at a time.
func writeReport(w *bufio.Writer, name string, files shardResults, sum auditSummary, verbose bool) error {
	switch name {
	case "text":
		for i := range files.Len() {
			if err := writeFileFindings(w, files.file(i).fileJSON, verbose, "--format json"); err != nil {
				return err
			}
		}
		fmt.Fprintf(w, "%s audited: %s, %s, %s, %d unreadable\n", plural(sum.Files, "file"),
			plural(sum.Errors, "error"), plural(sum.Warnings, "warning"), plural(sum.Infos, "note"), sum.Unreadable)
		return writeTally(w, files)
	case "json":
		// audit --json's document, byte for byte, written a file at a time.
		fmt.Fprintf(w, `{"schema":%q,"files":[`, schemaName("audit"))
		for i := range files.Len() {
			if i > 0 {
				w.WriteByte(',')
			}
			b, err := marshal(files.file(i).fileJSON)
			if err != nil {
				return err
			}
			w.Write(b)
		}
		b, err := marshal(sum)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, `],"summary":%s}`+"\n", b)
		return err
	case "jsonl":
		for i := range files.Len() {
			if err := writeLine(w, fileLineJSON{schemaName("audit-file"), files.file(i).fileJSON}); err != nil {
				return err
			}
		}
		return nil
	}
	return writeFormat(w, name, files)
}

// writeTally writes the findings counted by rule and severity, most
// severe first.
func writeTally(w io.Writer, files export.Results) error {
	tally := export.Tally(files)
	if len(tally) == 0 {
		return nil
	}
	fmt.Fprintln(w, "By rule and severity:")
	for _, c := range tally {
		fmt.Fprintf(w, "  %-7s  %-24s  %s in %s\n", c.Severity, c.Rule, plural(c.Findings, "finding"), plural(c.Files, "file"))
	}
	return nil
}
