package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/canon"
)

func newCanonCmd(ios *IOStreams, runF func(context.Context, *canonOptions) error) *cobra.Command {
	opts := &canonOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "canon [flags] [URL...]",
		Short: "Canonicalize URLs as keys of the PDF URLS name tree",
		Long: `Canonicalize URLs by the PDF's seven-step algorithm (PDF Reference 1.7
§10.9.3 "URL Strings") under the one-encoding-pass assumption.

With no URL, or with "-", URLs are read from stdin, one per line; blank lines
are skipped. Each canonical URL is printed on its own line, in input order. A
URL that cannot be canonicalized is reported on stderr as
"webcap: canon: <input>: <reason>", the others are still done, and the exit
status is 1.

Profiles:
  pdf      PDF 1.7 / ISO 32000-1 keys: RFC 1808 dot segments (a ".." above
           the root is kept), default ports http 80 and ftp 21 (default)
  pdf2     ISO 32000-2 keys: as pdf, with RFC 3986 dot segments
  rfc3986  today's web: RFC 3986 §6 normalization (escape case, unreserved
           escapes decoded, "/" for an empty path, https/ws/wss ports)

Input encoding states:
  encoded  the URL was encoded once, as URLs in HTML and HTTP are: escapes
           are kept, and only characters that cannot survive an encoding
           pass (space, controls, non-ASCII, " < >, a stray %) are encoded
           (default)
  raw      the URL was never encoded: every % is a literal percent sign

With --json, each input gives one JSON object on its own line (schema:
webcap help schema canon):
  {"schema": "webcap.canon/1", "input": "...", "canonical": "..."}
  {"schema": "webcap.canon/1", "input": "...",
   "error": {"message": "...", "kind": "failed", "step": "6", "offset": 9}}
and with --explain also "steps": [{"step", "name", "before", "after"}, ...].`,
		Example: `  $ webcap canon 'HTTP://Example.COM:80/a/./b/../c#top'
  http://example.com/a/c

  # Relative references need a base
  $ webcap canon --base 'http://a/b/c/d;p?q' '../../../g' ';x'
  http://a/../g
  http://a/b/c/;x

  # ISO 32000-2 rules; a file of URLs, one per line
  $ webcap canon --profile pdf2 < urls.txt > keys.txt

  # Components that were never percent-encoded
  $ webcap canon --input raw 'http://a/100% sure'
  http://a/100%25%20sure

  # Why two keys differ
  $ webcap canon --explain 'http://a/b/%7Euser/../x'

  # One JSON object per input
  $ webcap canon --json 'http://a:99999/'`,
		RunE: runner(opts, runF, inBand(runCanon), func(args []string) error {
			opts.URLs = args
			if len(args) == 0 {
				opts.URLs = []string{"-"}
			}
			return nil
		}),
	}
	opts.canonFlags.add(cmd)
	f := cmd.Flags()
	f.BoolVar(&opts.Explain, "explain", false, "show every step for each URL")
	f.BoolVar(&opts.JSON, "json", false, "print one JSON object per input")
	return cmd
}

type canonOptions struct {
	IO *IOStreams
	canonFlags
	Explain bool
	JSON    bool
	URLs    []string // "-" reads one URL per line from IO.In
}

func runCanon(ctx context.Context, opts *canonOptions) error {
	c, err := opts.canonicalizer("canon")
	if err != nil {
		return err
	}
	r := &canonRun{c: c, opts: opts, w: bufio.NewWriterSize(opts.IO.Out, 64<<10)}
	if opts.JSON {
		r.enc = json.NewEncoder(r.w)
		r.enc.SetEscapeHTML(false)
	}
	for _, u := range opts.URLs {
		if u == "-" {
			err = r.stream(ctx, interruptible(ctx, opts.IO.In))
		} else {
			err = r.do([]byte(u))
		}
		if err != nil {
			break
		}
	}
	if ferr := r.w.Flush(); err == nil && ferr != nil {
		err = &ioError{fmt.Errorf("canon: writing output: %w", ferr)}
	}
	if err != nil {
		return err
	}
	if r.failed > 0 {
		return errFailed
	}
	return nil
}

type canonRun struct {
	c      *canon.Canonicalizer
	opts   *canonOptions
	w      *bufio.Writer
	enc    *json.Encoder
	failed int
}

