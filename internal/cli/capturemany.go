package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/webcap/webcap/audit/batch"
	"github.com/webcap/webcap/capture"
	"github.com/webcap/webcap/internal/workers"
	"github.com/webcap/webcap/seeds"
	"github.com/webcap/webcap/shard"
)

// capture --urls-from: a list of seeds, each into its own PDF (and WARC)
// in --out-dir, by the seeds package; this file only parses and prints.

// manyFlags are capture's flags for a list of seeds.
type manyFlags struct {
	From    string // --urls-from LIST ("-": stdin)
	OutDir  string
	Shard   string
	Resume  bool
	JSONL   bool
	Ordered bool // --jsonl in list order
	Workers int

	shard      shard.Shard
	workerArgs []string // the command's flags that the workers are given (workerFlags)
}

// manyOnly are the flags of the parent alone: the workers get the others.
var manyOnly = map[string]bool{"urls-from": true, "shard": true, "jsonl": true, "ordered": true, "workers": true, "progress": true}

func (m *manyFlags) add(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&m.From, "urls-from", "", "capture each seed of the list `LIST` (\"-\": stdin; a URL a line, then its own --levels, --same-site, --same-path, --max-pages) into its own PDF in --out-dir")
	f.StringVar(&m.OutDir, "out-dir", "", "with --urls-from: write each seed's NAME.pdf in `DIR` (made if absent; NAME is the seed's host and path and a hash of it); --warc DIR writes NAME.warc.gz there")
	f.StringVar(&m.Shard, "shard", "", "with --urls-from: capture shard `I/N` of the list only (0-based, by the FNV-1a hash of the seed as written, as audit's)")
	f.BoolVar(&m.Resume, "resume", false, "with --urls-from: keep the seeds whose outputs are complete and audit with no error; capture the others again")
	f.BoolVar(&m.JSONL, "jsonl", false, "with --urls-from: print a JSON line per seed (seed, outputs, status, pages, sets, skips, errors, exit), as each is done")
	f.BoolVar(&m.Ordered, "ordered", false, "with --urls-from --jsonl, print the seeds' lines in list order, not as each seed is done")
	f.IntVar(&m.Workers, "workers", 1, "with --urls-from: capture `N` seeds at once, each worker process with its own Chromium")
}

// listFlags are the flags of a list of seeds that mean nothing without
// one, in the order they are said.
var listFlags = []string{"out-dir", "shard", "resume", "jsonl", "ordered", "workers"}

// checkNoList is a usage error for a flag of a list of seeds given
// without --urls-from: it would do nothing.
func checkNoList(f *pflag.FlagSet) error {
	for _, name := range listFlags {
		if f.Changed(name) {
			return usagef("capture: --%s is for a list of seeds: give --urls-from LIST", name)
		}
	}
	return nil
}

// workerFlags are the flags of the command line f parsed that its
// workers are given: every one set, as --name=value, but the parent's own.
func workerFlags(f *pflag.FlagSet) []string {
	var args []string
	f.Visit(func(f *pflag.Flag) {
		if !manyOnly[f.Name] {
			args = append(args, "--"+f.Name+"="+f.Value.String())
		}
	})
	return args
}

// checkMany checks capture's flags with --urls-from.
func checkMany(opts *captureOptions, args []string) error {
	m := &opts.many
	switch {
	case len(args) > 0:
		return usagef("capture: --urls-from %s: the URLs are the list's, not arguments (%s)", displayInput(m.From), displayInput(args[0]))
	case m.OutDir == "":
		return usagef("capture: --urls-from needs --out-dir DIR, where each seed's PDF is written")
	case opts.Out != "":
		return usagef("capture: --urls-from writes a PDF per seed in --out-dir: no -o")
	case opts.JSON:
		return usagef("capture: --urls-from: --jsonl prints a JSON line per seed (--json is one capture's summary)")
	case opts.Post != "" || opts.Submit:
		return usagef("capture: --urls-from: --post and --submit are for start URLs given as arguments")
	case opts.sealFlags.asked() || opts.embed.EmbedWARC:
		return usagef("capture: --urls-from: sealing and --embed-warc are not done per seed (seal each PDF afterwards)")
	case m.Workers < 1:
		return usagef("capture: --workers %d: at least one", m.Workers)

	case opts.Levels < 1:
		return usagef("capture: --levels %d: 1 captures the start pages only", opts.Levels)
	case opts.Jobs < 1:
		return usagef("capture: --jobs %d: render at least one page at a time", opts.Jobs)
	}
	if err := checkOrdered("capture", m.Ordered, m.JSONL); err != nil {
		return err
	}
	if m.Shard != "" {
		s, err := shard.Parse(m.Shard)
		if err != nil {
			return usagef("capture: --%v", err)
		}
		m.shard = s
	}
	return opts.fetchFlags.check("capture")
}

