package cli

import (
	"bufio"
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/canon"
)

func newAuditCmd(ios *IOStreams, runF func(context.Context, *auditOptions) error) *cobra.Command {
	opts := &auditOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "audit [flags] FILE... | --files-from LIST",
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
--sources (a wget mirror directory or a JSON manifest of URL: file), each
content set's identifier is also recomputed from its source data.

Each finding is one line:
  FILE: SEVERITY RULE OBJECT [/KEY]: message (spec reference)
errors first, then the file's status in JHOVE's words ("FILE: Well-Formed
and valid", "Well-Formed, but not valid": an error finding, or "Not
well-formed": unreadable, or a WC-PDF-* error), and at the end a summary. Severities follow what real Acrobat files
show: an error means the structure is broken or a lookup gives a wrong or
no answer; what Acrobat itself writes (SpiderInfo /V 1.25, one-element /R
arrays, empty trees) is a warning. Every rule is listed in docs/rules.md.

--files-from LIST audits the files LIST names, one path per line (blank
lines skipped; "-": stdin), after those given as arguments.

Files are read in worker processes (--jobs of them, each auditing many
files, one at a time), each file under --timeout and each worker under
--max-memory (a hard limit: the kernel's, where there is one): a hostile
file that makes the parser hang, crash or grow past the limit is reported
as unreadable, its worker is replaced, and the other files go on. A
worker is also replaced after --restart-after files. Results come in
input order.

Exit status: 0 when no file has an error, 1 when one has, 3 when a file
could not be read at all (this wins), 2 for a usage error.

With --json, one JSON document (schema: webcap help schema audit):
  {"schema": "webcap.audit/1",
   "files": [{"input", "error": {"message", "kind"} (only when unreadable),
              "findings": [{"rule", "severity", "message", "object", "key", "spec"}],
              "jhoveStatus"}],
   "summary": {"files", "errors", "warnings", "infos", "unreadable"}}
With --jsonl, one JSON object per file on its own line, written as each
file is done (in input order), without the summary (schema: webcap help
schema audit-file):
  {"schema": "webcap.audit-file/1", "input", "error", "findings": [...], "jhoveStatus"}

With --format, the report in a format preservation and CI systems read,
printed when every file is done (docs/formats.md; webcap report makes the
same from --jsonl shards): verapdf (a veraPDF-style XML report), premis
(PREMIS 3 validation events), archivematica (the output of an
Archivematica FPR validation command: the exit status is then 0 unless a
file could not be read, the verdict being in the output), sarif (SARIF
2.1.0) or junit (JUnit XML).`,
		Example: `  $ webcap audit capture.pdf
  $ webcap audit --profile pdf2 archive/*.pdf
  $ webcap audit --json --jobs 4 --timeout 30s archive/*.pdf > report.json
  $ webcap audit --jsonl archive/*.pdf | jq -c 'select(.findings != [])'
  $ find archive -name '*.pdf' | webcap audit --files-from -
  $ webcap audit --format junit archive/*.pdf > audit-junit.xml`,
		RunE: runner(opts, runF, inBand(runAudit), func(args []string) error {
			opts.Files = args
			switch {
			case len(args) == 0 && opts.FilesFrom == "":
				return usagef("audit: give at least one FILE, or --files-from LIST")
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
			case opts.Format != "":
				if err := checkFormat("audit", opts.Format); err != nil {
					return err
				}
			}
			return opts.progressFlags.check("audit")
		}),
	}
	addAuditFlags(cmd, opts)
	f := cmd.Flags()
	f.BoolVar(&opts.JSON, "json", false, "print one JSON document")
	f.BoolVar(&opts.JSONL, "jsonl", false, "print one JSON object per file, as each is done")
	f.StringVar(&opts.Format, "format", "", "print the report in `FORMAT`: "+strings.Join(exportFormats(), ", ")+" (docs/formats.md)")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(exportFormats(), cobra.ShellCompDirectiveNoFileComp))
	f.IntVar(&opts.Jobs, "jobs", runtime.NumCPU(), "files audited at once")
	opts.progressFlags.add(cmd)
	f.StringVar(&opts.FilesFrom, "files-from", "", "audit the files `LIST` names, one per line (-: stdin)")
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
	Format  string // a report format of audit/export (--format), printed when every file is done
	Jobs    int
	Timeout time.Duration
	passwordFlags
	Sources      string   // a wget mirror directory or a JSON manifest
	MaxMemory    byteSize // a worker's memory limit
	InProcess    bool     // audit in this process (no worker processes): for tests and debugging
	RestartAfter int      // files a worker audits before it is replaced; 0: no limit
	FilesFrom    string   // a file naming files, one per line; "-": stdin
	progressFlags
	Files []string
}

// addAuditFlags adds the flags audit passes on to its workers, audit-worker.
func addAuditFlags(cmd *cobra.Command, opts *auditOptions) {
	addProfileFlag(cmd, &opts.Profile, canon.PDF, "canonicalization URLS keys must be in: pdf, pdf2 or rfc3986")
	f := cmd.Flags()
	f.DurationVar(&opts.Timeout, "timeout", 60*time.Second, "time limit for each file")
	opts.MaxMemory = defaultMaxMemory
	f.Var(&opts.MaxMemory, "max-memory", "memory limit of each worker process: a file that needs more is unreadable (`SIZE`: 500MB, 2GiB)")
	opts.passwordFlags.add(cmd)
	f.StringVar(&opts.Sources, "sources", "", "recompute identifiers from the captured data: a wget mirror `DIR` or a JSON MANIFEST")
}

// defaultMaxMemory is --max-memory's default: a PDF reader that needs more
// than this for one file is under attack (reading the 20,000-page file of
// bench/ takes ~100 MiB).
const defaultMaxMemory = 1 << 30

// minMaxMemory is the least --max-memory: what a worker's threads and
// runtime need (at 8 MiB it cannot start its threads).
const minMaxMemory = 64 << 20

func runAudit(ctx context.Context, opts *auditOptions) error {
	if opts.FilesFrom != "" {
		files, err := readList(ctx, opts.FilesFrom, opts.IO)
		if err := checkInterrupt(ctx); err != nil {
			return err
		}
		if err != nil {
			return &ioError{fmt.Errorf("audit: --files-from %s: %w", opts.FilesFrom, err)}
		}
		opts.Files = append(opts.Files, files...) // none: nothing to audit, no error
	}
	if err := opts.resolve("audit", opts.IO); err != nil {
		return err
	}
	if opts.Sources != "" {
		if _, err := loadSources("audit", "--sources", opts.Sources); err != nil {
			return err
		}
	}
	results := make([]fileJSON, len(opts.Files))
	done := make([]chan struct{}, len(opts.Files))
	for i := range done {
		done[i] = make(chan struct{})
	}
	jobs := make(chan int)
	auditor := newAuditor(opts)
	defer auditor.close()
	var wg sync.WaitGroup
	for range min(opts.Jobs, len(opts.Files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				results[i] = auditor.audit(ctx, opts.Files[i])
				close(done[i])
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range opts.Files {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	w := bufio.NewWriter(opts.IO.Out)
	var sum auditSummary
	progress := newProgress(opts.IO, opts.progressFlags, "audit", len(opts.Files))
	for i := range opts.Files {
		select {
		case <-done[i]:
		case <-ctx.Done():
		}
		if ctx.Err() != nil { // a file cut short is not a result
			wg.Wait()
			return ctx.Err()
		}
		progress.step(opts.Files[i])
		results[i].Status = fileStatus(results[i])
		r := results[i]
		count(&sum, r)
		if opts.JSONL {
			progress.clear()
			err := writeLine(w, fileLineJSON{schemaName("audit-file"), r})
			if err == nil {
				err = w.Flush()
			}
			if err != nil {
				return &ioError{fmt.Errorf("audit: writing output: %w", err)}
			}
		} else if !opts.JSON && opts.Format == "" {
			progress.clear()
			if err := writeFileFindings(w, r); err != nil {
				return &ioError{fmt.Errorf("audit: writing output: %w", err)}
			}
			if opts.IO.OutTTY {
				w.Flush()
			}
		}
	}
	wg.Wait()
	progress.clear()
	var err error
	switch {
	case opts.JSON:
		err = writeLine(w, auditReport{Schema: schemaName("audit"), Files: results, Summary: sum})
	case opts.JSONL:
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
	return formatExit(opts.Format, jsonResults(results), auditExit(sum))
}

// auditExit is audit's outcome from its summary.
func auditExit(sum auditSummary) error {
	switch {
	case sum.Unreadable > 0:
		return &ioError{errFailed}
	case sum.Errors > 0:
		return errFailed
	}
	return nil
}

func count(s *auditSummary, r fileJSON) {
	s.Files++
	if r.Error != nil {
		s.Unreadable++
	}
	for _, f := range r.Findings {
		switch f.Severity {
		case "error":
			s.Errors++
		case "warning":
			s.Warnings++
		default:
			s.Infos++
		}
	}
}

func writeFileFindings(w *bufio.Writer, r fileJSON) error {
	name := displayInput(r.Input)
	if r.Error != nil {
		fmt.Fprintf(w, "%s: unreadable: %s\n", name, r.Error.Message)
	}
	for _, f := range r.Findings {
		where := f.Object
		if where == "" {
			where = "file"
		} else {
			where = "object " + strings.TrimSuffix(where, " R") + " R"
		}
		if f.Key != "" {
			where += " " + f.Key
		}
		fmt.Fprintf(w, "%s: %s %s %s: %s (%s)\n", name, f.Severity, f.Rule, where, f.Message, f.Spec)
	}
	fmt.Fprintf(w, "%s: %s\n", name, fileStatus(r))
	return nil
}
