package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/audit/batch"
	"github.com/webcap/webcap/htmlreport"
	"github.com/webcap/webcap/internal/limits"
	"github.com/webcap/webcap/internal/workers"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// One file audited alone: in this process (--in-process), or in a worker
// process (the hidden audit-worker command) that a hostile file can hang,
// crash or blow up without taking the others with it. A worker audits many
// files, one at a time: the pool (internal/workers) replaces it after a
// crash, a time limit passed, --max-memory passed, or --restart-after
// files.

// auditFile reads and checks one file in this process, under --timeout
// (for this file) and ctx (the run's memory ceiling, an interrupt).
func auditFile(ctx context.Context, path string, opts *auditOptions) fileJSON {
	r := fileJSON{Input: path, Findings: []findingJSON{}}
	ctx, cancel := limits.Deadline(ctx, opts.Timeout, timeoutFlag)
	defer cancel()
	var src webcapture.AuxSource
	if opts.Sources != "" {
		var err error
		if src, err = opts.sources.load(ctx, opts.Sources, opts.Profile, opts.confined(), int64(opts.MaxFileSize)); err != nil {
			r.Error = newErrorJSON(sayFlag(err))
			r.Error.Message = "sources: " + err.Error()
			return r
		}
	}
	d, err := opts.open(path, opts.pdfOptions(ctx))
	if err != nil {
		r.Error = newErrorJSON(err)
		var pe *pdfio.Error
		if errors.As(err, &pe) {
			r.Error.Message = pe.Err.Error()
		}
		return r
	}
	collectAfterRead(d)
	aopts := audit.Options{Profile: opts.Profile, Sources: src, Context: ctx}
	closeFile, err := opts.trustFlags.apply(path, &aopts)
	if err != nil {
		r.Error = newErrorJSON(err)
		return r
	}
	defer closeFile()
	sp := &batch.Spool{Dir: opts.spoolDir, Limit: opts.SpoolLimit, First: perRule}
	var verdicts []audit.Finding // what the report's sets show (htmlreport.Describe)
	for f := range audit.Findings(d, aopts) {
		if err := sp.Add(f); err != nil {
			break // said by Close
		}
		if opts.Sets && (strings.HasPrefix(f.Rule, "WC-SOURCE-") || strings.HasPrefix(f.Rule, "WC-EMBED-")) {
			verdicts = append(verdicts, f)
		}
	}
	found, err := sp.Close()
	switch {
	case ctx.Err() != nil: // cut short: no verdict on the file
		found.Remove()
		r.Error = newErrorJSON(context.Cause(ctx))
		r.Error.Message = context.Cause(ctx).Error()
		return r
	case err != nil: // the spool could not be written: no verdict either
		found.Remove()
		r.Error = newErrorJSON(&ioError{err})
		r.Error.Message = err.Error()
		return r
	}
	if found.Spilled() {
		r.spooled = found
	} else {
		for _, f := range found.Held {
			r.Findings = append(r.Findings, findingJSONOf(f))
		}
	}
	if opts.Sets {
		r.Capture = htmlreport.Describe(d, verdicts, opts.Sources != "" || audit.Embedded(verdicts))
	}
	return r
}

// auditor audits the files of one run: in this process, or in a pool of
// --jobs workers.
type auditor struct {
	opts *auditOptions
	pool *workers.Pool // nil: in this process
}

func newAuditor(opts *auditOptions) *auditor {
	a := &auditor{opts: opts}
	if opts.InProcess {
		return a
	}
	exe, err := childProgram()
	if err != nil {
		a.opts.InProcess = true // no program to run: no isolation
		return a
	}
	args := []string{os.Args[0], // so that a multi-call binary (the tests') runs webcap
		"audit-worker", "--profile", opts.Profile.String(), "--timeout", opts.Timeout.String(),
		"--max-memory", strconv.FormatInt(int64(opts.MaxMemory), 10),
		"--max-file-size", strconv.FormatInt(int64(opts.MaxFileSize), 10),
		"--" + spoolFlag, strconv.Itoa(opts.SpoolLimit), "--spool-dir", opts.spoolDir}
	if opts.Sets {
		args = append(args, "--sets")
	}
	args = append(args, opts.trustFlags.args()...)
	if opts.Sources != "" {
		args = append(args, "--sources", opts.Sources)
		if opts.AllowOutside {
			args = append(args, "--allow-outside")
		}
	}
	a.pool = workers.New(workers.Config{
		Path: exe, Args: args,
		Env: childEnv(""), // the password goes with each file, on the pipe
		// The worker stops its own parse at the time limit and reports it;
		// the kill, a little later, is for a worker that cannot.
		Timeout:   opts.Timeout + childGrace,
		Recycle:   opts.RestartAfter,
		MaxMemory: int64(opts.MaxMemory),
	}, opts.Jobs)
	return a
}

func (a *auditor) close() {
	if a.pool != nil {
		a.pool.Close()
	}
}

// audit audits one file.
func (a *auditor) audit(ctx context.Context, path string) fileJSON {
	if a.pool == nil {
		return auditFile(ctx, path, a.opts)
	}
	r := a.inWorker(ctx, path)
	// A worker cannot prompt for a password: this process does, once.
	if r.Error != nil && strings.HasSuffix(r.Error.Message, pdfio.ErrEncrypted.Error()) && a.opts.retry(pdfio.ErrEncrypted, path) {
		r = a.inWorker(ctx, path)
	}
	return r
}

// workerTask is a line audit sends its worker: a file, and the password,
// which ps does not show there. The file's name goes as its bytes (Path,
// base64): a name is bytes, and a JSON string would replace those that
// are not UTF-8 with U+FFFD, naming another file. Input, the name as
// text, is for a person reading the pipe, and for a task without Path.
type workerTask struct {
	Input    string `json:"input"`
	Path     []byte `json:"path,omitempty"`
	Password string `json:"password,omitempty"`
}

