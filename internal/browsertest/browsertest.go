// Package browsertest gates the tests that drive headless Chromium: whole
// captures take minutes on a 2-core machine, so they run only when
// WEBCAP_BROWSER_TESTS=1 (.ci/run has a step of its own for them), and
// "go test ./..." stays fast without Chromium. Asked for, a missing
// Chromium is a failure, not a skip: CI must not pass without them.
package browsertest

import (
	"os"
	"os/exec"
	"testing"
)

// Env is the variable that turns the browser suites on.
const Env = "WEBCAP_BROWSER_TESTS"

// Chromium returns the Chromium executable for a browser test (the
// WEBCAP_CHROMIUM variable's, or chromium on PATH), skips the test when
// the browser suites are off, and fails it when they are on and no
// Chromium is found.
func Chromium(t testing.TB) string {
	t.Helper()
	if os.Getenv(Env) == "" {
		t.Skip("a browser test: set " + Env + "=1 to run it (CI's browser step does)")
	}
	name := os.Getenv("WEBCAP_CHROMIUM")
	if name == "" {
		for _, n := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
			if _, err := exec.LookPath(n); err == nil {
				name = n
				break
			}
		}
	}
	path, err := exec.LookPath(name)
	if name == "" || err != nil {
		t.Fatalf("%s=1 but no Chromium is found (install Debian's chromium, or set WEBCAP_CHROMIUM): %v", Env, err)
	}
	return path
}
