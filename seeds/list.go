package seeds

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/capture"
	"github.com/webcap/webcap/shard"
	"github.com/webcap/webcap/webcapture"
)

// MaxLine is the longest line a list may hold, in bytes.
const MaxLine = 16 << 10

// A Seed is a line of a list: a start URL and its own flags.
type Seed struct {
	Line   int    `json:"line"` // 1-based, in the list
	URL    string `json:"seed"` // as written: the shard's key and the name's hash
	Levels int    `json:"levels,omitempty"`
	// Scope is the seed's --same-site or --same-path; ScopeSet says the
	// line gave one (else the run's applies).
	Scope    webcapture.Flags `json:"scope,omitempty"`
	ScopeSet bool             `json:"scopeSet,omitempty"`
	MaxPages int              `json:"maxPages,omitempty"` // 0: the run's
}

// A LineError is a problem of a list's line.
type LineError struct {
	List string // the list's name ("-": stdin)
	Line int    // 1-based; 0: the list as a whole
	Err  error
}

func (e *LineError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %v", e.List, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.List, e.Line, e.Err)
}

func (e *LineError) Unwrap() error { return e.Err }

// ErrNoSeed is the error of a list without a seed.
var ErrNoSeed = errors.New("no seed (a line holds a URL; # starts a comment)")

// ReadOptions say which seeds Read keeps and how it checks them.
type ReadOptions struct {
	Shard   shard.Shard    // the seeds of this shard only; zero: all
	Profile *canon.Profile // how a seed must canonicalize; nil: canon.PDF
	// Context, when not nil, stops the read once it is done (an
	// interrupt): Read returns its cause (context.Cause). It is looked at
	// every checkEvery lines: a million seeds take seconds to read.
	Context context.Context
}

// checkEvery is how many seeds Read and Config.Writable take between
// looks at their context: some milliseconds of work.
const checkEvery = 1024

// Read reads a list named name (for errors) and returns the seeds of
// opts.Shard, in list order. It stops at the first problem.
func Read(r io.Reader, name string, opts ReadOptions) ([]Seed, error) {
	br := bufio.NewReaderSize(r, MaxLine+1)
	var out []Seed
	seen := map[uint64]int{} // a kept seed's hash (its name's): its index in out
	any := false
	for n := 1; ; n++ {
		if err := stopped(opts.Context, n); err != nil {
			return nil, err
		}
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			return nil, &LineError{name, n, fmt.Errorf("longer than %d bytes", MaxLine)}
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, &LineError{name, 0, err}
		}
		if len(line) > 0 {
			s, ok, perr := parse(line, opts.Profile)
			if perr != nil {
				return nil, &LineError{name, n, perr}
			}
			if ok {
				any = true
				s.Line = n
				if opts.Shard.Takes(s.URL) {
					h := hash64(s.URL)
					if i, dup := seen[h]; dup {
						if out[i].URL == s.URL {
							return nil, &LineError{name, n, fmt.Errorf("%s: the seed of line %d again", s.URL, out[i].Line)}
						}
						return nil, &LineError{name, n, fmt.Errorf("%s: its name's hash is line %d's (%s): give one of them a different spelling", s.URL, out[i].Line, out[i].URL)}
					}
					seen[h] = len(out)
					out = append(out, s)
				}
			}
		}
		if err != nil { // io.EOF
			break
		}
	}
	if !any {
		return nil, &LineError{name, 0, ErrNoSeed}
	}
	return out, nil
}

// ParseLine reads one line of a list (without its line number): ok is
// false for a blank line or a comment.
func ParseLine(line string, p *canon.Profile) (s Seed, ok bool, err error) {
	return parse([]byte(line), p)
}

func parse(line []byte, p *canon.Profile) (Seed, bool, error) {
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	switch {
	case bytes.IndexByte(line, 0) >= 0:
		return Seed{}, false, errors.New("a NUL byte: not a text list")
	case !utf8.Valid(line):
		return Seed{}, false, errors.New("not UTF-8")
	}
	fields := strings.Fields(string(line))
	if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
		return Seed{}, false, nil
	}
	s := Seed{URL: fields[0]}
	if strings.HasPrefix(s.URL, "-") {
		return Seed{}, false, fmt.Errorf("%s: a line starts with its URL", s.URL)
	}
	if err := s.flags(fields[1:]); err != nil {
		return Seed{}, false, err
	}
	if err := capture.CheckStartURL(s.URL, p); err != nil {
		var ce *canon.Error
		if errors.As(err, &ce) {
			return Seed{}, false, fmt.Errorf("%s: cannot be canonicalized: %s", s.URL, ce.Detail())
		}
		return Seed{}, false, fmt.Errorf("%s: %w", s.URL, err)
	}
	return s, true, nil
}

// lineFlags are the flags a line may give.
const lineFlags = "--levels N, --same-site, --same-path, --max-pages N"

// flags parses a seed's flags, as the command's are parsed (--name value,
// --name=value).
func (s *Seed) flags(args []string) error {
	fs := flag.NewFlagSet("seed", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	levels := fs.Int("levels", 0, "")
	site := fs.Bool("same-site", false, "")
	path := fs.Bool("same-path", false, "")
	maxPages := fs.Int("max-pages", 0, "")
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%q: one URL a line, then its flags (%s)", fs.Arg(0), lineFlags)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case set["levels"] && *levels < 1:
		return fmt.Errorf("--levels %d: 1 captures the start page only", *levels)
	case set["max-pages"] && *maxPages < 1:
		return fmt.Errorf("--max-pages %d: want at least 1", *maxPages)
	case *site && *path:
		return errors.New("--same-site and --same-path: give one")
	}
	s.Levels, s.MaxPages = *levels, *maxPages
	if set["same-site"] || set["same-path"] {
		s.ScopeSet = true
		if *site {
			s.Scope = webcapture.SameSite
		}
		if *path {
			s.Scope = webcapture.SamePath
		}
	}
	return nil
}

// flagError says what the flag package found wrong with a line's flags
// as the command would (--levels, not -levels).
func flagError(err error) error {
	msg := err.Error()
	var name, value string
	if _, err := fmt.Sscanf(msg, "flag provided but not defined: -%s", &name); err == nil {
		return fmt.Errorf("--%s: not a flag a line may give (%s)", strings.TrimPrefix(name, "-"), lineFlags)
	}
	if _, err := fmt.Sscanf(msg, "invalid value %q for flag -%s", &value, &name); err == nil {
		return fmt.Errorf("--%s %q: not a whole number", strings.TrimSuffix(name, ":"), value)
	}
	return fmt.Errorf("%s (a line may give %s)", strings.TrimPrefix(msg, "flag "), lineFlags)
}

// String is the seed as a line of a list.
func (s Seed) String() string {
	var b strings.Builder
	b.WriteString(s.URL)
	if s.Levels > 0 {
		b.WriteString(" --levels " + strconv.Itoa(s.Levels))
	}
	switch {
	case s.ScopeSet && s.Scope&webcapture.SameSite != 0:
		b.WriteString(" --same-site")
	case s.ScopeSet && s.Scope&webcapture.SamePath != 0:
		b.WriteString(" --same-path")
	}
	if s.MaxPages > 0 {
		b.WriteString(" --max-pages " + strconv.Itoa(s.MaxPages))
	}
	return b.String()
}
