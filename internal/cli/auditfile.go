package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/mirror"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// One file audited alone: in this process, or in a child process (the
// hidden audit-file command) that a hostile file can hang or crash without
// taking the others with it.

// auditFile reads and checks one file in this process.
func auditFile(path string, opts *auditOptions) fileJSON {
	r := fileJSON{Input: path, Findings: []findingJSON{}}
	var src webcapture.AuxSource
	if opts.Sources != "" {
		var err error
		if src, err = mirror.Load(opts.Sources); err != nil {
			r.Error = unreadable("sources: " + err.Error())
			return r
		}
	}
	d, err := opts.open(path, pdfio.Options{Timeout: opts.Timeout})
	if err != nil {
		r.Error = newErrorJSON(err)
		var pe *pdfio.Error
		if errors.As(err, &pe) {
			r.Error.Message = pe.Err.Error()
		}
		return r
	}
	for _, f := range audit.Check(d, audit.Options{Profile: opts.Profile, Sources: src}) {
		fj := findingJSON{Rule: f.Rule, Severity: f.Severity.String(), Message: f.Message, Key: f.Key, Spec: f.Spec}
		if !f.Object.IsZero() {
			fj.Object = f.Object.String()
		}
		r.Findings = append(r.Findings, fj)
	}
	return r
}

// auditChild audits one file in a child process (this program's hidden
// "audit-file" command), killed when the time limit passes: a parse that
// hangs, or dies of a fatal runtime error, costs only its own file.
func auditChild(ctx context.Context, path string, opts *auditOptions) fileJSON {
	exe, err := childProgram()
	if err != nil {
		return auditFile(path, opts)
	}
	r := runChild(ctx, exe, path, opts)
	// The child cannot prompt for a password: this process does, once.
	if r.Error != nil && strings.HasSuffix(r.Error.Message, pdfio.ErrEncrypted.Error()) && opts.retry(pdfio.ErrEncrypted, path) {
		r = runChild(ctx, exe, path, opts)
	}
	return r
}

// runChild runs the child for one file. The password goes to it in its
// environment, never on its command line (which ps shows).
func runChild(ctx context.Context, exe, path string, opts *auditOptions) fileJSON {
	// The child stops its own parse at the time limit and reports it; the
	// kill, a little later, is for a child that cannot.
	cctx, cancel := context.WithTimeout(ctx, opts.Timeout+childGrace)
	defer cancel()
	args := []string{"audit-file", "--profile", opts.Profile.String(), "--timeout", opts.Timeout.String()}
	if opts.Sources != "" {
		args = append(args, "--sources", opts.Sources)
	}
	cmd := exec.CommandContext(cctx, exe, append(args, "--", path)...)
	cmd.Args[0] = os.Args[0] // so that a multi-call binary (the tests') runs webcap
	cmd.Env = childEnv(opts.get())
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var line fileLineJSON
	if jerr := json.Unmarshal(out.Bytes(), &line); jerr == nil && line.Input != "" {
		return line.fileJSON
	}
	r := fileJSON{Input: path, Findings: []findingJSON{}}
	switch {
	case cctx.Err() == context.DeadlineExceeded:
		r.Error = hostile(fmt.Sprintf("reading took longer than %v; stopped", opts.Timeout))
	case err != nil:
		r.Error = hostile(fmt.Sprintf("the reader failed (%v): %s", err, lastLine(errb.String())))
	default:
		r.Error = hostile("the reader gave no result")
	}
	return r
}

// childEnv is this process's environment with $WEBCAP_PASSWORD set to pw
// (removed when pw is "").
func childEnv(pw string) []string {
	env := make([]string, 0, len(os.Environ())+1)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, passwordEnv+"=") {
			env = append(env, kv)
		}
	}
	if pw != "" {
		env = append(env, passwordEnv+"="+pw)
	}
	return env
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// childProgram and childGrace are variables so that tests can stand in a
// child that hangs or crashes.
var (
	childProgram = os.Executable
	childGrace   = 2 * time.Second
)

// newAuditFileCmd is the hidden child command: it audits one file and prints
// its result as JSON, a line of audit --jsonl.
func newAuditFileCmd(ios *IOStreams, runF func(context.Context, *auditOptions) error) *cobra.Command {
	opts := &auditOptions{IO: ios}
	cmd := &cobra.Command{
		Use:     "audit-file [flags] FILE",
		Short:   "Audit one file and print its result as JSON (used by audit)",
		Example: `  $ webcap audit-file capture.pdf`,
		Hidden:  true,
		Args:    cobra.ExactArgs(1),
		RunE: runner(opts, runF, runAuditFile, func(args []string) error {
			opts.Files = args
			return nil
		}),
	}
	addAuditFlags(cmd, opts)
	return cmd
}

func runAuditFile(ctx context.Context, opts *auditOptions) error {
	if err := opts.resolve("audit-file", opts.IO); err != nil {
		return err
	}
	return writeLine(opts.IO.Out, fileLineJSON{schemaName("audit-file"), auditFile(opts.Files[0], opts)})
}

// unreadable is the error of a file audit could not read: an I/O error,
// as the exit status says (3).
func unreadable(msg string) *errorJSON {
	return &errorJSON{Message: msg, Kind: "io"}
}

// hostile is the error of a file whose reader outlived its time limit or
// died: a finding about the file (4), not worth retrying.
func hostile(msg string) *errorJSON {
	return &errorJSON{Message: msg, Kind: "invalid"}
}
