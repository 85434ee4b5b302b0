package cli

import (
	"bufio"
	"context"
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/audit/batch"
	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/internal/limits"
	"github.com/webcap/webcap/mirror"
	"github.com/webcap/webcap/webcapture"
)

func newAuditCmd(ios *IOStreams, runF func(context.Context, *auditOptions) error) *cobra.Command {
	opts := &auditOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "audit [flags] FILE|DIR... | --files-from LIST",
		Short: "Check the Web Capture structures of PDF files against the specification",
		Long: `Check every Web Capture structure of each file against PDF Reference 1.7
§10.9 and ISO 32000-1/-2 §14.10: the dictionaries (required keys, types,
values), the IDS and URLS name trees (order, duplicates, /Limits, cycles),
the invariants between them (IDS keys equal set IDs, every page's and
image's /ID finds its parent, no object in two sets, /R parallel to /O),
canonical URLS keys (--profile), and URLs that carry passwords. The file
itself must be well-formed: a cross-reference table the parser had to
rebuild, an offset or stream /Length that is wrong, or an object that does
not parse is an error (WC-PDF-*, with the object and byte offset; the
verdict is qpdf --check's). A certified document (DocMDP) is noted, and
Web Capture structures added after its certification are a warning. With
--sources (a wget mirror directory, a WARC file .warc or .warc.gz, or a
JSON manifest of URL: file), each content set's identifier is also
recomputed from its source data; from a WARC file, the last 200 response
archived for a URL, content coding removed, at the end of the URL's
redirect chain when the archive answered it with a redirect. A mirror's or manifest's
files are read inside its directory only: a symbolic link, a path or a
file: URL that leads outside it is refused and said in the set's
WC-SOURCE-MISSING or WC-SOURCE-INCOMPLETE note, unless --allow-outside.

Each finding is one line:
  FILE: SEVERITY RULE OBJECT [/KEY]: message (spec reference)
The first 10 findings of each rule and severity in a file are shown, then
one line for each with the count of the rest, sorted by rule:
  FILE: SEVERITY RULE: N more not shown (--verbose or --json lists every finding)
(--verbose shows every one; --json, --jsonl and --format always hold them
all). Findings come errors first, then the file's status in JHOVE's words ("FILE: Well-Formed
and valid", "Well-Formed, but not valid": an error finding, or "Not
well-formed": unreadable, or a WC-PDF-* error), and at the end a summary. Severities follow what real Acrobat files
show: an error means the structure is broken or a lookup gives a wrong or
no answer; what Acrobat itself writes (SpiderInfo /V 1.25, one-element /R
arrays, empty trees) is a warning. Every rule is listed in docs/rules.md.

--files-from LIST audits the files LIST names, one path per line (blank
lines skipped; "-": stdin), or with -0 each ended by a NUL (find
-print0), after those given as arguments. With --recursive, a directory
is walked, and the files in it and below whose names match --include
(*.pdf unless told, case ignored) are audited, in lexical order; without
it, a directory is an input that cannot be read (exit 3). --shard I/N
audits only the files whose path, as given and cleaned, hashes to I of N
(FNV-1a 64 modulo N, 0 <= I < N): N machines given the same list each
take one shard, and together take every file once (docs/scale.md).

Files are read in worker processes (--jobs of them, each auditing many
files, one at a time), each file under --timeout and each worker under
--max-memory (a hard limit: the kernel's, where there is one; by default
1 GiB): a
hostile file that makes the parser hang, crash or grow past the limit is
reported as not readable (exit 4, kind "invalid"), its worker is
replaced, and the other files go on. A worker is also replaced after --restart-after files.
Results come in input order, except those of --jsonl, which come as each
file is done unless --ordered (which orders those lines: without --jsonl
or --resume it is a usage error).

Exit status: 0 when no file has an error, 1 when one has, 4 when a file
is not a PDF, does not parse or is hostile (this wins over 1), 3 when a
file could not be read at all, as a missing one (this wins over all), 2
for a usage error.

With --json, one JSON document (schema: webcap help schema audit):
  {"schema": "webcap.audit/1",
   "files": [{"input", "error": {"message", "kind"} (only when unreadable),
              "findings": [{"rule", "severity", "message", "object", "key", "spec"}],
              "jhoveStatus"}],
   "summary": {"files", "errors", "warnings", "infos", "unreadable"}}
With --jsonl, one JSON object per file on its own line, written as each
file is done (in input order with --ordered), without the summary
(schema: webcap help schema audit-file):
  {"schema": "webcap.audit-file/1", "input", "size", "mtime", "error",
   "findings": [...], "jhoveStatus"}
"size" and "mtime" are the file's when audit came to it ("sha256" too,
with --resume-by sha256). --resume RESULTS.jsonl appends the lines to
RESULTS.jsonl (made when missing) instead of printing them, and skips the
files it already holds with the same size and mtime (or SHA-256), except
those that could not be read (kind "io"), which are tried again: a run
killed and resumed ends with a line for every file, as one that was not.
A last line cut short by the kill is dropped. The exit status is that of
all the files, those skipped included.

With --format, the report in a format preservation and CI systems read,
printed when every file is done (docs/formats.md; webcap report makes the
same from --jsonl shards): verapdf (a veraPDF-style XML report), premis
(PREMIS 3 validation events), archivematica (the output of an
Archivematica FPR validation command: the exit status is then 0 unless a
file could not be read, the verdict being in the output), sarif (SARIF
2.1.0) or junit (JUnit XML).

With --html REPORT.html, a report to look at is also written (the usual
output is still printed; send it to /dev/null if it is not wanted): a
summary (files by status in JHOVE's words, findings by rule and severity,
content sets by year of capture, files by SpiderInfo version: bar charts,
their numbers also as tables), an index of the files, and each file's
content sets (URLs with their alias redirect chains, title, capture time,
ID, whether --sources verified the ID) beside a thumbnail of each page
set's first page, and its findings, each linked to its rule's text in the
report. Up to 1,000 files it is one self-contained HTML file: nothing is
fetched when it is opened, and its Content-Security-Policy lets nothing
run (it has no script) and nothing load but its own style and images.
Beyond 1,000 files, REPORT.html is a directory of static pages (open
REPORT.html/index.html; an index of 1,000 files a page, the details of
100 files a page) that opens from disk without a server. Thumbnails are
drawn by poppler's pdftoppm when it is on PATH (else the report says "no
renderer found"), in a child process under limits (512 MiB of address
space, 10 s a page, 1 MiB of PNG), --jobs at a time, for the first 20
page sets of a file, within 30 s for the pages of a file and 10 minutes
for the report's (then the report says why the rest have none);
--thumbnails none draws none. A report already at the path is replaced
only with --force. --html keeps every result until
the end: for a very large collection, audit with --jsonl --sets in shards
and make the report with webcap report --html. --sets records each file's
content sets and SpiderInfo version in --json and --jsonl results (the
"capture" object), so that webcap report --html makes the same report
from them.`,
		Example: `  $ webcap audit capture.pdf
  $ webcap audit --profile pdf2 archive/*.pdf
  $ webcap audit --verbose damaged.pdf    # every finding, not 10 per rule
  $ webcap audit --json --jobs 4 --timeout 30s archive/*.pdf > report.json
  $ webcap audit --jsonl archive/*.pdf | jq -c 'select(.findings != [])'
  $ find archive -name '*.pdf' -print0 | webcap audit --files-from - -0
  $ webcap audit --recursive --shard 2/8 --resume shard-2.jsonl archive/
  $ webcap audit --format junit archive/*.pdf > audit-junit.xml
  $ webcap audit --html report.html archive/*.pdf > /dev/null   # open report.html in a browser
  $ webcap audit --html report.html --thumbnails none --force archive/*.pdf
  $ webcap audit --jsonl --sets --shard 1/4 --recursive archive/ > shard-1.jsonl   # for report --html
  $ webcap audit --sources site.warc.gz capture.pdf
  $ webcap audit --sources mirror/ --allow-outside capture.pdf   # follow the mirror's links out of it`,
		RunE: runner(opts, runF, inBand(bounded(runAudit)), func(args []string) error {
			opts.Files = args
			switch {
			case len(args) == 0 && opts.FilesFrom == "":
				return usagef("audit: give at least one FILE, or --files-from LIST")
			case opts.Null && opts.FilesFrom == "":
				return usagef("audit: -0 is for --files-from: the names it reads end in NUL")
			case opts.Resume != "" && opts.JSON:
				return usagef("audit: --resume writes --jsonl results: drop --json")
			case opts.ResumeBy != "stat" && opts.ResumeBy != "sha256":
				return usagef("audit: --resume-by %q: want stat or sha256", opts.ResumeBy)
			case opts.FilesFrom == "-" && opts.PasswordFile == "-":
				return usagef("audit: --files-from - and --password-file - cannot both read stdin")
			case opts.Jobs < 1:
				return usagef("audit: --jobs %d: want at least 1", opts.Jobs)
			case opts.Timeout <= 0:
				return usagef("audit: --timeout %v: want a positive duration", opts.Timeout)
			case opts.MaxMemory < minMaxMemory:
				least := byteSize(minMaxMemory)
				return usagef("audit: --max-memory %v: want at least %v", &opts.MaxMemory, &least)
			case opts.RestartAfter < 0:
				return usagef("audit: --restart-after %d: want 0 (never) or more", opts.RestartAfter)
			case opts.JSON && opts.JSONL:
				return usagef("audit: --json and --jsonl exclude each other")
			case opts.Format != "" && (opts.JSON || opts.JSONL):
				return usagef("audit: --format and --json or --jsonl exclude each other")
			case opts.Format != "" && opts.Resume != "":
				return usagef("audit: --resume writes --jsonl results: drop --format (webcap report --format makes it from them)")
			case opts.Format != "":
				if err := checkFormat("audit", opts.Format); err != nil {
					return err
				}
			case opts.HTML != "" && opts.Resume != "":
				return usagef("audit: --resume holds no report: drop --html, and make it from the results with webcap report --html REPORT.html %s", opts.Resume)
			case opts.Force && opts.HTML == "":
				return usagef("audit: --force replaces --html's report: give --html")
			}
			if err := checkOrdered("audit", opts.Ordered, opts.JSONL || opts.Resume != ""); err != nil {
				return err
			}
			if opts.HTML != "" {
				opts.Sets = true
				if err := opts.htmlFlags.check("audit", opts.Force); err != nil {
					return err
				}
			}
			if err := opts.inputFlags.check("audit"); err != nil {
				return err
			}
			return opts.progressFlags.check("audit")
		}),
	}
	addAuditFlags(cmd, opts)
	f := cmd.Flags()
	f.BoolVar(&opts.JSON, "json", false, "print one JSON document")
	f.BoolVar(&opts.JSONL, "jsonl", false, "print one JSON object per file, as each is done")
	f.BoolVarP(&opts.Verbose, "verbose", "v", false, "show every finding, not the first 10 of each rule in each file")
	f.StringVar(&opts.Format, "format", "", "print the report in `FORMAT`: "+strings.Join(exportFormats(), ", ")+" (docs/formats.md)")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(exportFormats(), cobra.ShellCompDirectiveNoFileComp))
	f.IntVar(&opts.Jobs, "jobs", runtime.NumCPU(), "files audited at once (and, with --html, thumbnails drawn at once)")
	opts.htmlFlags.add(cmd)
	f.BoolVar(&opts.Force, "force", false, "replace --html's report if it exists")
	opts.progressFlags.add(cmd)
	opts.inputFlags.add(f)
	f.BoolVar(&opts.Ordered, "ordered", false, "with --jsonl, print the results in input order, not as each file is done")
	f.StringVar(&opts.Resume, "resume", "", "append --jsonl results to `RESULTS.jsonl`, skipping the files it holds")
	f.StringVar(&opts.ResumeBy, "resume-by", "stat", "what --resume compares, a `KEY`: stat (size and mtime) or sha256")
	_ = cmd.RegisterFlagCompletionFunc("resume-by", cobra.FixedCompletions(resumeBys, cobra.ShellCompDirectiveNoFileComp))
	f.IntVar(&opts.RestartAfter, "restart-after", 1000, "replace each worker process after `N` files (0: never)")
	f.BoolVar(&opts.InProcess, "in-process", false, "audit in this process, without worker processes (no isolation)")
	_ = f.MarkHidden("in-process")
	f.Lookup("jobs").DefValue = "number of CPUs" // as help says it: the same on every machine
	return cmd
}

