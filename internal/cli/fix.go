package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/repair"
)

func newFixCmd(ios *IOStreams, runF func(context.Context, *fixOptions) error) *cobra.Command {
	opts := &fixOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "fix [flags] FILE -o OUT.pdf",
		Short: "Repair the Web Capture structures that can be repaired unambiguously",
		Long: `Repair what "webcap audit" finds when there is only one way to repair it:
the IDS and URLS trees are rebuilt sorted and balanced with correct /Limits
(dropping what cannot be read), URLS keys are canonicalized (--profile),
IDS keys that differ from their set's /ID take the /ID, duplicate keys are
merged, and pages or images without /ID get their set's. Everything that
could be repaired more than one way is reported and left alone.

A URLS key is never rewritten to a key that another key is or becomes when
the two lead to different content sets: such a collision is reported
("collision:", both keys quoted byte for byte, with their sets), those keys
are left as written, and the exit status is 1, with --dry-run too. Keys
that canonicalize to one key and lead to the same sets are merged.

The repair is an incremental update: the original bytes stay exactly as
they are (a signature stays valid) and the changes are appended. The input
is never changed unless --in-place is given; the output is written to a
temporary file and renamed. The result is audited again.

Exit status: 0 when the result has no error finding, 1 when errors or
collisions remain, 3 when the file cannot be read or written, 2 for a usage error.`,
		Example: `  $ webcap fix damaged.pdf -o repaired.pdf
  $ webcap fix --dry-run damaged.pdf
  $ webcap fix --in-place --profile pdf2 capture.pdf`,
		Args: cobra.ExactArgs(1),
		RunE: runner(opts, runF, runFix, func(args []string) error {
			opts.File = args[0]
			switch {
			case opts.DryRun && (opts.Out != "" || opts.InPlace):
				return usagef("fix: --dry-run writes nothing: drop -o and --in-place")
			case !opts.DryRun && opts.Out == "" && !opts.InPlace:
				return usagef("fix: say where to write: -o OUT.pdf, or --in-place")
			case opts.Out != "" && opts.InPlace:
				return usagef("fix: -o and --in-place exclude each other")
			}
			return nil
		}),
	}
	f := cmd.Flags()
	f.StringVarP(&opts.Out, "output", "o", "", "write the repaired file to `OUT.pdf`")
	f.BoolVar(&opts.InPlace, "in-place", false, "replace the input file (a symbolic link stays one)")
	f.BoolVar(&opts.DryRun, "dry-run", false, "print the repairs without writing anything")
	addProfileFlag(cmd, &opts.Profile, canon.PDF, "canonicalization for URLS keys: pdf, pdf2 or rfc3986")
	return cmd
}

type fixOptions struct {
	IO      *IOStreams
	Out     string
	InPlace bool
	DryRun  bool
	Profile *canon.Profile
	File    string
}

func runFix(ctx context.Context, opts *fixOptions) error {
	out := opts.Out
	if opts.InPlace {
		out = opts.File
	} else if out != "" && sameFile(out, opts.File) {
		return usagef("fix: -o %s is the input file: use --in-place to replace it", out)
	}
	orig, err := readFile("fix", opts.File)
	if err != nil {
		return err
	}
	d, err := readPDF("fix", orig, opts.File)
	if err != nil {
		return err
	}
	plan, err := repair.NewPlan(d, opts.Profile)
	if err != nil {
		return err
	}
	w := opts.IO.Out
	for _, c := range plan.Changes {
		fmt.Fprintf(w, "fix: %s%s: %s\n", strings.Join(c.Rules, ","), where(c), c.Message)
	}
	for _, c := range plan.Left {
		fmt.Fprintf(w, "left alone: %s%s: %s\n", strings.Join(c.Rules, ","), where(c), c.Message)
	}
	for _, c := range plan.Collisions {
		fmt.Fprintf(w, "collision: WC-URLS-CANONICAL: %s\n", c)
	}
	collided := ""
	if n := len(plan.Collisions); n > 0 {
		collided = ", " + plural(n, "collision") + " of URLS keys left as written"
	}
	switch {
	case plan.Empty() && collided != "":
		fmt.Fprintf(w, "%s: nothing to fix%s; nothing written\n", displayInput(opts.File), collided)
		return collisions(opts, plan)
	case plan.Empty():
		fmt.Fprintf(w, "%s: nothing to fix; nothing written\n", displayInput(opts.File))
		return writeVerdict(w, opts.File, summarize(d, opts.Profile))
	case opts.DryRun:
		fmt.Fprintf(w, "%s: %s planned%s (dry run: nothing written)\n", displayInput(opts.File), plural(len(plan.Changes), "repair"), collided)
		return collisions(opts, plan)
	}
	fixed, err := plan.Apply(orig, opts.File)
	if err != nil {
		return fileError("fix", opts.File, err)
	}
	if err := checkInterrupt(ctx); err != nil {
		return err // nothing written
	}
	d2, err := writeOutput("fix", out, fixed)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s: %s written to %s (%d bytes appended; the original %d bytes are unchanged)%s\n",
		displayInput(opts.File), plural(len(plan.Changes), "repair"), displayInput(out), len(fixed)-len(orig), len(orig), collided)
	verdict := writeVerdict(w, out, summarize(d2, opts.Profile))
	if err := collisions(opts, plan); err != nil {
		return err
	}
	return verdict
}

// collisions fails the command when URLS keys were left as written because
// rewriting them would make them collide, and says so on stderr.
func collisions(opts *fixOptions, plan *repair.Plan) error {
	if len(plan.Collisions) == 0 {
		return nil
	}
	fmt.Fprintf(opts.IO.ErrOut, "webcap: fix: %s: %s of URLS keys left as written: canonicalized, they would merge different content sets\n",
		displayInput(opts.File), plural(len(plan.Collisions), "collision"))
	return errFailed
}

func where(c repair.Change) string {
	if c.Object.IsZero() {
		return ""
	}
	return " object " + c.Object.String()
}
