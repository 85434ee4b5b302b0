package workers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// The test binary is its own worker when $WORKERS_TEST_WORKER is set: it
// answers "echo X" with "X PID", and can be told to crash, hang, or grow.
func TestMain(m *testing.M) {
	if os.Getenv("WORKERS_TEST_WORKER") == "1" {
		if err := LimitMemory(256 << 20); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		var keep [][]byte
		err := Serve(os.Stdin, os.Stdout, func(task []byte) []byte {
			switch t := string(task); {
			case t == "crash":
				fmt.Fprintln(os.Stderr, "fatal error: test crash")
				os.Exit(2)
			case t == "hang":
				// Wait for input the parent never sends (one task at a
				// time): the parent's time limit kills the worker first.
				io.Copy(io.Discard, os.Stdin)
				os.Exit(3)
			case t == "grow":
				for { // past the limit: the runtime dies
					b := make([]byte, 16<<20)
					for i := range b {
						b[i] = 1
					}
					keep = append(keep, b)
				}
			case strings.HasPrefix(t, "echo "):
				return fmt.Appendf(nil, "%s %d", t[5:], os.Getpid())
			}
			return []byte("?")
		})
		if err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func testPool(t *testing.T, cfg Config, n int) *Pool {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	cfg.Path, cfg.Args = exe, []string{exe}
	cfg.Env = append(os.Environ(), "WORKERS_TEST_WORKER=1")
	p := New(cfg, n)
	t.Cleanup(func() { p.Close() })
	return p
}

// do runs a task and splits the answer into its echo and the worker's pid.
func do(t *testing.T, p *Pool, task string) (string, string, error) {
	t.Helper()
	b, err := p.Do(context.Background(), []byte(task))
	if err != nil {
		return "", "", err
	}
	echo, pid, _ := strings.Cut(string(b), " ")
	return echo, pid, nil
}

// One worker does many tasks; a crash and running out of memory each cost
// their own task, and the next task gets a new worker.
func TestPoolFailuresCostOneTask(t *testing.T) {
	// MaxMemory is the workers' own limit (LimitMemory in TestMain).
	p := testPool(t, Config{MaxMemory: 256 << 20}, 1)
	_, pid1, err := do(t, p, "echo a")
	if err != nil {
		t.Fatal(err)
	}
	if got, pid, err := do(t, p, "echo b"); err != nil || got != "b" || pid != pid1 {
		t.Fatalf("second task: %q in %s (%v), want b in the same worker %s", got, pid, err, pid1)
	}
	last := pid1
	for _, tc := range []struct {
		task string
		want func(error) bool
	}{
		{"crash", func(err error) bool {
			var ce *CrashError
			return errors.As(err, &ce) && ce.Stderr == "fatal error: test crash" && !ce.OutOfMemory
		}},
		{"grow", func(err error) bool {
			var ce *CrashError
			return errors.As(err, &ce) && ce.OutOfMemory
		}},
	} {
		if tc.task == "grow" && raceEnabled {
			t.Log("grow: not under the race detector, whose shadow memory the limit counts (go test without -race checks it)")
			continue
		}
		_, _, err := do(t, p, tc.task)
		if !tc.want(err) {
			t.Errorf("%s: error %v", tc.task, err)
		}
		got, pid, err := do(t, p, "echo c")
		if err != nil || got != "c" || pid == last {
			t.Errorf("after %s: %q in %s (%v), want c in a new worker (not %s)", tc.task, got, pid, err, last)
		}
		last = pid
	}
}

// A task that hangs is stopped at the time limit. It never answers, so the
// limit's length does not matter; the worker is replaced as after a crash.
func TestPoolTimeout(t *testing.T) {
	p := testPool(t, Config{Timeout: 200 * time.Millisecond}, 1)
	if _, _, err := do(t, p, "hang"); !errors.Is(err, ErrTimeout) {
		t.Errorf("hang: error %v, want ErrTimeout", err)
	}
	if len(p.live) != 0 {
		t.Errorf("%d workers left after the timeout, want 0", len(p.live))
	}
}

// A worker is replaced after Recycle tasks.
func TestPoolRecycle(t *testing.T) {
	p := testPool(t, Config{Recycle: 3}, 1)
	var pids []string
	for i := range 7 {
		_, pid, err := do(t, p, fmt.Sprint("echo ", i))
		if err != nil {
			t.Fatal(err)
		}
		pids = append(pids, pid)
	}
	same := func(i, j int) bool { return pids[i] == pids[j] }
	if !same(0, 2) || same(2, 3) || !same(3, 5) || same(5, 6) {
		t.Errorf("workers by task: %v, want 3 tasks each", pids)
	}
}

// Tasks from many goroutines each get their own answer, and at most n
// workers run.
func TestPoolConcurrent(t *testing.T) {
	p := testPool(t, Config{}, 2)
	var wg sync.WaitGroup
	var mu sync.Mutex
	pids := map[string]bool{}
	for i := range 200 {
		wg.Go(func() {
			got, pid, err := do(t, p, fmt.Sprint("echo ", i))
			if err != nil || got != fmt.Sprint(i) {
				t.Errorf("task %d: %q, %v", i, got, err)
			}
			mu.Lock()
			pids[pid] = true
			mu.Unlock()
		})
	}
	wg.Wait()
	if len(pids) > 2 {
		t.Errorf("%d workers, want at most 2", len(pids))
	}
}

// A cancelled context ends the task and the worker.
func TestPoolCancel(t *testing.T) {
	p := testPool(t, Config{}, 1)
	ctx, cancel := context.WithCancel(context.Background())
	// Whether the cancel comes before the task is sent or while it runs,
	// the answer is the same.
	time.AfterFunc(20*time.Millisecond, cancel)
	if _, err := p.Do(ctx, []byte("hang")); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