type auditOptions struct {
	IO      *IOStreams
	Profile *canon.Profile
	JSON    bool
	JSONL   bool   // one object per file, a line each
	Verbose bool   // every finding in the text, not the first perRule of each rule
	Format  string // a report format of audit/export (--format), printed when every file is done
	Jobs    int
	// --timeout bounds each file; --max-memory each worker (or this
	// process, with --in-process).
	limitFlags
	passwordFlags
	Sources      string // a wget mirror directory, a WARC file or a JSON manifest
	AllowOutside bool   // Sources may lead outside their directory
	Sets         bool   // record each file's content sets (htmlreport.Capture): --sets, or --html
	trustFlags          // --trust (trust.go)
	htmlFlags
	Force        bool // --html may replace what is there
	InProcess    bool // audit in this process (no worker processes): for tests and debugging
	RestartAfter int  // files a worker audits before it is replaced; 0: no limit
	inputFlags
	Ordered  bool   // --jsonl in input order
	Resume   string // the results file to resume and append to
	ResumeBy string // "stat" or "sha256"
	progressFlags
	Files []string

	sources *sourceCache // Sources opened once for the files of this process; nil: for each file
	// SpoolLimit is the findings of a file held in memory (hidden
	// --spool-limit, batch.Spool.Limit); spoolDir where those past it go.
	SpoolLimit int
	spoolDir   string
}

