package seeds

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/webcap/webcap/capture"
	"github.com/webcap/webcap/internal/browsertest"
	"github.com/webcap/webcap/internal/proctree"
)

// TestCapturerBrowserFailures: a Chromium that fails to start is tried
// again for the next seed, MaxBrowserFailures seeds in a row, then no
// more: the later seeds fail at once, saying why.
func TestCapturerBrowserFailures(t *testing.T) {
	starts := 0
	c := &Capturer{Config: Config{Dir: t.TempDir()}, Browser: func(context.Context) (*capture.Browser, error) {
		starts++
		return nil, fmt.Errorf("no Chromium, try %d", starts)
	}}
	for i := range MaxBrowserFailures + 2 {
		s := Seed{Line: i + 1, URL: fmt.Sprintf("http://127.0.0.1:1/%d", i)}
		r := c.Do(context.Background(), s)
		want := fmt.Sprintf("no Chromium, try %d", i+1)
		if i >= MaxBrowserFailures {
			want = fmt.Sprintf("Chromium not started again: it exited or failed to start for %d seeds in a row (the last time: no Chromium, try %d)", MaxBrowserFailures, MaxBrowserFailures)
		}
		if r.Status != Failed || r.Exit != 3 || r.Message != want {
			t.Errorf("seed %d: %s, exit %d, %q; want failed, exit 3, %q", i+1, r.Status, r.Exit, r.Message, want)
		}
	}
	if starts != MaxBrowserFailures {
		t.Errorf("Chromium started %d times, want %d", starts, MaxBrowserFailures)
	}
}

// browserProcesses are the Chromium browser processes (not their
// renderers, zygotes and helpers, which have --type=) under root.
// Chromium rewrites its command line as one string: the words are looked
// for in it.
func browserProcesses(root int) []int {
	var out []int
	for _, pid := range proctree.Tree(root)[1:] {
		line := strings.Join(proctree.Args(pid), " ")
		if strings.Contains(line, "chrom") && !strings.Contains(line, "--type=") {
			out = append(out, pid)
		}
	}
	return out
}

// TestCapturerBrowserKilled: Chromium killed while a seed is held by the
// server (as the kernel's OOM killer would) fails that seed, nothing
// written, and the next seeds get a new Chromium; --resume then captures
// the failed one.
func TestCapturerBrowserKilled(t *testing.T) {
	exe := browsertest.Chromium(t)
	killed := make(chan error, 1)
	var done atomic.Bool // killed once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hold.html" && done.CompareAndSwap(false, true) {
			pids := browserProcesses(os.Getpid())
			err := fmt.Errorf("%d Chromium browser processes, want 1: %v", len(pids), pids)
			if len(pids) == 1 {
				err = syscall.Kill(pids[0], syscall.SIGKILL)
			}
			killed <- err
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><title>%s</title><p>Page %s.", r.URL.Path, r.URL.Path)
	}))
	defer srv.Close()
	cfg := Config{Dir: t.TempDir()}
	cfg.Capture.Levels, cfg.Capture.IdleQuiet = 1, 50*time.Millisecond
	c := &Capturer{Config: cfg, Browser: func(ctx context.Context) (*capture.Browser, error) {
		return capture.NewBrowser(ctx, exe, capture.BrowserOptions{})
	}}
	defer c.Close()
	var list []Seed
	for i, p := range []string{"/one.html", "/hold.html", "/three.html", "/four.html"} {
		list = append(list, Seed{Line: i + 1, URL: srv.URL + p})
	}
	ctx := context.Background()
	for i, s := range list {
		r := c.Do(ctx, s)
		switch {
		case i == 1:
			if err := <-killed; err != nil {
				t.Fatal(err)
			}
			if r.Status != Failed || r.Exit != 3 || !strings.Contains(r.Message, "Chromium exited (signal: killed) while the seed was captured: nothing written") {
				t.Errorf("the held seed: %s, exit %d, %q; want failed, exit 3, Chromium exited (signal: killed)", r.Status, r.Exit, r.Message)
			}
			if _, err := os.Lstat(r.PDF); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the held seed's PDF: %v, want none", err)
			}
		case r.Status != Captured || r.Sets != 1:
			t.Errorf("%s: %s, %d sets, %q; want captured, 1 set", s.URL, r.Status, r.Sets, r.Message)
		}
	}
	c.Config.Resume = true
	for i, s := range list {
		want := Kept
		if i == 1 {
			want = Captured
		}
		if r := c.Do(ctx, s); r.Status != want {
			t.Errorf("--resume: %s: %s (%q), want %s", s.URL, r.Status, r.Message, want)
		}
	}
}
