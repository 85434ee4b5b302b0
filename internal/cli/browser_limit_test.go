package cli

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/webcap/webcap/capture"
	"github.com/webcap/webcap/internal/limits"
)

// TestBrowseStoppedByLimit: Chromium that does not start because a limit
// was passed first (append reading a large FILE past --max-memory) is that
// limit (exit 4, the flag named), not an I/O error (exit 3, "context
// canceled").
func TestBrowseStoppedByLimit(t *testing.T) {
	over := &limits.MemoryError{Limit: 1 << 30, Flag: maxMemoryFlag}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(over)
	o := fetchFlags{Chromium: "/bin/true"}
	o.Timeout = time.Minute
	o.MaxMemory = defaultMaxMemory
	ios, _, _, _ := Test()
	err := o.browse(ctx, ios, "append", func(context.Context, *capture.Browser) error {
		t.Error("browse called f without a browser")
		return nil
	})
	if !errors.Is(err, limits.ErrLimit) || exitCode(err) != 4 || !strings.Contains(err.Error(), "append: took more memory than --max-memory 1.0 GiB") {
		t.Errorf("browse = %v (exit %d), want the memory limit, exit 4", err, exitCode(err))
	}
}
