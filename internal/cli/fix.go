package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/pdfio"
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

An object the cross-reference data lists is never dropped because it
cannot be read: it is looked for near its offset (as qpdf does) and read
from there. When a tree node or value still cannot be read (an unclosed
string, bytes that are not an object), rebuilding its tree would lose it
and the keys under it: fix reports it ("loss:", the tree, the objects, the
keys read and kept) and refuses, writing nothing, with exit status 1 (with
--dry-run too). --allow-loss rebuilds the tree from what can be read,
dropping the rest, and says what was lost. A key whose value does not
exist at all holds nothing, and is dropped. Before anything is written,
the result is read back: a tree with fewer readable keys than planned is
an error, and nothing is written.

A URLS key is never rewritten to a key that another key is or becomes when
the two lead to different content sets: such a collision is reported
("collision:", both keys quoted byte for byte, with their sets), those keys
are left as written, and the exit status is 1, with --dry-run too. Keys
that canonicalize to one key and lead to the same sets are merged.

Each repair is a line ("fix: RULES object N G R: what"), as is each
repair left alone, collision and loss; the first 10 of each kind and rules
are shown, then one line for each with the count of the rest, sorted:
  fix: RULES: N more not shown (--verbose or --json lists every one)
--verbose shows every line; --json always holds them all.

The repair is an incremental update: the original bytes stay exactly as
they are (a signature stays valid) and the changes are appended. The input
is never changed unless --in-place is given; the output is written to a
temporary file and renamed. The result is audited again.

With --json, one JSON document (schema: webcap help schema fix):
  {"schema": "webcap.fix/1", "input", "output", "dryRun",
   "repairs": [{"rules", "object", "message"}], "leftAlone": [...],
   "collisions": [{"key", "keys": [{"key", "setObjects"}]}],
   "losses": [{"tree", "objects", "keysRead", "keysKept", "keysLost",
     "nodesLost", "dropped", "message"}], "refused",
   "appendedBytes", "auditErrors"}

The file must be a regular file no larger than --max-file-size; reading,
planning and writing run under one deadline, --timeout, and one memory
ceiling, --max-memory: past either, nothing is written (exit 4).

