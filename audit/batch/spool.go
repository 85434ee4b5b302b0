package batch

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/webcapture"
)

// DefaultLimit is the number of findings a Spool holds in memory when
// Spool.Limit is 0: some MB, more than any file of the real corpus has.
const DefaultLimit = 20000

// A Spool takes one file's findings as they are found, in bounded memory
// (see the package's doc). The zero value holds DefaultLimit findings in
// memory, spills past it to files in os.TempDir(), and keeps no finding
// in its Summary's First.
type Spool struct {
	Dir   string // where the files of a spilled spool go, made when missing; "": os.TempDir()
	Limit int    // findings held in memory before spilling; 0: DefaultLimit; < 0: never spill
	First int    // the findings of each rule and severity the Summary keeps

	held  []audit.Finding
	files []*spoolFile // by severity, errors first; nil until spilled
	sum   Summary
	codes map[code]int // index in sum.Codes
	err   error
}

// code is what findings are counted by: a rule at a severity.
type code struct {
	sev  audit.Severity
	rule string
}

type spoolFile struct {
	f *os.File
	w *bufio.Writer
}

// severities are the severities, in the order findings are read back.
var severities = []audit.Severity{audit.Serious, audit.Caution, audit.Notice}

// Add takes a finding. The first error writing a spilled finding is
// returned, then by every later Add and by Close.
func (s *Spool) Add(f audit.Finding) error {
	if s.err != nil {
		return s.err
	}
	s.count(f)
	limit := s.Limit
	if limit == 0 {
		limit = DefaultLimit
	}
	if s.files == nil && (limit < 0 || len(s.held) < limit) {
		s.held = append(s.held, f)
		return nil
	}
	if s.files == nil {
		if s.err = s.spill(); s.err != nil {
			return s.err
		}
	}
	s.err = s.write(f)
	return s.err
}

// count adds f to the summary.
func (s *Spool) count(f audit.Finding) {
	switch f.Severity {
	case audit.Serious:
		s.sum.Errors++
		s.sum.Syntax = s.sum.Syntax || audit.IsSyntaxRule(f.Rule)
	case audit.Caution:
		s.sum.Warnings++
	default:
		s.sum.Infos++
	}
	if s.codes == nil {
		s.codes = map[code]int{}
	}
	c := code{f.Severity, f.Rule}
	i, ok := s.codes[c]
	if !ok {
		i = len(s.sum.Codes)
		s.codes[c] = i
		s.sum.Codes = append(s.sum.Codes, Code{Rule: f.Rule, Severity: f.Severity})
	}
	s.sum.Codes[i].Count++
	if s.sum.Codes[i].Count <= s.First {
		s.sum.First = append(s.sum.First, f)
	}
}

// spill starts the files, and writes the findings held to them.
func (s *Spool) spill() error {
	dir := s.Dir
	if dir == "" {
		dir = os.TempDir()
	} else if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("batch: spooling findings: %w", err)
	}
	s.files = make([]*spoolFile, len(severities))
	for i := range severities {
		f, err := os.CreateTemp(dir, "findings-*.jsonl")
		if err != nil {
			return fmt.Errorf("batch: spooling findings: %w", err)
		}
		s.files[i] = &spoolFile{f: f, w: bufio.NewWriterSize(f, 1<<16)}
	}
	for _, f := range s.held {
		if err := s.write(f); err != nil {
			return err
		}
	}
	s.held = nil
	return nil
}

// write writes f to its severity's file.
func (s *Spool) write(f audit.Finding) error {
	i := sevIndex(f.Severity)
	b, err := json.Marshal(record{f.Rule, f.Severity, f.Object.Num, f.Object.Gen, f.Key, f.Message, f.Spec})
	if err != nil {
		return fmt.Errorf("batch: spooling findings: %w", err)
	}
	w := s.files[i].w
	w.Write(b)
	if err := w.WriteByte('\n'); err != nil {
		return fmt.Errorf("batch: spooling findings: %w", err)
	}
	return nil
}

func sevIndex(sev audit.Severity) int {
	for i, s := range severities {
		if s == sev {
			return i
		}
	}
	return len(severities) - 1
}

// record is a finding as a spool file holds it, a line each.
type record struct {
	Rule     string         `json:"r"`
	Severity audit.Severity `json:"s"`
	Num      int            `json:"n,omitempty"`
	Gen      int            `json:"g,omitempty"`
	Key      string         `json:"k,omitempty"`
	Message  string         `json:"m"`
	Spec     string         `json:"p"`
}

