package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A webcap built by "go build" in this git checkout says which commit it
// was built from, and whether the tree was modified, as git says them.
func TestVersionFromCheckout(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH: cannot build webcap")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git command on PATH: the build records no revision")
	}
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skip("not in a git checkout (no .git): the build records no revision")
	}
	// cmd/go stamps the revision only where it finds a .git directory: not
	// in a linked worktree, whose .git is a file.
	switch fi, err := os.Stat(filepath.Join(strings.TrimSpace(string(top)), ".git")); {
	case err != nil:
		t.Skipf("no .git at the top of the checkout: %v", err)
	case !fi.IsDir():
		t.Skip("a git worktree (.git is a file), where go build records no revision: run this test in a clone")
	}
	git := func(args ...string) string {
		out, err := exec.Command("git", args...).Output()
		if err != nil {
			t.Fatalf("git %s: %v", strings.Join(args, " "), err)
		}
		return strings.TrimSpace(string(out))
	}
	head := git("rev-parse", "HEAD")
	dirty := git("status", "--porcelain") != ""

	bin := filepath.Join(t.TempDir(), "webcap")
	// -buildvcs=true: GOFLAGS may say false (go env GOFLAGS).
	build := exec.Command(gobin, "build", "-buildvcs=true", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version", "--json").Output()
	if err != nil {
		t.Fatalf("webcap version --json: %v", err)
	}
	var v struct {
		Version, Revision, Time string
		Modified                bool
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("webcap version --json: %v: %s", err, out)
	}
	if v.Revision != head {
		t.Errorf("revision %q, want git rev-parse HEAD %q", v.Revision, head)
	}
	if v.Modified != dirty {
		t.Errorf("modified %v, want %v (git status --porcelain)", v.Modified, dirty)
	}
	if v.Time == "" || v.Version == "" || v.Version == "(devel)" {
		t.Errorf("version %q, time %q: want the pseudo-version and the commit's time", v.Version, v.Time)
	}
	plain, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatalf("webcap version: %v", err)
	}
	if !strings.Contains(string(plain), ", revision "+head) {
		t.Errorf("webcap version = %q, want the revision %s in it", plain, head)
	}
}
