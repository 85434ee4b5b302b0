package seeds

import (
	"context"
	"strings"
	"testing"

	"github.com/webcap/webcap/internal/workers"
)

// TestPool: the parent's side of a worker's answers, with sh standing in
// for capture-worker.
func TestPool(t *testing.T) {
	cfg := &Config{Dir: "out"}
	seed := Seed{Line: 3, URL: "http://a.example/"}
	tests := []struct {
		name, script string
		status       string
		exit         int
		message      string
	}{
		{"answer", `read x; echo '{"seed":"http://a.example/","line":3,"status":"captured","pages":2}'`, Captured, 0, ""},
		{"crash", `read x; echo 'fatal error: out of luck' >&2; exit 2`, Failed, 3, "the worker failed (exit status 2): fatal error: out of luck"},
		{"garbage", `read x; echo 'not JSON'`, Failed, 3, "the worker gave no result"},
		{"another seed", `read x; echo '{"seed":"http://b.example/","status":"captured"}'`, Failed, 3, "the worker gave no result"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pool := workers.New(workers.Config{Path: "/bin/sh", Args: []string{"sh", "-c", tc.script}}, 1)
			defer pool.Close()
			r := Pool(pool, cfg)(context.Background(), seed)
			if r.Status != tc.status || r.Exit != tc.exit || !strings.Contains(r.Message, tc.message) || r.Seed != seed.URL || r.Line != 3 {
				t.Errorf("Pool(%s) = %+v, want %s, exit %d, %q", tc.name, r, tc.status, tc.exit, tc.message)
			}
			if r.Status == Failed && r.PDF != cfg.PDF(seed.URL) { // a failure still names the outputs
				t.Errorf("Pool(%s).PDF = %q, want %q", tc.name, r.PDF, cfg.PDF(seed.URL))
			}
		})
	}
}
