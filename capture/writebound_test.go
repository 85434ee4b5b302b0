package capture

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
	pdf := smallPDF(t)
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

// smallPDF is a PDF of a page or two, printed by Chromium: the write's
// steps are those of any print, its objects few.
func smallPDF(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "report-new.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// writeBounded is the write of two pages, in ctx.
func writeBounded(t *testing.T, pdf []byte, ctx context.Context) (*Result, error) {
	t.Helper()
	k := mergeLinks(t, pdf, 2, Options{}.withDefaults())
	return k.res, k.mg.write(ctx, k.res, k.manifest(), k.sources, k.c, true)
}

// A new file whose write passes its bound is written again with the
// first half of its pages, down to one: what fits is written, the pages
// left out are skipped (kind memory-limit) and the capture says it
// stopped for the bound. An append writes all or nothing.
func TestWriteKept(t *testing.T) {
	pdf := smallPDF(t)
	interrupt := fmt.Errorf("interrupted: %w", context.Canceled)
	tests := []struct {
		name    string
		pages   int
		newFile bool
		fails   int   // the writes whose bound is done at once
		written int   // pages written; 0: none (the error)
		stopped error // the crawl's Stopped
		want    error // the capture's Stopped; nil: the limit when fails > 0
	}{
		{name: "fits", pages: 4, newFile: true, written: 4},
		{name: "half fits", pages: 4, newFile: true, fails: 1, written: 2},
		{name: "a quarter fits", pages: 4, newFile: true, fails: 2, written: 1},
		{name: "nothing fits", pages: 4, newFile: true, fails: 3},
		{name: "an append: all or nothing", pages: 2, fails: 1},
		{name: "the crawl's time was up", pages: 2, newFile: true, fails: 1, written: 1, stopped: ErrTimeLimit},
		{name: "the crawl was interrupted", pages: 2, newFile: true, fails: 1, written: 1, stopped: interrupt, want: interrupt},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{}.withDefaults()
			calls := 0
			opts.WriteBound = func(ctx context.Context) (context.Context, func()) {
				calls++
				if calls <= tc.fails {
					return &doneAfter{Context: ctx, n: 1}, func() {}
				}
				return ctx, func() {}
			}
			k := mergeLinks(t, pdf, tc.pages, opts)
			k.res.Stopped = tc.stopped
			if !tc.newFile { // as an append's: its update already made
				k.mg.page = 1
			}
			err := writeKept(context.Background(), k.b, k.mg, k.res, k.starts, k.items, k.sources, k.c, tc.newFile)
			if tc.written == 0 {
				var ws *WriteStoppedError
				if !errors.As(err, &ws) || k.res.PDF != nil {
					t.Fatalf("writeKept = %v, %d bytes; want a *WriteStoppedError, nothing written", err, len(k.res.PDF))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			d, err := k.res.Read("capture.pdf")
			if err != nil {
				t.Fatal(err)
			}
			if len(k.res.Pages) != tc.written || len(d.Sets) != tc.written {
				t.Errorf("%d pages, %d sets written; want %d", len(k.res.Pages), len(d.Sets), tc.written)
			}
			var skipped []string
			for _, s := range k.res.Skips {
				if s.Kind == SkipMemoryLimit {
					skipped = append(skipped, s.URL)
				}
			}
			if len(skipped) != tc.pages-tc.written {
				t.Errorf("skipped %q; want the %d pages after the first %d", skipped, tc.pages-tc.written, tc.written)
			}
			switch {
			case tc.want != nil && k.res.Stopped != tc.want:
				t.Errorf("stopped %v, want %v", k.res.Stopped, tc.want)
			case tc.want == nil && (tc.fails > 0) != errors.Is(k.res.Stopped, limits.ErrLimit):
				t.Errorf("stopped %v; want the limit: %v", k.res.Stopped, tc.fails > 0)
			}
			for i, u := range skipped {
				if want := fmt.Sprintf("http://127.0.0.1:1/p%d", tc.written+i); u != want {
					t.Errorf("skipped %q, want %q", u, want)
				}
			}
		})
	}
}