// stream canonicalizes one URL per line of in. Lines of any length are
// read; the line terminator ("\n" or "\r\n") is not part of the URL.
func (r *canonRun) stream(ctx context.Context, in io.Reader) error {
	br := bufio.NewReaderSize(in, 64<<10)
	var long []byte
	for n := 0; ; n++ {
		if n&4095 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		// ReadSlice returns bufio.ErrBufferFull itself, never wrapped:
		// "==" spares errors.Is on every line.
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long[:0], line...)
			for err == bufio.ErrBufferFull {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if len(line) > 0 && !isBlank(line) {
			if line[len(line)-1] == '\n' {
				line = line[:len(line)-1]
			}
			if line[len(line)-1] == '\r' { // not blank: a byte above ' ' is left
				line = line[:len(line)-1]
			}
			if werr := r.do(line); werr != nil {
				return werr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil && ctx.Err() != nil {
			return context.Cause(ctx)
		}
		if err != nil {
			return &ioError{fmt.Errorf("canon: reading stdin: %w", err)}
		}
	}
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c > ' ' {
			return false
		}
	}
	return true
}

// do canonicalizes one URL and writes the result; it returns only write
// errors.
func (r *canonRun) do(u []byte) error {
	if r.opts.Explain || r.enc != nil {
		return r.doSlow(string(u))
	}
	// Append straight into the writer's free buffer: no copy, no allocation.
	out, err := r.c.AppendBytes(r.w.AvailableBuffer(), u)
	if err != nil {
		r.report(err)
		return nil
	}
	out = append(out, '\n')
	if _, err := r.w.Write(out); err != nil {
		return &ioError{fmt.Errorf("canon: writing output: %w", err)}
	}
	return r.flushIfTTY()
}

func (r *canonRun) flushIfTTY() error {
	if !r.opts.IO.OutTTY {
		return nil
	}
	if err := r.w.Flush(); err != nil {
		return &ioError{fmt.Errorf("canon: writing output: %w", err)}
	}
	return nil
}

// report writes a failed input to stderr: "webcap: canon: <input>: <reason>".
func (r *canonRun) report(err error) {
	r.failed++
	if r.opts.IO.OutTTY {
		_ = r.w.Flush() // keep stdout and stderr in order on a terminal
	}
	var ce *canon.Error
	if errors.As(err, &ce) {
		fmt.Fprintf(r.opts.IO.ErrOut, "webcap: canon: %s: %s\n", displayInput(ce.Input), ce.Detail())
		return
	}
	fmt.Fprintf(r.opts.IO.ErrOut, "webcap: canon: %v\n", err)
}

func (r *canonRun) doSlow(u string) error {
	var (
		ex  *canon.Explanation
		out string
		err error
	)
	if r.opts.Explain {
		ex, err = r.c.Explain(u)
		out = ex.Canonical
	} else {
		out, err = r.c.String(u)
	}
	if err != nil && r.enc == nil {
		r.report(err)
	} else if err != nil {
		r.failed++ // reported in the JSON object
	}
	var werr error
	if r.enc != nil {
		werr = r.enc.Encode(newCanonJSON(u, out, ex, err))
	} else {
		werr = writeExplanation(r.w, ex, err)
	}
	if werr != nil {
		return &ioError{fmt.Errorf("canon: writing output: %w", werr)}
	}
	return r.flushIfTTY()
}

func newCanonJSON(in, out string, ex *canon.Explanation, err error) canonJSON {
	j := canonJSON{Schema: schemaCanon, Input: in, Canonical: out}
	if err != nil {
		j.Error = &errorJSON{Message: err.Error(), Kind: "failed"}
		var ce *canon.Error
		if errors.As(err, &ce) {
			j.Error.Message, j.Error.Step = ce.Detail(), ce.Step.Number()
			if ce.Offset >= 0 {
				j.Error.Offset = &ce.Offset
			}
		}
	}
	if ex != nil {
		j.Steps = make([]stepJSON, 0, len(ex.Steps))
		for _, s := range ex.Steps {
			j.Steps = append(j.Steps, stepJSON{s.Step.Number(), s.Step.Name(), s.Before, s.After})
		}
	}
	return j
}

// writeExplanation prints one explanation: the input, each step's result
// ("-" when the step changed nothing) and the canonical URL or the error.
func writeExplanation(w io.Writer, ex *canon.Explanation, err error) error {
	var b strings.Builder
	fmt.Fprintf(&b, "input:     %s\n", displayInput(ex.Input))
	for _, s := range ex.Steps {
		after := "-"
		if s.Changed() {
			after = displayInput(s.After)
		}
		fmt.Fprintf(&b, "  %s %-18s %s\n", s.Step.Number(), s.Step.Name(), after)
	}
	var ce *canon.Error
	switch {
	case errors.As(err, &ce):
		fmt.Fprintf(&b, "  %s %-18s error at byte %d: %s\n", ce.Step.Number(), ce.Step.Name(), ce.Offset, ce.Reason)
	case err != nil:
		fmt.Fprintf(&b, "error:     %v\n", err)
	default:
		fmt.Fprintf(&b, "canonical: %s\n", ex.Canonical)
	}
	b.WriteByte('\n')
	_, werr := io.WriteString(w, b.String())
	return werr
}
