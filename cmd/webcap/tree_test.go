package main

import (
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/webcap/webcap/internal/hostile"
	"github.com/webcap/webcap/internal/proctree"
)

// The measurer's view of a child's whole process tree: wait4's peak is
// one process's (the largest), and a Chromium renderer that webcap's
// browser reaps may never be counted there; the tree's memory, sampled
// while the child runs, is what the machine gives the case.

// treeEvery is how often the measurer samples the tree's memory.
const treeEvery = 100 * time.Millisecond

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
			m := proctree.Memory(pid)
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
	for _, p := range proctree.Tree(pid) {
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
