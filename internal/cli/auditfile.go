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
	r := fileJSON{File: path, Findings: []findingJSON{}}
	var src webcapture.AuxSource
	if opts.Sources != "" {
		var err error
		if src, err = mirror.Load(opts.Sources); err != nil {
			r.Error = "sources: " + err.Error()
			return r
		}
	}
	d, err := pdfio.Open(path, pdfio.Options{Password: opts.Password, Timeout: opts.Timeout})
	if err != nil {
		r.Error = err.Error()
		var pe *pdfio.Error
		if errors.As(err, &pe) {
			r.Error = pe.Err.Error()
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
	// The child stops its own parse at the time limit and reports it; the
	// kill, a little later, is for a child that cannot.
	cctx, cancel := context.WithTimeout(ctx, opts.Timeout+childGrace)
	defer cancel()
	args := []string{"audit-file", "--profile", opts.Profile.String(), "--timeout", opts.Timeout.String()}
	if opts.Password != "" {
		args = append(args, "--password", opts.Password)
	}
	if opts.Sources != "" {
		args = append(args, "--sources", opts.Sources)
	}
	cmd := exec.CommandContext(cctx, exe, append(args, "--", path)...)
	cmd.Args[0] = os.Args[0] // so that a multi-call binary (the tests') runs webcap
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	var r fileJSON
	if jerr := json.Unmarshal(out.Bytes(), &r); jerr == nil && r.File != "" {
		return r
	}
	r = fileJSON{File: path, Findings: []findingJSON{}}
	switch {
	case cctx.Err() == context.DeadlineExceeded:
		r.Error = fmt.Sprintf("reading took longer than %v; stopped", opts.Timeout)
	case err != nil:
		r.Error = fmt.Sprintf("the reader failed (%v): %s", err, lastLine(errb.String()))
	default:
		r.Error = "the reader gave no result"
	}
	return r
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
// its result as JSON.
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
	return json.NewEncoder(opts.IO.Out).Encode(auditFile(opts.Files[0], opts))
}