// Close ends the spool: the findings, in memory (errors first, each
// severity in the order found, as audit.Check gives them) or in files that
// the caller removes (Findings.Remove), also on an error.
func (s *Spool) Close() (*Findings, error) {
	out := &Findings{Summary: s.sum}
	if s.files == nil {
		sort.SliceStable(s.held, func(i, j int) bool { return s.held[i].Severity > s.held[j].Severity })
		out.Held = s.held
		s.held = nil
		return out, s.err
	}
	err := s.err
	for _, f := range s.files {
		if f == nil {
			continue
		}
		out.Files = append(out.Files, f.f.Name())
		if werr := f.w.Flush(); err == nil && werr != nil {
			err = fmt.Errorf("batch: spooling findings: %w", werr)
		}
		if cerr := f.f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("batch: spooling findings: %w", cerr)
		}
	}
	return out, err
}

// A Summary is what a file's findings count for, of bounded size.
type Summary struct {
	Errors   int  `json:"errors"`
	Warnings int  `json:"warnings"`
	Infos    int  `json:"infos"`
	Syntax   bool `json:"syntax,omitempty"` // an error finding is of a WC-PDF-* rule
	// Codes are the rules found at each severity, in the order each was
	// first found, with their counts.
	Codes []Code `json:"codes,omitempty"`
	// First are the first Spool.First findings of each code, in the order
	// found.
	First []audit.Finding `json:"first,omitempty"`
}

// A Code is a rule found at a severity, and how many times.
type Code struct {
	Rule     string         `json:"rule"`
	Severity audit.Severity `json:"severity"`
	Count    int            `json:"count"`
}

// Status is the verdict on a file with these findings (audit.FileResult's
// Status), err the error that stopped its audit, if any.
func (s Summary) Status(err *audit.FileError) audit.Status {
	switch {
	case err.Operational():
		return audit.Unchecked
	case err != nil, s.Syntax:
		return audit.NotWellFormed
	case s.Errors > 0:
		return audit.NotValid
	}
	return audit.Valid
}

// Findings are one file's findings: held in memory, or in files (a spool
// that spilled).
type Findings struct {
	Summary Summary         `json:"summary"`
	Held    []audit.Finding `json:"held,omitempty"`  // the findings, errors first, when none spilled
	Files   []string        `json:"files,omitempty"` // the files holding them, read in this order
}

// Spilled reports whether the findings are in files.
func (f *Findings) Spilled() bool { return f != nil && len(f.Files) > 0 }

// Len is the number of findings.
func (f *Findings) Len() int { return f.Summary.Errors + f.Summary.Warnings + f.Summary.Infos }

// Each calls fn with each finding, errors first, each severity in the
// order found, reading the files of a spilled spool a line at a time. It
// stops at fn's first error, and returns it.
func (f *Findings) Each(fn func(audit.Finding) error) error {
	for _, h := range f.Held {
		if err := fn(h); err != nil {
			return err
		}
	}
	for _, name := range f.Files {
		if err := eachIn(name, fn); err != nil {
			return err
		}
	}
	return nil
}

func eachIn(name string, fn func(audit.Finding) error) error {
	file, err := os.Open(name)
	if err != nil {
		return fmt.Errorf("batch: reading spooled findings: %w", err)
	}
	defer file.Close()
	r := bufio.NewReaderSize(file, 1<<16)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			var rec record
			if jerr := json.Unmarshal(line, &rec); jerr != nil {
				return fmt.Errorf("batch: reading spooled findings: %s: %w", name, jerr)
			}
			f := audit.Finding{Rule: rec.Rule, Severity: rec.Severity, Object: webcapture.Ref{Num: rec.Num, Gen: rec.Gen},
				Key: rec.Key, Message: rec.Message, Spec: rec.Spec}
			if ferr := fn(f); ferr != nil {
				return ferr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("batch: reading spooled findings: %w", err)
		}
	}
}

// Remove removes the files of a spilled spool (none: nil).
func (f *Findings) Remove() error {
	if f == nil {
		return nil
	}
	var first error
	for _, name := range f.Files {
		if err := os.Remove(name); err != nil && first == nil && !errors.Is(err, os.ErrNotExist) {
			first = err
		}
	}
	f.Files = nil
	return first
}
