package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/webcap/webcap/internal/browsertest"
	"github.com/webcap/webcap/internal/hostile"
)

// slowEnv turns on the hostile cases that take long (the gated slow step).
const slowEnv = "WEBCAP_SLOW_TESTS"

// hungAfter is when a child that has not exited is killed and its case
// failed: a case blocked in the kernel (a FIFO, a socket) takes no CPU, so
// its CPU bound alone would never catch it. It is no time budget: every
// case is meant to end within seconds.
const hungAfter = 2 * time.Minute

// TestHostile runs the hostile-input suite (internal/hostile): each case
// in a directory of its own, as a child process whose CPU time and peak
// memory the kernel measures (see measured); the verdict (exit status, output, what is
// left on disk) and the bounds must hold. `go test -run TestHostile -v`
// lists every case with its figures, beside what webcap did before, as a
// Markdown table.
func TestHostile(t *testing.T) {
	var (
		mu   sync.Mutex
		rows []string
	)
	for _, c := range hostile.Cases() {
		t.Run(string(c.Part)+"/"+c.Name, func(t *testing.T) {
			switch {
			case c.Slow && os.Getenv(slowEnv) != "1":
				t.Skipf("a slow case: set %s=1 to run it", slowEnv)
			case c.Browser && os.Getenv(browsertest.Env) != "1":
				t.Skipf("needs Chromium: set %s=1 to run it", browsertest.Env)
			}
			for _, prog := range c.Needs {
				if _, err := exec.LookPath(prog); err != nil {
					t.Skipf("needs %s, which is not installed: %v", prog, err)
				}
			}
			// A case judged by how soon it stops after a signal (a
			// wall-clock figure) runs alone: the parallel cases wait
			// until every serial one has run.
			if c.SignalWhen == "" {
				t.Parallel()
			}
			r := runCase(t, c)
			mu.Lock()
			rows = append(rows, fmt.Sprintf("| %s | %s | %s | exit %d, %.2f s CPU, %d MB (tree %d MB), %d B out |", c.Part, c.Name, strings.ReplaceAll(c.Before, "|", "/"), r.exit, r.cpu.Seconds(), r.rss>>20, r.tree>>20, r.out))
			mu.Unlock()
		})
	}
	t.Cleanup(func() {
		sort.Strings(rows)
		t.Logf("hostile cases:\n| part | case | before | now |\n|---|---|---|---|\n%s", strings.Join(rows, "\n"))
	})
}

type caseResult struct {
	exit   int
	cpu    time.Duration
	rss    int64
	tree   int64 // the process tree's peak (treeMemory)
	killed bool  // past hostile.KillTree
	out    int64
}

// beforeEnv names another webcap binary for TestHostile to run instead of
// itself: WEBCAP_HOSTILE_BEFORE=/path/to/old/webcap measures a case's
// Before with the suite's own servers and measurer.
const beforeEnv = "WEBCAP_HOSTILE_BEFORE"