// file is the name of the task's file.
func (t *workerTask) file() string {
	if t.Path != nil {
		return string(t.Path)
	}
	return t.Input
}

func (a *auditor) inWorker(ctx context.Context, path string) fileJSON {
	task, err := json.Marshal(workerTask{Input: path, Path: []byte(path), Password: a.opts.get()})
	if err != nil {
		panic(err) // strings only
	}
	r := fileJSON{Input: path, Findings: []findingJSON{}}
	answer, err := a.pool.Do(ctx, task)
	var line workerAnswer
	var ce *workers.CrashError
	switch {
	case err == nil && json.Unmarshal(answer, &line) == nil && line.Input == asJSONText(path):
		line.Input = path // the name as given, bytes and all
		line.spooled = line.Spool
		return line.fileJSON
	case err == nil:
		r.Error = hostile("the reader gave no result")
	case errors.Is(err, workers.ErrTimeout):
		r.Error = hostile(fmt.Sprintf("reading took longer than %v; stopped", a.opts.Timeout))
	case errors.As(err, &ce) && ce.OutOfMemory:
		r.Error = hostile(fmt.Sprintf("reading took more memory than --max-memory %v; stopped", &a.opts.MaxMemory))
	case errors.As(err, &ce):
		r.Error = hostile(fmt.Sprintf("the reader failed (%v): %s", ce.Err, ce.Stderr))
	case ctx.Err() != nil:
		r.Error = &errorJSON{Message: "interrupted", Kind: "interrupted"} // not a finding about the file
	default:
		r.Error = unreadable(err.Error())
	}
	return r
}

// asJSONText is s as it comes back from a JSON string (encoding/json
// replaces each byte that is not UTF-8 with U+FFFD): how a worker's
// result names the file it was given.
func asJSONText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b, _ := json.Marshal(s)
	var t string
	_ = json.Unmarshal(b, &t)
	return t
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

// childProgram and childGrace are variables so that tests can stand in a
// worker that hangs or crashes.
var (
	childProgram = os.Executable
	childGrace   = 2 * time.Second
)

// newAuditWorkerCmd is the hidden worker command: it reads tasks (a
// workerTask a line) on stdin, and prints each file's result as a line of
// audit --jsonl, until the end of stdin.
func newAuditWorkerCmd(ios *IOStreams, runF func(context.Context, *auditOptions) error) *cobra.Command {
	opts := &auditOptions{IO: ios}
	cmd := &cobra.Command{
		Use:     "audit-worker [flags]",
		Short:   "Audit the files named on stdin and print each result as a JSON line (used by audit)",
		Example: `  $ echo '{"input": "capture.pdf"}' | webcap audit-worker`,
		Hidden:  true,
		Args:    cobra.NoArgs,
		RunE:    runner(opts, runF, runAuditWorker, func([]string) error { return nil }),
	}
	addAuditFlags(cmd, opts)
	cmd.Flags().StringVar(&opts.spoolDir, "spool-dir", "", "the directory of the findings spilled (audit's)")
	return cmd
}

func runAuditWorker(ctx context.Context, opts *auditOptions) error {
	// One file at a time: the workers, not the threads of one, use the
	// CPUs; and each thread's stack counts against the memory limit.
	runtime.GOMAXPROCS(min(runtime.GOMAXPROCS(0), 2))
	if err := workers.LimitMemory(int64(opts.MaxMemory)); err != nil {
		return fmt.Errorf("audit-worker: --max-memory %v: %w", &opts.MaxMemory, err)
	}
	fault := parseFaults(os.Getenv(faultEnv))
	return workers.Serve(opts.IO.In, opts.IO.Out, func(line []byte) []byte {
		var task workerTask
		if err := json.Unmarshal(line, &task); err != nil {
			task.Input = string(line)
		}
		opts.st = &passwordState{pw: task.Password}
		if opts.sources == nil {
			opts.sources = &sourceCache{}
		}
		fault(task.file())
		r := auditFile(ctx, task.file(), opts)
		b, err := json.Marshal(workerAnswer{fileLineJSON{schemaName("audit-file"), r}, r.spilled()})
		if err != nil {
			panic(err)
		}
		return b
	})
}

// faultEnv names a variable, for tests only, that makes a worker fail on
// given files (by base name), as a hostile file could make it:
// "crash=a.pdf,hang=b.pdf,grow=c.pdf"; "block=p.pdf" opens p.pdf, a named
// pipe, as webcap never does (it refuses pipes before opening them), so
// that the worker waits there until the test opens the pipe's other end:
// a known point to kill the run at.
const faultEnv = "WEBCAP_TEST_WORKER_FAULTS"

func parseFaults(spec string) func(path string) {
	if spec == "" {
		return func(string) {}
	}
	faults := map[string]string{}
	for _, f := range strings.Split(spec, ",") {
		what, file, _ := strings.Cut(f, "=")
		faults[file] = what
	}
	return func(path string) {
		switch faults[filepath.Base(path)] {
		case "crash":
			fmt.Fprintln(os.Stderr, "fatal error: test fault")
			os.Exit(2)
		case "hang":
			// Wait for input audit never sends while a file is read:
			// --timeout kills the worker first.
			io.Copy(io.Discard, os.Stdin)
			os.Exit(3)
		case "block":
			if f, err := os.Open(path); err == nil {
				f.Close()
			}
		case "grow":
			var keep [][]byte
			for {
				b := make([]byte, 1<<20)
				for i := range b {
					b[i] = 1
				}
				keep = append(keep, b)
			}
		}
	}
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
