package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/repair"
)

type fixOptions struct {
	IO      *IOStreams
	Out     string
	InPlace bool
	DryRun  bool
	Profile string
	File    string
}

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

The repair is an incremental update: the original bytes stay exactly as
they are (a signature stays valid) and the changes are appended. The input
is never changed unless --in-place is given; the output is written to a
temporary file and renamed. The result is audited again.

Exit status: 0 when the result has no error finding, 1 when errors remain,
3 when the file cannot be read or written, 2 for a usage error.`,
		Example: `  $ webcap fix damaged.pdf -o repaired.pdf
  $ webcap fix --dry-run damaged.pdf
  $ webcap fix --in-place --profile pdf2 capture.pdf`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.File = args[0]
			switch {
			case opts.DryRun && (opts.Out != "" || opts.InPlace):
				return usagef("fix: --dry-run writes nothing: drop -o and --in-place")
			case !opts.DryRun && opts.Out == "" && !opts.InPlace:
				return usagef("fix: say where to write: -o OUT.pdf, or --in-place")
			case opts.Out != "" && opts.InPlace:
				return usagef("fix: -o and --in-place exclude each other")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runFix(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.Out, "output", "o", "", "write the repaired file to `OUT.pdf`")
	f.BoolVar(&opts.InPlace, "in-place", false, "replace the input file (through a temporary file)")
	f.BoolVar(&opts.DryRun, "dry-run", false, "print the repairs without writing anything")
	f.StringVar(&opts.Profile, "profile", "pdf", "canonicalization for URLS keys: pdf, pdf2 or rfc3986")
	return cmd
}

func runFix(ctx context.Context, opts *fixOptions) error {
	p, err := canon.ParseProfile(opts.Profile)
	if err != nil {
		return usagef("fix: --profile %q: want pdf, pdf2 or rfc3986", opts.Profile)
	}
	out := opts.Out
	if opts.InPlace {
		out = opts.File
	} else if out != "" && sameFile(out, opts.File) {
		return usagef("fix: -o %s is the input file: use --in-place to replace it", out)
	}
	orig, err := os.ReadFile(opts.File)
	if err != nil {
		return &ioError{fmt.Errorf("fix: %w", err)}
	}
	d, err := pdfio.ReadBytes(orig, opts.File, pdfio.Options{})
	if err != nil {
		return &ioError{fmt.Errorf("fix: %w", err)}
	}
	plan, err := repair.NewPlan(d, p)
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
	if plan.Empty() {
		fmt.Fprintf(w, "%s: nothing to fix; nothing written\n", displayInput(opts.File))
		return remaining(w, d, p, opts.File)
	}
	if opts.DryRun {
		fmt.Fprintf(w, "%s: %s planned (dry run: nothing written)\n", displayInput(opts.File), plural(len(plan.Changes), "repair"))
		return nil
	}
	fixed, err := plan.Apply(orig, opts.File)
	if err != nil {
		return &ioError{fmt.Errorf("fix: %s: %w", opts.File, err)}
	}
	if err := writeAtomically(out, fixed); err != nil {
		return &ioError{fmt.Errorf("fix: %w", err)}
	}
	fmt.Fprintf(w, "%s: %s written to %s (%d bytes appended; the original %d bytes are unchanged)\n",
		displayInput(opts.File), plural(len(plan.Changes), "repair"), displayInput(out), len(fixed)-len(orig), len(orig))
	d2, err := pdfio.ReadBytes(fixed, out, pdfio.Options{})
	if err != nil {
		return &ioError{fmt.Errorf("fix: reading the result back: %w", err)}
	}
	return remaining(w, d2, p, out)
}

// remaining audits d and reports the errors left, if any.
func remaining(w io.Writer, d *pdfio.Document, p *canon.Profile, name string) error {
	count := errorCounts(d, p)
	if len(count) == 0 {
		fmt.Fprintf(w, "%s: audits with no error\n", displayInput(name))
		return nil
	}
	rules := make([]string, 0, len(count))
	for r, n := range count {
		rules = append(rules, fmt.Sprintf("%s (%d)", r, n))
	}
	sort.Strings(rules)
	fmt.Fprintf(w, "%s: errors remain: %s; see webcap audit\n", displayInput(name), strings.Join(rules, ", "))
	return errFailed
}

// errorCounts audits d and counts its error findings by rule.
func errorCounts(d *pdfio.Document, p *canon.Profile) map[string]int {
	count := map[string]int{}
	for _, f := range audit.Check(d, audit.Options{Profile: p}) {
		if f.Severity == audit.Serious {
			count[f.Rule]++
		}
	}
	return count
}

func where(c repair.Change) string {
	if c.Object.IsZero() {
		return ""
	}
	return " object " + c.Object.String()
}

func sameFile(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// writeAtomically writes data to a temporary file beside path and renames it
// over path, so that path is either the old file or the whole new one.
func writeAtomically(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
