package batch

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
)

func TestRun(t *testing.T) {
	for _, tc := range []struct {
		name      string
		n, jobs   int
		unordered bool
		skip      func(i int) bool
	}{
		{"none", 0, 4, false, nil},
		{"one job", 10, 1, false, nil},
		{"in order", 50, 4, false, nil},
		{"as done", 50, 4, true, nil},
		{"skipped", 50, 3, false, func(i int) bool { return i%3 == 0 }},
		{"jobs below one", 5, 0, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			results := make([]int, tc.n)
			var audited atomic.Int64
			var emitted []int
			prepare := func(i int) bool { return tc.skip != nil && tc.skip(i) }
			audit := func(_ context.Context, i int) { results[i] = i * i; audited.Add(1) }
			emit := func(i int) error {
				if !prepare(i) && results[i] != i*i {
					t.Errorf("emit(%d) before its audit", i)
				}
				emitted = append(emitted, i)
				return nil
			}
			if err := Run(context.Background(), tc.n, RunOptions{Jobs: tc.jobs, Unordered: tc.unordered}, prepare, audit, emit); err != nil {
				t.Fatal(err)
			}
			want := make([]int, tc.n)
			skipped := 0
			for i := range want {
				want[i] = i
				if prepare(i) {
					skipped++
				}
			}
			got := slices.Clone(emitted)
			if tc.unordered {
				slices.Sort(got)
			} else if !slices.Equal(got, want) {
				t.Errorf("emitted %v, want input order", emitted)
			}
			if !slices.Equal(got, want) {
				t.Errorf("emitted %v, want each file once", emitted)
			}
			if int(audited.Load()) != tc.n-skipped {
				t.Errorf("audited %d files, want %d (%d skipped)", audited.Load(), tc.n-skipped, skipped)
			}
		})
	}
}

// TestRunStops: an error from emit, or ctx done, stops the run, and Run
// returns once no audit runs.
func TestRunStops(t *testing.T) {
	stop := errors.New("disk full")
	var running atomic.Int64
	audit := func(ctx context.Context, i int) { running.Add(1); defer running.Add(-1) }
	err := Run(context.Background(), 100, RunOptions{Jobs: 4}, func(int) bool { return false }, audit,
		func(i int) error {
			if i == 10 {
				return stop
			}
			return nil
		})
	if !errors.Is(err, stop) || running.Load() != 0 {
		t.Errorf("Run = %v with %d audits running, want %v and none", err, running.Load(), stop)
	}

	ctx, cancel := context.WithCancelCause(context.Background())
	why := errors.New("interrupted")
	// The files after the sixth wait for the end of the run: it must stop
	// them.
	wait := func(ctx context.Context, i int) {
		audit(ctx, i)
		if i > 5 {
			<-ctx.Done()
		}
	}
	err = Run(ctx, 100, RunOptions{Jobs: 2}, func(int) bool { return false }, wait,
		func(i int) error {
			if i == 5 {
				cancel(why)
			}
			return nil
		})
	if !errors.Is(err, why) || running.Load() != 0 {
		t.Errorf("Run, cancelled = %v with %d audits running, want %v and none", err, running.Load(), why)
	}
}
