// Package cli implements the webcap command line. It only parses and
// prints: what a command does is a library call. Every command has a file
// of its own holding its constructor (help and flags; it takes the streams
// and a run function, runF, the seam tests use to check flag parsing
// without running anything), then its options struct, then the run
// function that does the work. What several commands share lives in files
// named for it: flags.go (flag groups, --profile parsed in one place),
// files.go (reading inputs; "-" is stdin), inputs.go (audit's list of
// files: --files-from, -0, --recursive, --shard), resume.go (audit
// --resume and the size, mtime and SHA-256 it compares), output.go (the -o rules of every
// writer, checking and writing outputs, the audit verdict), password.go
// (the password options of every reader), limits.go (--timeout,
// --max-file-size and --max-memory: the bounds of every reader, and the
// run that stops a command at them), progress.go (--progress and
// --quiet), iostreams.go (the streams, terminal detection), format.go (plain text), report.go (every --json schema),
// browser.go (what capture, append and refresh share), command.go (the
// runF seam), formats.go (audit's and report's --format: results handed to
// audit/export), reportcmd.go and shards.go (webcap report, and the
// audit --jsonl shards it merges). Exit codes are decided by exitCode alone.
package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/pdfio"
)

// Main runs the webcap command line with args (without the program name) and
// returns the process exit code.
func Main(ctx context.Context, args []string, ios *IOStreams) int {
	root := newRootCmd(ios)
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil && cmd != nil && isTopic(cmd) && cmd.ValidateArgs(cmd.Flags().Args()) != nil {
		// A topic called as a command ("webcap rules WC-NOPE"): cobra
		// shows it through its help function, which has said what is
		// wrong but cannot fail the run.
		return exitUsage
	}
	err = cobraUsage(cmd, err)
	var in *interrupted
	if (err == nil || errors.Is(err, context.Canceled)) && errors.As(context.Cause(ctx), &in) && !errors.As(err, &in) {
		// A command that stopped at ctx.Err(), or finished without
		// looking: it was interrupted all the same.
		err = in
	}
	if errors.As(err, &in) && !in.reported {
		fmt.Fprintf(ios.ErrOut, "webcap: %s%v\n", commandPrefix(cmd), in)
	} else if err != nil && !errors.Is(err, errFailed) && !(errors.As(err, &in) && in.reported) {
		fmt.Fprintf(ios.ErrOut, "webcap: %v\n", err)
		if exitCode(err) == exitUsage {
			path := "webcap"
			if cmd != nil {
				path = cmd.CommandPath()
			}
			fmt.Fprintf(ios.ErrOut, "Run '%s --help' for usage.\n", path)
		}
		if errors.Is(err, pdfio.ErrCertified) {
			fmt.Fprintln(ios.ErrOut, "webcap: --force writes the update anyway, and the certification no longer validates.")
		}
	}
	return exitCode(err)
}

func newRootCmd(ios *IOStreams) *cobra.Command {
	root := &cobra.Command{
		Use:   "webcap <command> [flags]",
		Short: "Read, audit and write PDF Web Capture structures",
		Long: `webcap reads, audits and writes the Web Capture structures of PDF files
(PDF 1.3+, PDF Reference 1.7 §10.9, ISO 32000-1 §14.10): the URLS and IDS
name trees, page and image sets, source information and capture commands.`,
		Example: `  # Canonical URLS key of a URL, PDF 1.7 rules
  $ webcap canon 'HTTP://Example.COM:80/a/./b/../c#top'
  http://example.com/a/c

  # Every step of the algorithm
  $ webcap canon --explain 'http://a/b/c/../../../g'`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       versionString(),
	}
	root.SetOut(ios.Out)
	root.SetErr(ios.ErrOut)
	root.SetIn(ios.In)
	root.SetFlagErrorFunc(flagError)
	root.SetVersionTemplate("{{.Version}}\n")
	// Declared here so that cobra does not take -v, which is kept for
	// verbosity.
	root.Flags().Bool("version", false, "print webcap's version")
	root.CompletionOptions.DisableDefaultCmd = true
	root.AddCommand(
		newCanonCmd(ios, nil),
		newInfoCmd(ios, nil),
		newLookupCmd(ios, nil),
		newIDCmd(ios, nil),
		newAuditCmd(ios, nil),
		newReportCmd(ios, nil),
		newFixCmd(ios, nil),
		newBuildCmd(ios, nil),
		newCaptureCmd(ios, nil),
		newAppendCmd(ios, nil),
		newRefreshCmd(ios, nil),
		newSealCmd(ios, nil),
		newAuditWorkerCmd(ios, nil),
		newCaptureWorkerCmd(ios, nil),
		newVersionCmd(ios, nil),
		newCompletionCmd(ios, nil),
		newSchemaTopic(ios),
		newExitCodesTopic(ios),
		newRulesTopic(ios),
	)
	root.SetHelpCommand(newHelpCmd())
	return root
}