// manyConfig is the seeds package's configuration from the flags.
func (o *captureOptions) manyConfig() seeds.Config {
	co, _ := o.crawl("capture")
	co.Progress = nil
	return seeds.Config{Dir: o.many.OutDir, WARCDir: o.WARC, Resume: o.many.Resume, Force: o.Force, Capture: co,
		Timeout: o.Timeout, MaxMemory: int64(o.MaxMemory),
		WARC: capture.WARCInfo{Software: "webcap/" + buildVersion().Version, Command: "webcap capture", KeepCredentials: o.WARCKeepCreds}}
}

func runCaptureMany(ctx context.Context, opts *captureOptions) error {
	m := &opts.many
	// The list is read and every seed's outputs checked before anything
	// is written; an interrupt meanwhile (a million seeds take seconds)
	// stops the command at once, nothing written.
	list, err := readSeeds(ctx, opts)
	if ctx.Err() != nil {
		return stopError(ctx, "capture", "")
	} else if err != nil {
		return err
	}
	makeDirs, err := outDirs(m.OutDir, opts.WARC)
	if err != nil {
		return err
	}
	cfg := opts.manyConfig()
	// Every seed's outputs are checked before a worker or its Chromium
	// starts: a list captured once, run again without --resume, fails
	// at once, not seed by seed.
	if err := cfg.Writable(ctx, m.From, list); ctx.Err() != nil {
		return stopError(ctx, "capture", "")
	} else if err != nil {
		var oe *seeds.OutputError
		if errors.As(err, &oe) { // as capture -o FILE that exists
			return usagef("capture: --urls-from %v", err)
		}
		return &ioError{fmt.Errorf("capture: --urls-from %w", err)}
	}
	if err := makeDirs(); err != nil {
		return err
	}
	do, stop := opts.seedWorkers(ctx, &cfg)
	defer stop()
	// A seed's progress line is said as it is done; its --jsonl line as
	// batch.Run gives it (in list order with --ordered, as audit's).
	var (
		mu   sync.Mutex
		done atomic.Int64
	)
	progress := opts.mode(opts.IO, progressPlain) != progressNone
	said := func(ctx context.Context, s seeds.Seed) seeds.Result {
		r := do(ctx, s)
		if r.Status != seeds.Interrupted {
			n := done.Add(1)
			if progress {
				mu.Lock()
				fmt.Fprintf(opts.IO.ErrOut, "capture: [%d/%d] %s\n", n, len(list), seedLine(r))
				mu.Unlock()
			}
		}
		return r
	}
	enc := json.NewEncoder(opts.IO.Out)
	exit := seeds.Run(ctx, list, batch.RunOptions{Jobs: m.Workers, Unordered: !m.Ordered}, said, func(r seeds.Result) {
		if m.JSONL {
			_ = enc.Encode(seedLineJSON{schemaName("capture-seed"), r})
		}
	})
	if exit == 130 {
		fmt.Fprintf(opts.IO.ErrOut, "webcap: capture: %v: %d of the %s done, %d not (--resume keeps those done)\n",
			context.Cause(ctx), done.Load(), plural(len(list), "seed"), int64(len(list))-done.Load())
	}
	return manyExit(ctx, exit, len(list))
}

// seedLineJSON is a line of capture --urls-from --jsonl: what became of
// a seed.
type seedLineJSON struct {
	Schema string `json:"schema"` // webcap.capture-seed/1
	seeds.Result
}

// readSeeds reads --urls-from's seeds of the shard.
func readSeeds(ctx context.Context, opts *captureOptions) ([]seeds.Seed, error) {
	m := &opts.many
	var r io.Reader = opts.IO.In
	if m.From != "-" {
		f, err := os.Open(m.From)
		if err != nil {
			return nil, &ioError{fmt.Errorf("capture: --urls-from: %w", err)}
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil && fi.IsDir() {
			return nil, usagef("capture: --urls-from %s: a directory, not a list", displayInput(m.From))
		}
		r = f
	}
	list, err := seeds.Read(r, m.From, seeds.ReadOptions{Shard: m.shard, Profile: opts.Profile, Context: ctx})
	var le *seeds.LineError
	if errors.As(err, &le) && le.Line > 0 || errors.Is(err, seeds.ErrNoSeed) {
		return nil, usagef("capture: --urls-from %v", err)
	} else if err != nil {
		return nil, &ioError{fmt.Errorf("capture: --urls-from %w", err)}
	}
	return list, nil
}

// outDirs checks the directories outputs go to (each one already, or
// absent) and returns the func that makes those absent, called once
// nothing more is checked: a command stopped before writes nothing.
func outDirs(dirs ...string) (func() error, error) {
	var absent []string
	for _, dir := range dirs {
		if dir == "" {
			continue
		}
		fi, err := os.Stat(dir)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			absent = append(absent, dir)
		case err != nil:
			return nil, &ioError{fmt.Errorf("capture: %w", err)}
		case !fi.IsDir():
			return nil, usagef("capture: %s: not a directory (--out-dir and, with --urls-from, --warc name directories)", displayOutput(dir))
		}
	}
	return func() error {
		for _, dir := range absent {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return &ioError{fmt.Errorf("capture: %w", err)}
			}
		}
		return nil
	}, nil
}