// loadSources reads --sources in this process, before any file, under
// the limits a file is read under (--timeout, --max-memory,
// --max-file-size), so that sources that are not valid, or hostile, fail
// the run once, named, not each file in its worker (which reads them
// again, under the same limits: auditFile).
func (opts *auditOptions) loadSources(ctx context.Context) (webcapture.AuxSource, error) {
	ctx, cancel := limits.Deadline(ctx, opts.Timeout, timeoutFlag)
	defer cancel()
	ctx, stop := limits.WatchMemory(ctx, int64(opts.MaxMemory), maxMemoryFlag)
	defer stop()
	return loadSources(ctx, "audit", "--sources", opts.Sources, opts.confined(), int64(opts.MaxFileSize))
}

// confined is where --sources may read (--allow-outside).
func (opts *auditOptions) confined() mirror.Options {
	return mirror.Options{AllowOutside: opts.AllowOutside}
}

// addAuditFlags adds the flags audit passes on to its workers, audit-worker.
func addAuditFlags(cmd *cobra.Command, opts *auditOptions) {
	addProfileFlag(cmd, &opts.Profile, canon.PDF, "canonicalization URLS keys must be in: pdf, pdf2 or rfc3986")
	f := cmd.Flags()
	opts.limitFlags.add(cmd, 60*time.Second, "time limit for each file",
		"memory limit of each worker process: a file that needs more is unreadable (`SIZE`: 500MB, 2GiB; default: 1 GiB)")
	opts.perFile = true
	opts.passwordFlags.add(cmd)
	f.BoolVar(&opts.Sets, "sets", false, "with --json or --jsonl, record each file's content sets and SpiderInfo version (what --html and report --html show)")
	f.StringVar(&opts.Sources, "sources", "", "recompute identifiers from the captured data: a wget mirror `DIR`, a WARC file or a JSON MANIFEST")
	addAllowOutsideFlag(cmd, &opts.AllowOutside)
	opts.trustFlags.add(cmd)
	f.IntVar(&opts.SpoolLimit, spoolFlag, batch.DefaultLimit, "findings of a file held in memory; past them, all are written to temporary files (-1: never)")
	_ = f.MarkHidden(spoolFlag)
}

