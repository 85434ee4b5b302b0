package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/webcap/webcap/internal/hostile"
)

// The measurer's view of a child's whole process tree: wait4's peak is
// one process's (the largest), and a Chromium renderer that webcap's
// browser reaps may never be counted there; the tree's memory, sampled
// while the child runs, is what the machine gives the case.

// treeEvery is how often the measurer samples the tree's memory.
const treeEvery = 100 * time.Millisecond

// treeMemory returns the anonymous resident memory (RssAnon) of pid and
// of every process descending from it, summed: memory each holds for
// itself (shared libraries and files counted nowhere, so that no page is
// counted twice). A process that ends while it is read counts for
// nothing.
func treeMemory(pid int) int64 {
	var total int64
	for _, p := range tree(pid) {
		total += rssAnon(p)
	}
	return total
}

// tree returns pid and every process descending from it.
func tree(pid int) []int {
	children := map[int][]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if p, err := strconv.Atoi(e.Name()); err == nil {
			if pp, ok := parentOf(p); ok {
				children[pp] = append(children[pp], p)
			}
		}
	}
	out := []int{pid}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i]]...)
	}
	return out
}

// parentOf reads a process's parent from /proc/PID/stat (its fourth
// field, after the command's name in parentheses, which may hold any
// byte).
func parentOf(pid int) (int, bool) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return 0, false
	}
	pp, err := strconv.Atoi(f[1])
	return pp, err == nil
}

// rssAnon is a process's RssAnon, in bytes (0 when it cannot be read).
func rssAnon(pid int) int64 {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "RssAnon:"); ok {
			f := strings.Fields(v) // "123456 kB"
			if len(f) > 0 {
				if n, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					return n << 10
				}
			}
		}
	}
	return 0
}

// watchTree samples pid's tree every treeEvery until done is closed, and
// returns its peak (through peak, once done). A tree past killAbove is
// killed (the child with SIGKILL; its descendants die with it or when
// their pipes close), and killed says so.
func watchTree(pid int, killAbove int64, done <-chan struct{}) (peak <-chan int64, killed *bool) {
	out := make(chan int64, 1)
	k := new(bool)
	go func() {
		var max int64
		t := time.NewTicker(treeEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				out <- max
				return
			case <-t.C:
			}
			m := treeMemory(pid)
			max = maxOf(max, m)
			if m > killAbove && !*k {
				*k = true
				killTree(pid)
			}
		}
	}()
	return out, k
}

func maxOf(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

// killTree kills pid and every process descending from it.
func killTree(pid int) {
	for _, p := range tree(pid) {
		syscall.Kill(p, syscall.SIGKILL)
	}
}

// A stopTimer is a case's signal (Case.SignalWhen): when it was sent.
type stopTimer struct {
	mu   sync.Mutex
	sent time.Time // zero until sent
	quit chan struct{}
}

// signalWhen sends c's signal to p once c.SignalWhen exists in dir,
// looking every treeEvery until the child exits (stopTimer.check, called
// then, fails the case if it never appeared). It returns nil for a case
// without a signal.
func signalWhen(t *testing.T, c hostile.Case, dir string, p *os.Process) *stopTimer {
	if c.SignalWhen == "" {
		return nil
	}
	sig := c.Signal
	if sig == 0 {
		sig = syscall.SIGTERM
	}
	st := &stopTimer{quit: make(chan struct{})}
	go func() {
		tick := time.NewTicker(treeEvery)
		defer tick.Stop()
		for {
			select {
			case <-st.quit:
				return
			case <-tick.C:
			}
			if _, err := os.Stat(filepath.Join(dir, c.SignalWhen)); err == nil {
				st.mu.Lock()
				st.sent = time.Now()
				st.mu.Unlock()
				if err := p.Signal(sig); err != nil {
					t.Logf("sending %v: %v", sig, err)
				}
				return
			}
		}
	}()
	return st
}

// check fails the case when its signal was not sent, or the child took
// longer than c.StopWithin to exit after it (it exited at exited; show
// says what it printed).
func (st *stopTimer) check(t *testing.T, c hostile.Case, exited time.Time, show func() string) {
	if st == nil {
		return
	}
	close(st.quit)
	st.mu.Lock()
	defer st.mu.Unlock()
	within := c.StopWithin
	if within == 0 {
		within = 5 * time.Second
	}
	switch took := exited.Sub(st.sent); {
	case st.sent.IsZero():
		t.Errorf("%s never appeared: no signal was sent", c.SignalWhen)
	case took > within:
		t.Errorf("exited %v after its signal, more than %v\n%s", took.Round(time.Millisecond), within, show())
	default:
		t.Logf("exited %v after its signal", took.Round(time.Millisecond))
	}
}