// seedWorkers is how each seed is captured: in a worker process (the
// hidden capture-worker command) per --workers, each with its Chromium.
func (o *captureOptions) seedWorkers(ctx context.Context, cfg *seeds.Config) (func(context.Context, seeds.Seed) seeds.Result, func()) {
	exe, err := childProgram()
	if err != nil { // no program to run: one Chromium, in this process, a seed at a time
		c := &seeds.Capturer{Config: *cfg, Browser: o.seedBrowser}
		var mu sync.Mutex
		return func(ctx context.Context, s seeds.Seed) seeds.Result {
			mu.Lock()
			defer mu.Unlock()
			return c.Do(ctx, s)
		}, c.Close
	}
	args := append([]string{os.Args[0], "capture-worker"}, o.many.workerArgs...)
	pool := workers.New(workers.Config{Path: exe, Args: args, Env: childEnv(""),
		// A seed stops its own crawl at --timeout; the kill, later, is for
		// a worker that cannot.
		Timeout: o.Timeout + o.PageTimeout + childGrace,
		// The worker stops a crawl past --max-memory itself
		// (limits.WatchMemory); the kill is for one that cannot. Its
		// Chromium has --browser-memory.
		MaxMemory: int64(o.MaxMemory),
	}, o.many.Workers)
	return seeds.Pool(pool, cfg), func() { pool.Close() }
}

// seedBrowser starts a seed worker's Chromium.
func (o *captureOptions) seedBrowser(ctx context.Context) (*capture.Browser, error) {
	exe, err := capture.FindChromium(o.Chromium)
	if err != nil {
		return nil, err
	}
	return capture.NewBrowser(context.WithoutCancel(ctx), exe, capture.BrowserOptions{NoSandbox: o.NoSandbox, Memory: int64(o.BrowserMemory)})
}

// seedLine is a seed's progress line.
func seedLine(r seeds.Result) string {
	s := fmt.Sprintf("%s: %s", displayInput(r.Seed), r.Status)
	switch r.Status {
	case seeds.Captured, seeds.Kept:
		s += fmt.Sprintf(", %s, %s in %s", plural(r.Sets, "page set"), plural(r.Pages, "PDF page"), displayOutput(r.PDF))
	}
	if r.Skips > 0 {
		s += ", " + plural(r.Skips, "URL") + " skipped"
	}
	if r.Message != "" {
		s += ": " + r.Message
	}
	return s
}

// manyExit is the run's error from its worst seed's exit status.
func manyExit(ctx context.Context, exit, n int) error {
	switch exit {
	case 0:
		return nil
	case 130:
		var in *interrupted
		if errors.As(context.Cause(ctx), &in) {
			return &interrupted{in.sig, true}
		}
		return &interrupted{os.Interrupt, true}
	case 3:
		return &ioError{fmt.Errorf("capture: some of the %s could not be written, or Chromium failed", plural(n, "seed"))}
	case 4:
		return &invalidError{errFailed} // a seed stopped by --max-memory: its line says
	}
	return errFailed
}

// newCaptureWorkerCmd is the hidden worker of capture --urls-from: it
// reads seeds (a JSON line each) on stdin, captures each with its own
// Chromium, and prints each seed's result as a JSON line.
func newCaptureWorkerCmd(ios *IOStreams, runF func(context.Context, *captureOptions) error) *cobra.Command {
	opts := &captureOptions{IO: ios}
	cmd := &cobra.Command{
		Use:     "capture-worker [flags]",
		Short:   "Capture the seeds given on stdin, each into its own PDF (used by capture --urls-from)",
		Example: `  $ echo '{"seed": "https://example.com/", "line": 1}' | webcap capture-worker --out-dir out`,
		Hidden:  true,
		Args:    cobra.NoArgs,
		RunE: runner(opts, runF, runCaptureWorker, func([]string) error {
			if opts.many.OutDir == "" {
				return usagef("capture-worker: --out-dir is needed")
			}
			return nil
		}),
	}
	captureFlags(cmd, opts, false)
	opts.many.add(cmd)
	return cmd
}

func runCaptureWorker(ctx context.Context, opts *captureOptions) error {
	c := &seeds.Capturer{Config: opts.manyConfig(), Browser: opts.seedBrowser}
	return seeds.Serve(ctx, opts.IO.In, opts.IO.Out, c)
}
