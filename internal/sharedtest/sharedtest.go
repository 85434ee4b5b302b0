// Package sharedtest locates the project's shared material for tests: the
// folder "shared" beside the repository (or $WEBCAP_SHARED). A test that needs
// it calls Dir, which skips the test with a clear message when it is absent,
// so that the project's own tests stand without it.
package sharedtest

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the path of elem inside the shared folder, or skips t when the
// shared folder or elem is absent.
func Dir(t testing.TB, elem ...string) string {
	t.Helper()
	root, ok := Root()
	if !ok {
		t.Skip("skipping: the shared folder (../shared beside the repository, or $WEBCAP_SHARED) is absent")
	}
	p := filepath.Join(append([]string{root}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("skipping: %s is absent from the shared folder", filepath.Join(elem...))
	}
	return p
}

// Root returns the shared folder and whether it exists.
func Root() (string, bool) {
	if d := os.Getenv("WEBCAP_SHARED"); d != "" {
		return d, isDir(d)
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if isFile(filepath.Join(dir, "go.mod")) && isDir(filepath.Join(dir, "canon")) {
			d := filepath.Join(filepath.Dir(dir), "shared")
			return d, isDir(d)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

func isDir(p string) bool  { fi, err := os.Stat(p); return err == nil && fi.IsDir() }
func isFile(p string) bool { fi, err := os.Stat(p); return err == nil && fi.Mode().IsRegular() }