func runCase(t *testing.T, c hostile.Case) caseResult {
	dir := t.TempDir()
	args, cleanup, err := c.Setup(dir)
	if errors.Is(err, hostile.ErrSkip) {
		t.Skipf("setup: %v", err)
	}
	if err != nil {
		t.Fatalf("setup: %v", err)
	}
	if cleanup != nil {
		t.Cleanup(cleanup)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hungAfter)
	defer cancel()
	figures := filepath.Join(t.TempDir(), "rusage")
	prog := "webcap"
	if p := os.Getenv(beforeEnv); p != "" {
		prog = p // measuring what another binary does (a case's Before)
	}
	var wrap []string
	if c.Wrap != nil {
		wrap = c.Wrap(dir)
	}
	cmd := exec.CommandContext(ctx, "rusage", append(append(wrap, prog), args...)...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), c.Env...), rusageEnv+"="+figures)
	cmd.Stdin = strings.NewReader(c.Stdin)
	if c.StdinFrom != nil {
		cmd.Stdin = c.StdinFrom() // exec copies it into a pipe until webcap stops reading
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	var stop *stopTimer
	var exited time.Time
	if err = cmd.Start(); err == nil {
		stop = signalWhen(t, c, dir, cmd.Process)
		err = cmd.Wait()
		exited = time.Now()
	}
	if ctx.Err() != nil {
		t.Fatalf("webcap %s: still running after %v (hung), killed", strings.Join(args, " "), hungAfter)
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("webcap %s: %v", strings.Join(args, " "), err)
	}
	r := caseResult{out: int64(stdout.Len() + stderr.Len())}
	b, err := os.ReadFile(figures)
	if err == nil {
		_, err = fmt.Sscan(string(b), &r.exit, &r.cpu, &r.rss, &r.tree, &r.killed)
	}
	if err != nil {
		t.Fatalf("webcap %s: no figures from the measurer: %v (exit %v)", strings.Join(args, " "), err, cmd.ProcessState)
	}
	show := func() string {
		return fmt.Sprintf("webcap %s\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), clip(stdout.String()), clip(stderr.String()))
	}
	if r.exit != c.Exit {
		t.Errorf("exit status %d, want %d\n%s", r.exit, c.Exit, show())
	}
	match := func(what, text string, res []string, want bool) {
		for _, re := range res {
			if regexp.MustCompile("(?m)"+re).MatchString(text) != want {
				verb := "does not match"
				if !want {
					verb = "matches"
				}
				t.Errorf("%s %s %q\n%s", what, verb, re, show())
			}
		}
	}
	match("stdout", stdout.String(), c.Stdout, true)
	match("stderr", stderr.String(), c.Stderr, true)
	match("stdout", stdout.String(), c.NotStdout, false)
	match("stderr", stderr.String(), c.NotStderr, false)
	if c.Check != nil {
		if err := c.Check(dir); err != nil {
			t.Errorf("after the run: %v\n%s", err, show())
		}
	}
	maxCPU, maxRSS := c.MaxCPU, c.MaxRSS
	if maxCPU == 0 {
		maxCPU = hostile.DefaultMaxCPU
	}
	if maxRSS == 0 {
		maxRSS = hostile.DefaultMaxRSS
	}
	if r.cpu > maxCPU {
		t.Errorf("took %v of CPU, more than %v", r.cpu, maxCPU)
	}
	if r.rss > maxRSS {
		t.Errorf("peak memory %d MB, more than %d MB", r.rss>>20, maxRSS>>20)
	}
	if r.killed {
		t.Errorf("its process tree took more than %d MB: killed", hostile.KillTree>>20)
	}
	if c.MaxTree > 0 && r.tree > c.MaxTree {
		t.Errorf("its process tree's peak memory %d MB, more than %d MB", r.tree>>20, c.MaxTree>>20)
	}
	stop.check(t, c, exited, show)
	if c.MaxOutput > 0 && r.out > c.MaxOutput {
		t.Errorf("wrote %d bytes of output, more than %d", r.out, c.MaxOutput)
	}
	return r
}

// rusageEnv names the file the measurer writes its figures to.
const rusageEnv = "WEBCAP_RUSAGE_FILE"

// measured is the test binary run as "rusage PROG ARGS...": it runs PROG
// (webcap, the test binary again) as its child with the same standard
// streams and writes the child's exit status, CPU time (user+system, ns)
// and peak resident set (bytes) to $WEBCAP_RUSAGE_FILE, from wait4's
// rusage, which counts the child's own waited-for children (audit's
// workers) too. The test process does not start webcap itself: Linux
// gives a new program the peak resident set of the process it was
// started from (exec keeps the larger), and the test process is large;
// this small one is the baseline instead. The child dies with it
// (Pdeathsig), so a case killed as hung leaves nothing behind.
func measured() int {
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	// A TERM or an INT sent to the measurer (a case's Signal) is the
	// child's.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	err := cmd.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "rusage:", err)
		return 125
	}
	done := make(chan struct{})
	go func() {
		for s := range sigs {
			cmd.Process.Signal(s)
		}
	}()
	peak, killed := watchTree(cmd.Process.Pid, hostile.KillTree, done)
	err = cmd.Wait()
	close(done)
	tree := <-peak
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		fmt.Fprintln(os.Stderr, "rusage:", err)
		return 125
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu := ru.Utime.Nano() + ru.Stime.Nano()
	figures := fmt.Sprintf("%d %d %d %d %t\n", cmd.ProcessState.ExitCode(), cpu, ru.Maxrss<<10, tree, *killed) // Maxrss: kilobytes on Linux
	if err := os.WriteFile(os.Getenv(rusageEnv), []byte(figures), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "rusage:", err)
		return 125
	}
	return cmd.ProcessState.ExitCode()
}

// clip keeps the start and the end of a long output for a failure message.
func clip(s string) string {
	const n = 2000
	if len(s) <= 2*n {
		return s
	}
	return s[:n] + fmt.Sprintf("\n… (%d bytes) …\n", len(s)-2*n) + s[len(s)-n:]
}

// TestHostileInitSmall: every process of this test binary inits
// internal/hostile, each webcap a hostile case runs among them, so what
// the package makes at init is in every case's CPU and memory (and under
// its --max-memory). Large inputs are made when a case runs (its Setup,
// serveMade). Before: 60 MB and 0.45-0.7 s at init (two capture cases'
// servers' bodies), which made capture-max-memory and
// capture-cpu-still-site fail on a slower machine.
func TestHostileInitSmall(t *testing.T) {
	const most = 4 << 20
	cmd := exec.Command("webcap", "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("webcap version: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`(?m)^init github\.com/webcap/webcap/internal/hostile @\S+ ms, \S+ ms clock, (\d+) bytes`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("GODEBUG=inittrace=1 webcap version: no line for internal/hostile's init:\n%s", out)
	}
	var n int64
	fmt.Sscan(string(m[1]), &n)
	if n > most {
		t.Errorf("internal/hostile's init allocates %d bytes, more than %d: make large inputs in the case's Setup", n, most)
	}
}