Exit status: 0 when the result has no error finding, 1 when errors or
collisions remain or a loss is refused, 3 when the file cannot be read or written, 4 when it is
not a PDF, too damaged to parse, or passes a limit, 2 for a usage error.`,
		Example: `  $ webcap fix damaged.pdf -o repaired.pdf
  $ webcap fix --dry-run damaged.pdf
  $ webcap fix --dry-run --verbose damaged.pdf    # every repair, not 10 per rule
  $ webcap fix --in-place --profile pdf2 capture.pdf
  $ webcap fix --dry-run --json damaged.pdf | jq '.repairs[].message'
  $ webcap fix --timeout 30s --max-file-size 100MB upload.pdf -o repaired.pdf`,
		Args: cobra.ExactArgs(1),
		RunE: runner(opts, runF, inBand(bounded(runFix)), func(args []string) error {
			opts.File = args[0]
			if err := opts.limitFlags.check("fix"); err != nil {
				return err
			}
			if opts.DryRun && (opts.Out != "" || opts.InPlace) {
				return usagef("fix: --dry-run writes nothing: drop -o and --in-place")
			}
			return opts.outputFlags.flags("fix", true, !opts.DryRun)
		}),
	}
	opts.outputFlags.add(cmd, "write the repaired file to `OUT.pdf`", true)
	f := cmd.Flags()
	f.Lookup("force").Usage = "replace -o's file if it exists"
	f.BoolVar(&opts.DryRun, "dry-run", false, "print the repairs without writing anything")
	f.BoolVar(&opts.JSON, "json", false, "print the repairs and the result as JSON")
	f.BoolVarP(&opts.Verbose, "verbose", "v", false, "show every repair, not the first 10 of each rule")
	f.BoolVar(&opts.AllowLoss, "allow-loss", false, "rebuild a tree that holds a node or value that cannot be read, dropping it and the keys under it (else nothing is written)")
	addProfileFlag(cmd, &opts.Profile, canon.PDF, "canonicalization for URLS keys: pdf, pdf2 or rfc3986")
	opts.passwordFlags.add(cmd)
	opts.limitFlags.addReadLimits(cmd)
	return cmd
}

type fixOptions struct {
	IO *IOStreams
	outputFlags
	passwordFlags
	limitFlags
	DryRun    bool
	JSON      bool
	Verbose   bool // every line in the text, not the first perRule of each rule
	AllowLoss bool
	Profile   *canon.Profile
	File      string
}

func (o *fixOptions) bounds() (*limitFlags, string, []string) {
	return &o.limitFlags, "fix", []string{o.File}
}

func runFix(ctx context.Context, opts *fixOptions) error {
	r := &runFiles{inPlace: opts.File}
	r.input("", opts.File, opts.IO)
	r.input("--password-file", opts.PasswordFile, opts.IO)
	r.output("-o", opts.Out)
	if err := r.check("fix"); err != nil {
		return err
	}
	if err := opts.outputFlags.check("fix", opts.IO, opts.File); err != nil {
		return err
	}
	out := opts.target(opts.File)
	orig, err := opts.readFile("fix", opts.File)
	if err != nil {
		return err
	}
	if err := opts.resolve("fix", opts.IO); err != nil {
		return err
	}
	u, d, err := opts.open(ctx, orig)
	if err != nil {
		return err
	}
	plan, err := repair.NewPlanWith(d, repair.Options{Profile: opts.Profile, AllowLoss: opts.AllowLoss, Context: ctx})
	if err != nil && ctx.Err() != nil {
		return stopError(ctx, "fix", opts.File) // nothing written
	}
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		return stopError(ctx, "fix", opts.File) // nothing written
	}
	if opts.JSON {
		return fixJSON(ctx, opts, u, orig, d, plan, out)
	}
	w := opts.summary(opts.IO)
	writePlan(w, plan, opts.Verbose)
	if plan.Refused() {
		fmt.Fprintf(w, "%s: nothing written: a tree would lose what cannot be read\n", displayInput(opts.File))
		return refused(opts, plan)
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
	fixed, err := plan.ApplyTo(u)
	if err != nil {
		return fileError("fix", opts.File, err)
	}
	if ctx.Err() != nil {
		return stopError(ctx, "fix", opts.File) // nothing written
	}
	release := holdStop(ctx) // the output is written whole, or not at all
	d2, err := opts.put(u, plan, fixed)
	release()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s: %s written to %s (%d bytes appended; the original %d bytes are unchanged)%s\n",
		displayInput(opts.File), plural(len(plan.Changes), "repair"), displayOutput(out), len(fixed)-len(orig), len(orig), collided)
	verdict := writeVerdict(w, out, summarize(d2, opts.Profile))
	if err := collisions(opts, plan); err != nil {
		return err
	}
	return verdict
}

// writePlan writes the repairs planned, those left alone, the collisions
// and the losses, a line each: the first perRule of each kind and rules,
// then the count of the rest (all of them with verbose).
func writePlan(w io.Writer, plan *repair.Plan, verbose bool) {
	limit := newRuleLimit(verbose)
	line := func(group, rest string) {
		if limit.show(group) {
			fmt.Fprintf(w, "%s%s\n", group, rest)
		}
	}
	for _, c := range plan.Changes {
		line("fix: "+strings.Join(c.Rules, ","), where(c)+": "+c.Message)
	}
	for _, c := range plan.Left {
		line("left alone: "+strings.Join(c.Rules, ","), where(c)+": "+c.Message)
	}
	for _, c := range plan.Collisions {
		line("collision: WC-URLS-CANONICAL", ": "+c.String())
	}
	for _, l := range plan.Losses {
		line("loss: WC-DANGLING", ": "+l.String())
	}
	limit.eachHidden(func(group string, n int) {
		fmt.Fprintf(w, "%s: %s\n", group, notShown(n, "one", "--json"))
	})
}

// fixJSON does what runFix does once the repairs are planned, and prints
// them and the result as one JSON document: collisions are in it, and
// fail the command as they do in plain text.
func fixJSON(ctx context.Context, opts *fixOptions, u *pdfio.Update, orig []byte, d *pdfio.Document, plan *repair.Plan, out string) error {
	s := fixSummary{Schema: schemaName("fix"), Input: opts.File, DryRun: opts.DryRun, Repairs: repairsJSON(plan.Changes),
		Left: repairsJSON(plan.Left), Collisions: []collisionJSON{}, Losses: lossesJSON(plan.Losses), Refused: plan.Refused()}
	for _, c := range plan.Collisions {
		cj := collisionJSON{Key: bytesJSON(c.Key), Keys: []collidingKeyJSON{}}
		for _, k := range c.Keys {
			kj := collidingKeyJSON{Key: bytesJSON(k.Key), SetObjects: []string{}}
			for _, r := range k.Sets {
				kj.SetObjects = append(kj.SetObjects, r.String())
			}
			cj.Keys = append(cj.Keys, kj)
		}
		s.Collisions = append(s.Collisions, cj)
	}
	switch {
	case s.Refused: // nothing written
		s.Errors = summarize(d, opts.Profile).Count(audit.Serious)
		if err := writeJSON(opts.summary(opts.IO), s); err != nil {
			return err
		}
		return refused(opts, plan)
	case plan.Empty() && len(plan.Collisions) == 0: // nothing to fix: the verdict is the input's
		s.Errors = summarize(d, opts.Profile).Count(audit.Serious)
	case plan.Empty(), opts.DryRun:
	default:
		fixed, err := plan.ApplyTo(u)
		if err != nil {
			return fileError("fix", opts.File, err)
		}
		if ctx.Err() != nil {
			return stopError(ctx, "fix", opts.File) // nothing written
		}
		release := holdStop(ctx) // the output is written whole, or not at all
		d2, err := opts.put(u, plan, fixed)
		release()
		if err != nil {
			return err
		}
		s.Output, s.Appended = out, len(fixed)-len(orig)
		s.Errors = summarize(d2, opts.Profile).Count(audit.Serious)
	}
	w := opts.summary(opts.IO)
	if len(plan.Collisions) > 0 {
		if err := writeJSON(w, s); err != nil {
			return err
		}
		return errFailed
	}
	return jsonVerdict(w, s, s.Errors)
}

// open parses the file once, for the plan (its document) and for the
// update that writes the repairs; a file that can be read but not updated
// (encrypted) fails only when the update is written.
func (opts *fixOptions) open(ctx context.Context, orig []byte) (*pdfio.Update, *pdfio.Document, error) {
	po := opts.pdfOptions(ctx)
	po.Password = opts.get()
	u, err := pdfio.OpenUpdate(orig, opts.File, po)
	if err != nil && opts.retry(err, opts.File) {
		po.Password = opts.get()
		u, err = pdfio.OpenUpdate(orig, opts.File, po)
	}
	if err != nil {
		return nil, nil, readError("fix", sayFlag(err))
	}
	d, err := u.Document()
	if err != nil {
		return nil, nil, readError("fix", err)
	}
	return u, d, nil
}

// put reads the repaired file back, from the parse of the input and the
// update (pdfio.Update.Result) rather than from scratch, checks that its
// trees hold every readable key the plan writes (repair.Plan.Check), and
// only then writes it.
func (opts *fixOptions) put(u *pdfio.Update, plan *repair.Plan, fixed []byte) (*pdfio.Document, error) {
	d, err := u.Result(fixed, opts.target(opts.File))
	if d, err = readBack("fix", d, err); err != nil {
		return nil, err
	}
	if err := plan.Check(d); err != nil {
		fmt.Fprintf(opts.IO.ErrOut, "webcap: fix: %s: %v; nothing written\n", displayInput(opts.File), err)
		return nil, errFailed
	}
	if err := opts.outputFlags.put("fix", opts.IO, opts.File, fixed); err != nil {
		return nil, err
	}
	return d, nil
}

// refused fails the command when a tree would lose what cannot be read and
// --allow-loss was not given, and says so on stderr: the file, the tree,
// the objects and the counts.
func refused(opts *fixOptions, plan *repair.Plan) error {
	for _, l := range plan.Losses {
		if !l.Dropped {
			fmt.Fprintf(opts.IO.ErrOut, "webcap: fix: %s: %s; nothing written (--allow-loss drops it)\n", displayInput(opts.File), l)
		}
	}
	return errFailed
}

func lossesJSON(ls []repair.Loss) []lossJSON {
	out := []lossJSON{}
	for _, l := range ls {
		lj := lossJSON{Tree: l.Tree, Objects: []string{}, Read: l.Read, Kept: l.Kept, Lost: l.Lost, Nodes: l.Nodes, Dropped: l.Dropped, Message: l.String()}
		for _, o := range l.Objects {
			lj.Objects = append(lj.Objects, o.String())
		}
		out = append(out, lj)
	}
	return out
}

func repairsJSON(changes []repair.Change) []repairJSON {
	out := []repairJSON{}
	for _, c := range changes {
		r := repairJSON{Rules: orNoneOf(c.Rules), Message: c.Message}
		if !c.Object.IsZero() {
			r.Object = c.Object.String()
		}
		out = append(out, r)
	}
	return out
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
