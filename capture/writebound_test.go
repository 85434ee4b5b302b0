package capture

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/webcap/webcap/internal/limits"
)

// doneAfter is a context done from its nth look on (Err), with a
// *limits.MemoryError: a memory ceiling passed at a chosen step of the
// write, without timing.
type doneAfter struct {
	context.Context
	n     int64
	looks atomic.Int64
}

var errCeiling = &limits.MemoryError{Limit: 128 << 20, Flag: "--max-memory"}

func (c *doneAfter) Err() error {
	if c.looks.Add(1) >= c.n {
		return errCeiling
	}
	return nil
}

// A write whose bound is done at any of its steps stops there: a
// *WriteStoppedError naming the pages and the ceiling, nothing written;
// one whose bound is never done writes the file.
func TestWriteBound(t *testing.T) {
	pdf := linksPDF(t)
	// How many times a whole write looks at its context.
	whole := &doneAfter{Context: context.Background(), n: 1 << 62}
	if _, err := writeBounded(t, pdf, whole); err != nil {
		t.Fatalf("unbounded write: %v", err)
	}
	looks := whole.looks.Load()
	if looks < 5 {
		t.Fatalf("the write looked at its context %d times; want one look a step at least", looks)
	}
	for _, n := range []int64{1, 2, 3, looks / 2, looks - 1, looks} {
		res, err := writeBounded(t, pdf, &doneAfter{Context: context.Background(), n: n})
		var ws *WriteStoppedError
		if !errors.As(err, &ws) || ws.Pages != 2 || !errors.Is(err, limits.ErrLimit) {
			t.Errorf("done at look %d of %d: %v, want a *WriteStoppedError of 2 pages past the limit", n, looks, err)
			continue
		}
		if want := "not written: writing the 2 pages captured took more memory than --max-memory 128 MiB"; err.Error() != want {
			t.Errorf("done at look %d: %q, want %q", n, err, want)
		}
		if res.PDF != nil {
			t.Errorf("done at look %d: %d bytes written, want none", n, len(res.PDF))
		}
	}
}

// writeBounded is writeLinks' write of two pages, in ctx.
func writeBounded(t *testing.T, pdf []byte, ctx context.Context) (*Result, error) {
	t.Helper()
	opts := Options{}.withDefaults()
	mg, res, m, sources, c := mergeLinks(t, pdf, 2, opts)
	return res, mg.write(ctx, res, m, sources, c, true)
}
