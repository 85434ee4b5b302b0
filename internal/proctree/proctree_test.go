package proctree

import (
	"os"
	"os/exec"
	"runtime"
	"slices"
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