func (o *auditOptions) bounds() (*limitFlags, string, []string) {
	// Not the run's ceiling: a worker bounds its own memory, and in this
	// process runAudit watches it once the inputs are known (a directory
	// given is the files in it, and the ceiling grows with the largest).
	o.workerMemory = true
	return &o.limitFlags, "audit", o.Files
}

// runFiles are what audit reads (the arguments, the files found in the
// directories walked, --files-from, --password-file, --sources) and
// writes (--html, --resume): the workers read the files of this list.
func (opts *auditOptions) runFiles(files []string) *runFiles {
	r := &runFiles{}
	r.output("--html", opts.HTML)
	r.output("--resume", opts.Resume)
	if len(r.out) == 0 {
		return r // nothing written: no list of a million inputs to make
	}
	r.inputs("", files, nil)
	if opts.Recursive { // the directories walked
		listed := make(map[string]bool, len(files))
		for _, f := range files {
			listed[f] = true
		}
		for _, a := range opts.Files {
			if !listed[a] {
				r.input("", a, nil)
			}
		}
	}
	r.input("--files-from", opts.FilesFrom, opts.IO)
	r.input("--password-file", opts.PasswordFile, opts.IO)
	r.source("--sources", opts.Sources)
	return r
}

func runAudit(ctx context.Context, opts *auditOptions) error {
	files, err := opts.inputs(ctx, "audit", opts.Files, opts.IO)
	if err != nil {
		return err
	}
	if err := opts.runFiles(files).check("audit"); err != nil {
		return err
	}
	opts.Files = files // none: nothing to audit, no error
	if err := opts.resolve("audit", opts.IO); err != nil {
		return err
	}
	if _, err := opts.trustFlags.load(); err != nil { // before any file, once
		return err
	}
	if opts.Sources != "" {
		src, err := opts.loadSources(ctx)
		if err != nil {
			return err
		}
		opts.sources = &sourceCache{}
		if opts.InProcess {
			opts.sources.set(src)
		}
	}
	var log *resumeLog
	if opts.Resume != "" {
		if log, err = openResume("audit", opts.Resume); err != nil {
			return err
		}
		defer log.Close()
	}
	dir, removeDir, err := newSpoolDir()
	if err != nil {
		return err
	}
	defer removeDir()
	opts.spoolDir = dir
	results := make([]fileJSON, len(opts.Files))
	prior := make([]*priorResult, len(opts.Files)) // done before, by the results --resume read
	auditor := newAuditor(opts)
	defer auditor.close()
	if auditor.pool == nil { // in this process (--in-process, or no program to run)
		var stop func()
		ctx, stop = limits.WatchMemory(ctx, int64(opts.MaxMemory), maxMemoryFlag)
		defer stop()
	}
	// prepare notes what --resume compares, and skips a file it holds.
	prepare := func(i int) bool {
		path := opts.Files[i]
		results[i].fileMeta = statMeta(path, opts.ResumeBy == "sha256")
		if log != nil {
			if prev, ok := log.match(path, &results[i].fileMeta, opts.ResumeBy == "sha256"); ok {
				prior[i] = &prev
				return true
			}
		}
		return false
	}
	auditOne := func(ctx context.Context, i int) {
		meta := results[i].fileMeta
		results[i] = auditor.audit(ctx, opts.Files[i])
		results[i].fileMeta = meta
	}
	out := opts.IO.Out
	if log != nil {
		out = log.Writer()
	}
	w := bufio.NewWriter(out)
	jsonl := opts.JSONL || log != nil
	keep := opts.JSON || opts.Format != "" // the results are printed at the end
	html := opts.HTML != ""                // the results are kept for the report
	var sum auditSummary
	var fails failures
	progress := newProgress(opts.IO, opts.progressFlags, "audit", len(opts.Files))
	// emit says result i: in input order, or (--jsonl) as it comes.
	emit := func(i int) error {
		progress.step(opts.Files[i])
		if prior[i] != nil {
			sum.add(&fails, prior[i].Tally)
			return nil
		}
		results[i].Status = fileStatus(results[i])
		r := results[i]
		sum.add(&fails, tallyOf(r))
		switch {
		case jsonl:
			progress.clear()
			var err error
			if s := r.spilled(); s != nil {
				err = writeSpilledLine(w, fileLineJSON{schemaName("audit-file"), r}, s)
			} else {
				err = writeLine(w, fileLineJSON{schemaName("audit-file"), r})
			}
			if err == nil {
				err = w.Flush()
			}
			if err != nil {
				return &ioError{fmt.Errorf("audit: writing output: %w", err)}
			}
		case !keep:
			progress.clear()
			if err := writeFileFindings(w, r, opts.Verbose, "--json"); err != nil {
				return &ioError{fmt.Errorf("audit: writing output: %w", err)}
			}
			if opts.IO.OutTTY {
				w.Flush()
			}
		}
		if !keep && !html {
			results[i].release()
			results[i] = fileJSON{} // said: not kept
		}
		return nil
	}
	runOpts := batch.RunOptions{Jobs: opts.Jobs, Unordered: jsonl && !opts.Ordered}
	if err := batch.Run(ctx, len(opts.Files), runOpts, prepare, auditOne, emit); err != nil {
		if ctx.Err() != nil {
			return stopError(ctx, "audit", "") // interrupted, or (--in-process) --max-memory passed
		}
		return err
	}
	progress.clear()
	switch {
	case opts.JSON:
		err = writeAuditReport(w, results, sum)
	case jsonl:
	case opts.Format != "":
		err = writeFormat(w, opts.Format, jsonResults(results))
	default:
		_, err = fmt.Fprintf(w, "%s audited: %s, %s, %s, %d unreadable\n", plural(sum.Files, "file"),
			plural(sum.Errors, "error"), plural(sum.Warnings, "warning"), plural(sum.Infos, "note"), sum.Unreadable)
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return &ioError{fmt.Errorf("audit: writing output: %w", err)}
	}
	if html {
		if err := opts.htmlFlags.write(ctx, "audit", opts.IO, htmlResults(results), opts.Force, opts.Jobs, opts.progressFlags); err != nil {
			return err
		}
	}
	return formatExit(opts.Format, jsonResults(results), fails.err())
}

