package cli

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/audit/batch"
)

// A file's findings in bounded memory: audit gives them to a batch.Spool
// as they are found, which holds them in memory up to --spool-limit
// (hidden; batch.DefaultLimit) and past it writes them to files in the
// run's spool directory. A spilled result (fileJSON.spooled) carries no
// findings but the spool's summary (the counts of each rule at each
// severity, the first perRule of each, which are all the text shows) and
// the files' names: a worker hands these to audit, which writes the
// findings from the files, a line at a time, in every output that holds
// them: --verbose, --jsonl, --json, every --format (jsonResults is
// export.Streamed: a format's counts come from the summary) and --html
// (htmlResults is htmlreport.Streamed: it reads as far as it lists). So a
// file of two million findings costs the memory of its document, not of
// its findings. Output is byte for byte what it was.

// spoolFlag is the hidden flag of audit and audit-worker that sets the
// findings a file holds in memory.
const spoolFlag = "spool-limit"

// workerAnswer is audit-worker's answer: a line of audit --jsonl, and
// when the file's findings spilled, the spool that holds them.
type workerAnswer struct {
	fileLineJSON
	Spool *batch.Findings `json:"spool,omitempty"`
}

// findingJSONOf is a finding as the JSON outputs write it.
func findingJSONOf(f audit.Finding) findingJSON {
	fj := findingJSON{Rule: f.Rule, Severity: f.Severity.String(), Message: f.Message, Key: f.Key, Spec: f.Spec}
	if !f.Object.IsZero() {
		fj.Object = f.Object.String()
	}
	return fj
}

// spilled is r's spilled findings, or nil when r holds them.
func (r *fileJSON) spilled() *batch.Findings {
	if r.spooled.Spilled() {
		return r.spooled
	}
	return nil
}

// release removes the files of r's spilled findings.
func (r *fileJSON) release() {
	if s := r.spilled(); s != nil {
		s.Remove()
	}
}

// spilledFindings reads r's spilled findings back, whole: a result's
// At, which the outputs do not call for a spilled one (they are
// Streamed).
func spilledFindings(s *batch.Findings) ([]audit.Finding, error) {
	out := make([]audit.Finding, 0, s.Len())
	err := s.Each(func(f audit.Finding) error {
		out = append(out, f)
		return nil
	})
	return out, err
}

// writeSpilledLine writes v, whose findings are in s, as writeLine would
// with them all, a finding at a time.
func writeSpilledLine(w *bufio.Writer, v any, s *batch.Findings) error {
	if err := writeSpilled(w, v, s); err != nil {
		return err
	}
	return w.WriteByte('\n')
}

// writeSpilled writes v, whose findings are in s, as marshal would with
// them all, a finding at a time.
func writeSpilled(w *bufio.Writer, v any, s *batch.Findings) error {
	b, err := marshal(v)
	if err != nil {
		return err
	}
	// "findings":[] is the first such bytes: in a JSON string every quote
	// is escaped, so that the input's name or an error cannot hold them.
	at := []byte(`"findings":[]`)
	i := bytes.Index(b, at)
	if i < 0 {
		return errors.New("audit: a result without its findings")
	}
	w.Write(b[:i+len(at)-1])
	// One encoder for them all (marshal's, without its newline).
	var fb bytes.Buffer
	enc := json.NewEncoder(&fb)
	enc.SetEscapeHTML(false)
	n := 0
	err = s.Each(func(f audit.Finding) error {
		if n > 0 {
			w.WriteByte(',')
		}
		n++
		fb.Reset()
		if err := enc.Encode(findingJSONOf(f)); err != nil {
			return err
		}
		_, err := w.Write(bytes.TrimSuffix(fb.Bytes(), []byte("\n")))
		return err
	})
	if err != nil {
		return err
	}
	_, err = w.Write(b[i+len(at)-1:])
	return err
}

// writeSpilledText writes the text of r, whose findings are in s, as
// writeFileFindings would with them all: every finding read back with
// verbose, else the summary's first perRule of each rule and the counts.
func writeSpilledText(w *bufio.Writer, r fileJSON, s *batch.Findings, verbose bool, jsonFlag string) error {
	name := displayInput(r.Input)
	if r.Error != nil {
		fmt.Fprintf(w, "%s: unreadable: %s\n", name, r.Error.Message)
	}
	limit := newRuleLimit(verbose)
	line := func(f audit.Finding) error {
		if limit.show(f.Severity.String() + " " + f.Rule) {
			writeFindingLine(w, name, findingJSONOf(f))
		}
		return nil
	}
	if verbose {
		if err := s.Each(line); err != nil {
			return err
		}
	} else {
		first := sortedFirst(s.Summary.First)
		for _, f := range first {
			line(f)
		}
		for _, c := range s.Summary.Codes {
			if c.Count > perRule {
				limit.hidden[c.Severity.String()+" "+c.Rule] += c.Count - perRule
			}
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

// sortedFirst is first, errors first, each severity in the order found.
func sortedFirst(first []audit.Finding) []audit.Finding {
	var out []audit.Finding
	for _, sev := range []audit.Severity{audit.Serious, audit.Caution, audit.Notice} {
		for _, f := range first {
			if f.Severity == sev {
				out = append(out, f)
			}
		}
	}
	return out
}

// writeFindingLine writes a finding's line of text.
func writeFindingLine(w *bufio.Writer, name string, f findingJSON) {
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

// newSpoolDir names the directory of a run's spilled findings, made by
// the first file that spills (batch.Spool), so that a run of none writes
// nothing there, and removed when the run ends. The name is random: no
// one can make it first.
func newSpoolDir() (string, func(), error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", func() {}, &ioError{fmt.Errorf("audit: a directory for findings: %w", err)}
	}
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("webcap-audit-%d-%x", os.Getpid(), b))
	return dir, func() { os.RemoveAll(dir) }, nil
}
