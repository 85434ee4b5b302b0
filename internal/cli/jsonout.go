package cli

import (
	"context"
	"io"
)

// Failures in-band: with --json, a command that fails as a whole prints
// its failure as JSON on stdout, in the same shape as a failed input
// (failureJSON, the failure variant of every command's schema), so that a
// program reading the output always finds a JSON answer. The error is
// returned as it was: the exit status and the message on stderr do not
// change. A usage error (exit status 2) prints no JSON: the command line
// is wrong, not its work.

// jsonCommand is the options of a command with --json.
type jsonCommand[T any] interface {
	*T
	// jsonFailure is the failure object the command prints when it fails
	// (its schema, input and output), or nil without --json.
	jsonFailure() *failureJSON
	// streams is the command's streams, for inBand to watch stdout.
	streams() **IOStreams
}

// inBand wraps a command's run function: when it fails without having
// printed anything on stdout, its failure is printed there as JSON.
func inBand[T any, P jsonCommand[T]](run func(context.Context, *T) error) func(context.Context, *T) error {
	return func(ctx context.Context, opts *T) error {
		f := P(opts).jsonFailure()
		if f == nil {
			return run(ctx, opts)
		}
		p := P(opts).streams()
		ios := *p
		w := &watchWriter{w: ios.Out}
		watched := *ios
		watched.Out = w
		*p = &watched
		err := run(ctx, opts)
		*p = ios
		if err == nil || w.wrote || exitCode(err) == exitUsage {
			return err
		}
		f.Error = newErrorJSON(err)
		out := ios.Out
		if f.Output == stdoutName { // stdout is the PDF's: JSON goes where the summary does
			out = ios.ErrOut
		}
		werr := writeJSON(out, f)
		if isStream(f.Schema) {
			werr = writeLine(out, f)
		}
		if werr != nil {
			return &ioError{werr}
		}
		return err
	}
}

// isStream reports whether a schema is a stream's: its objects are
// printed a line each, not as an indented document.
func isStream(schema string) bool {
	for _, t := range schemaTopics() {
		if schemaName(t.name) == schema {
			return t.kind == "stream"
		}
	}
	return false
}

// watchWriter notes whether anything was written through it.
type watchWriter struct {
	w     io.Writer
	wrote bool
}

func (w *watchWriter) Write(b []byte) (int, error) {
	w.wrote = w.wrote || len(b) > 0
	return w.w.Write(b)
}

// The options of every command with --json.

func (o *canonOptions) streams() **IOStreams   { return &o.IO }
func (o *idOptions) streams() **IOStreams      { return &o.IO }
func (o *infoOptions) streams() **IOStreams    { return &o.IO }
func (o *lookupOptions) streams() **IOStreams  { return &o.IO }
func (o *auditOptions) streams() **IOStreams   { return &o.IO }
func (o *buildOptions) streams() **IOStreams   { return &o.IO }
func (o *fixOptions) streams() **IOStreams     { return &o.IO }
func (o *captureOptions) streams() **IOStreams { return &o.IO }
func (o *refreshOptions) streams() **IOStreams { return &o.IO }

// failure is a command's failure object, or nil without --json.
func failure(on bool, command, input, output string) *failureJSON {
	if !on {
		return nil
	}
	return &failureJSON{Schema: schemaName(command), Input: input, Output: output}
}

func (o *canonOptions) jsonFailure() *failureJSON { return failure(o.JSON, "canon", "", "") }
func (o *idOptions) jsonFailure() *failureJSON    { return failure(o.JSON, "id", "", "") }
func (o *infoOptions) jsonFailure() *failureJSON  { return failure(o.JSON, "info", "", "") }
func (o *lookupOptions) jsonFailure() *failureJSON {
	return failure(o.JSON, "lookup", o.File, "")
}
func (o *auditOptions) jsonFailure() *failureJSON {
	if o.JSONL {
		return failure(true, "audit-file", "", "")
	}
	return failure(o.JSON, "audit", "", "")
}
func (o *buildOptions) jsonFailure() *failureJSON {
	return failure(o.JSON, "build", o.Manifest, o.Out)
}
func (o *fixOptions) jsonFailure() *failureJSON {
	return failure(o.JSON, "fix", o.File, o.target(o.File))
}
func (o *captureOptions) jsonFailure() *failureJSON {
	return failure(o.JSON, o.name(), o.File, o.target(o.File))
}
func (o *refreshOptions) jsonFailure() *failureJSON {
	return failure(o.JSON, "refresh", o.File, o.target(o.File))
}