// tally is what the summary and the exit status count of a file's result
// (batch.Tally).
type tally = batch.Tally

func tallyOf(r fileJSON) tally {
	var t tally
	if r.Error != nil {
		t.Kind = r.Error.Kind
	}
	if s := r.spilled(); s != nil {
		t.Errors, t.Warnings, t.Infos = s.Summary.Errors, s.Summary.Warnings, s.Summary.Infos
		return t
	}
	for _, f := range r.Findings {
		t.Count(f.Severity)
	}
	return t
}

// add counts a file in the summary, and its failure, if any, in fails: an
// unreadable file by its kind, a file with an error finding as failed.
func (s *auditSummary) add(fails *failures, t tally) {
	s.Files++
	s.Errors += t.Errors
	s.Warnings += t.Warnings
	s.Infos += t.Infos
	if t.Kind != "" {
		s.Unreadable++
		fails.addKind(t.Kind)
	}
	if t.Errors > 0 {
		fails.failed++
	}
}

func writeFileFindings(w *bufio.Writer, r fileJSON, verbose bool, jsonFlag string) error {
	if s := r.spilled(); s != nil {
		return writeSpilledText(w, r, s, verbose, jsonFlag)
	}
	name := displayInput(r.Input)
	if r.Error != nil {
		fmt.Fprintf(w, "%s: unreadable: %s\n", name, r.Error.Message)
	}
	limit := newRuleLimit(verbose)
	for _, f := range r.Findings {
		if limit.show(f.Severity + " " + f.Rule) {
			writeFindingLine(w, name, f)
		}
	}
	limit.eachHidden(func(rule string, n int) {
		fmt.Fprintf(w, "%s: %s: %s\n", name, rule, notShown(n, "finding", jsonFlag))
	})
	if status := fileStatus(r); status != "" {
		fmt.Fprintf(w, "%s: %s\n", name, status)
	}
	return nil
}

// writeAuditReport writes audit --json's document: at once, or when a
// file's findings spilled, a file at a time (as report --format json).
func writeAuditReport(w *bufio.Writer, results []fileJSON, sum auditSummary) error {
	spilled := false
	for i := range results {
		spilled = spilled || results[i].spilled() != nil
	}
	if !spilled {
		return writeLine(w, auditReport{Schema: schemaName("audit"), Files: results, Summary: sum})
	}
	fmt.Fprintf(w, `{"schema":%q,"files":[`, schemaName("audit"))
	for i, r := range results {
		if i > 0 {
			w.WriteByte(',')
		}
		if err := writeFileJSON(w, r); err != nil {
			return err
		}
	}
	b, err := marshal(sum)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, `],"summary":%s}`+"\n", b)
	return err
}

// writeFileJSON writes a file's result as a JSON object (no newline).
func writeFileJSON(w *bufio.Writer, r fileJSON) error {
	if s := r.spilled(); s != nil {
		return writeSpilled(w, r, s)
	}
	b, err := marshal(r)
	if err == nil {
		_, err = w.Write(b)
	}
	return err
}
