package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/audit/batch"
	"github.com/webcap/webcap/audit/export"
	"github.com/webcap/webcap/webcapture"
)

// The report formats of audit --format and report --format: the JSON of
// a file's result converted to the library's (audit.FileResult), and
// written by package audit/export, which decides every mapping
// (docs/formats.md).

// exportFormats are the formats audit/export writes, as --format names
// them.
func exportFormats() []string { return export.Formats() }

// fileResult is the library's view of a file's JSON result. An error's
// kind maps to a FileError's: "io" to Unavailable (operational, worth
// retrying), "interrupted" to Interrupted, any other ("invalid": the file
// is not a PDF or is hostile; "failed"; a kind a newer webcap writes) to
// Invalid, a finding about the file.
func fileResult(j fileJSON) audit.FileResult {
	r := audit.FileResult{Input: j.Input, SHA256: j.SHA256, Findings: make([]audit.Finding, 0, len(j.Findings))}
	if j.Size != nil {
		r.Size = *j.Size
	}
	if t, err := time.Parse(time.RFC3339Nano, j.Mtime); err == nil {
		r.ModTime = t
	}
	if j.Error != nil {
		kind := audit.Invalid
		switch j.Error.Kind {
		case "io":
			kind = audit.Unavailable
		case "interrupted":
			kind = audit.Interrupted
		}
		r.Error = &audit.FileError{Message: j.Error.Message, Kind: kind}
	}
	if s := j.spilled(); s != nil { // read back whole: a report of them all
		found, err := spilledFindings(s)
		if err != nil && r.Error == nil {
			r.Error = &audit.FileError{Message: err.Error(), Kind: audit.Unavailable}
		}
		r.Findings = found
		return r
	}
	for _, f := range j.Findings {
		var ref webcapture.Ref
		if f.Object != "" {
			fmt.Sscanf(f.Object, "%d %d R", &ref.Num, &ref.Gen)
		}
		r.Findings = append(r.Findings, audit.Finding{Rule: f.Rule, Severity: severityOf(f.Severity), Object: ref,
			Key: f.Key, Message: f.Message, Spec: f.Spec})
	}
	return r
}

// severityOf reads a severity's name ("error", "warning", "info").
func severityOf(name string) audit.Severity {
	switch name {
	case "error":
		return audit.Serious
	case "warning":
		return audit.Caution
	}
	return audit.Notice
}

// fileStatus is a file's verdict in JHOVE's words, as the library decides
// it.
func fileStatus(j fileJSON) string {
	status := func() audit.Status { return fileResult(j).Status() }
	if s := j.spilled(); s != nil { // decided from the summary
		status = func() audit.Status { return s.Summary.Status(fileResult(fileJSON{Error: j.Error}).Error) }
	}
	if s := status(); s != audit.Unchecked {
		return s.String()
	}
	return "" // no verdict: the error says why
}

// exportOptions are what a report says of this run.
func exportOptions() export.Options {
	host, _ := os.Hostname()
	return export.Options{Tool: "webcap", Version: buildVersion().Version, Time: time.Now(), Hostname: host}
}

// writeFormat writes files' results in format name (one of
// exportFormats).
func writeFormat(w io.Writer, name string, files export.Results) error {
	f, err := export.ParseFormat(name)
	if err != nil {
		return err
	}
	return export.Write(w, f, files, exportOptions())
}

// fileResultJSON is a file's result as a shard holds it (with its size,
// mtime and SHA-256 where audit wrote them: fileMeta).
type fileResultJSON struct {
	fileJSON
}

func (j fileResultJSON) result() audit.FileResult { return fileResult(j.fileJSON) }

// jsonResults are files' JSON results as export reads them.
type jsonResults []fileJSON

func (r jsonResults) Len() int                  { return len(r) }
func (r jsonResults) At(i int) audit.FileResult { return fileResult(r[i]) }

// Head and EachFinding make jsonResults export.Streamed: every format
// writes a file's findings a finding at a time, those that spilled read
// back from the spool's files, counted by its summary.
func (r jsonResults) Head(i int) (audit.FileResult, audit.Status, []export.Count) {
	s := r[i].spilled()
	if s == nil {
		res := fileResult(r[i])
		return res, res.Status(), export.CountsOf(res.Findings)
	}
	res := fileResult(fileJSON{Input: r[i].Input, fileMeta: r[i].fileMeta, Error: r[i].Error})
	return res, s.Summary.Status(res.Error), spoolCounts(s)
}

// spoolCounts are the counts of a spool's summary.
func spoolCounts(s *batch.Findings) []export.Count {
	out := make([]export.Count, len(s.Summary.Codes))
	for i, c := range s.Summary.Codes {
		out[i] = export.Count{Rule: c.Rule, Severity: c.Severity, N: c.Count}
	}
	return out
}

func (r jsonResults) EachFinding(i int, fn func(audit.Finding) error) error {
	if s := r[i].spilled(); s != nil {
		return s.Each(fn)
	}
	for _, f := range fileResult(r[i]).Findings {
		if err := fn(f); err != nil {
			return err
		}
	}
	return nil
}

var _ export.Streamed = jsonResults{}

// formatExit is the outcome of a run whose report went out in format
// name: the Archivematica contract says the verdict in the output and
// exits 0 whenever validation ran, so only an operational failure
// (a file that could not be read) is an error there; every other format
// keeps audit's exit status (err).
func formatExit(name string, files export.Results, err error) error {
	if name != export.Archivematica.String() {
		return err
	}
	for i := range files.Len() {
		if r, ok := files.(export.Streamed); ok {
			if res, _, _ := r.Head(i); res.Error.Operational() {
				return &ioError{errFailed}
			}
		} else if files.At(i).Error.Operational() {
			return &ioError{errFailed}
		}
	}
	return nil
}

// checkFormat checks a --format value against the formats there are
// (extra: the command's own, as text and json).
func checkFormat(cmd, name string, extra ...string) error {
	all := append(extra, exportFormats()...)
	for _, n := range all {
		if n == name {
			return nil
		}
	}
	return usagef("%s: --format %q: want one of %s", cmd, name, strings.Join(all, ", "))
}
