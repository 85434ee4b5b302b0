package proctree

import (
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// A child of this test is in its tree, holds memory of its own, and is
// not alive once it has exited and been reaped.
func TestTree(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads Linux's /proc")
	}
	cmd := exec.Command("sleep", "600")
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	pid := cmd.Process.Pid
	tree := Tree(os.Getpid())
	if tree[0] != os.Getpid() || !slices.Contains(tree, pid) {
		t.Errorf("Tree(self) = %v: want self first and the child %d in it", tree, pid)
	}
	if !Alive(pid) {
		t.Errorf("Alive(%d) = false for a running child", pid)
	}
	if args := Args(pid); !slices.Equal(args, []string{"sleep", "600"}) {
		t.Errorf("Args(%d) = %q, want [sleep 600]", pid, args)
	}
	if m := RSSAnon(os.Getpid()); m <= 0 {
		t.Errorf("RSSAnon(self) = %d, want > 0", m)
	}
	if Memory(os.Getpid()) < RSSAnon(os.Getpid()) {
		t.Errorf("Memory(self) is less than self's own RSSAnon")
	}
	cmd.Process.Kill()
	cmd.Wait()
	if Alive(pid) || slices.Contains(Tree(os.Getpid()), pid) || Args(pid) != nil {
		t.Errorf("the reaped child %d is still alive or in the tree", pid)
	}
}

// A Watch finds a child started after its first read, and its tree is
// Tree's.
func TestWatch(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads Linux's /proc")
	}
	w := &Watch{Root: os.Getpid()}
	if tree := w.Tree(); tree[0] != os.Getpid() {
		t.Fatalf("Watch.Tree() = %v: want self first", tree)
	}
	cmd := exec.Command("sleep", "600")
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	if tree := w.Tree(); !slices.Contains(tree, cmd.Process.Pid) {
		t.Errorf("Watch.Tree() = %v after starting %d: the child is not in it", tree, cmd.Process.Pid)
	}
}

// A Watch that has read its tree takes in a grandchild started later (a
// PID given out since), not the threads started since by a process of
// the tree (whose PIDs read as processes of its parent), and RSSAnon of
// a process is its RssAnon line of /proc/PID/status.
func TestWatchNewPIDs(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads Linux's /proc")
	}
	w := &Watch{Root: os.Getppid()} // this process is in the tree, its threads must not be
	if tree := w.Tree(); !slices.Contains(tree, os.Getpid()) {
		t.Fatalf("Watch.Tree() = %v: this process %d is not in it", tree, os.Getpid())
	}
	threads := make(chan struct{})
	started := make(chan struct{}, 4)
	for range 4 {
		go func() {
			runtime.LockOSThread() // a thread of its own, never given back
			started <- struct{}{}
			<-threads
		}()
	}
	for range 4 {
		<-started
	}
	defer close(threads)
	cmd := exec.Command("sh", "-c", "sleep 600 & wait")
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	var grandchild int
	for range 1000 { // the shell starts it when it runs
		for _, p := range Tree(cmd.Process.Pid)[1:] {
			grandchild = p
		}
		if grandchild != 0 {
			break
		}
		runtime.Gosched()
	}
	if grandchild == 0 {
		t.Skip("the shell started no child")
	}
	defer syscall.Kill(grandchild, syscall.SIGKILL)
	tree := w.Tree()
	if !slices.Contains(tree, cmd.Process.Pid) || !slices.Contains(tree, grandchild) {
		t.Errorf("Watch.Tree() = %v: want the child %d and its child %d in it", tree, cmd.Process.Pid, grandchild)
	}
	tasks, _ := os.ReadDir("/proc/self/task")
	for _, e := range tasks {
		if tid, _ := strconv.Atoi(e.Name()); tid != os.Getpid() && slices.Contains(tree, tid) {
			t.Errorf("Watch.Tree() = %v holds %d, a thread of this process", tree, tid)
		}
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(grandchild) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "RssAnon:"); ok {
			kb, _ := strconv.ParseInt(strings.Fields(v)[0], 10, 64)
			if got := RSSAnon(grandchild); got != kb<<10 {
				t.Errorf("RSSAnon(%d) = %d, its status says %d kB", grandchild, got, kb)
			}
		}
	}
}
