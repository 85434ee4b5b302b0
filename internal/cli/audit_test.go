package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webcap/webcap/canon"
)

// A worker that hangs is stopped at the time limit, and one that crashes is
// reported with its last words; either way the file is unreadable and the
// run goes on.
func TestAuditChildHangsAndCrashes(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	defer func(p func() (string, error), g time.Duration) { childProgram, childGrace = p, g }(childProgram, childGrace)
	childGrace = 0
	// The child never answers, so how long the limit is does not matter:
	// only that the child is stopped at it, and the file reported.
	limit := 300 * time.Millisecond
	opts := &auditOptions{Profile: canon.PDF, limitFlags: limitFlags{Timeout: limit}, Jobs: 1}

	hang := script("hang", "exec sleep 600")
	childProgram = func() (string, error) { return hang, nil }
	a := newAuditor(opts)
	defer a.close()
	r := a.audit(context.Background(), "x.pdf")
	if !strings.Contains(r.Error.Message, "took longer than 300ms") {
		t.Errorf("hanging child: %q", r.Error.Message)
	}
	if r.Error.Kind != "invalid" { // a finding about the file (exit 4), not worth retrying
		t.Errorf("hanging child: kind %q, want invalid", r.Error.Kind)
	}

	crash := script("crash", "echo 'runtime: goroutine stack exceeds 1000000000-byte limit' >&2; echo 'fatal error: stack overflow' >&2; exit 2")
	childProgram = func() (string, error) { return crash, nil }
	a = newAuditor(opts)
	defer a.close()
	r = a.audit(context.Background(), "x.pdf")
	if !strings.Contains(r.Error.Message, "fatal error: stack overflow") || r.Input != "x.pdf" {
		t.Errorf("crashing child: %+v", r)
	}
	if r.Error.Kind != "invalid" {
		t.Errorf("crashing child: kind %q, want invalid", r.Error.Kind)
	}
}
