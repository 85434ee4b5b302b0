package batch

import (
	"context"
	"sync"
)

// RunOptions say how Run goes through the files.
type RunOptions struct {
	Jobs int // files audited at once; less than 1: one
	// Unordered gives each file's result as it is done; by default they
	// come in input order (a file done early waits for those before it).
	Unordered bool
}

// Run audits n files, Jobs at once, and hands each on, in input order or
// (Unordered) as it is done. For each file, in input order and one at a
// time, prepare(i) runs first and says whether the file is skipped (a
// result of an earlier run still holds: see Log.Match); audit(ctx, i)
// then runs in one of the Jobs goroutines, unless skipped; emit(i) runs in
// the caller's goroutine once audit(i) has returned (or at once for a
// skipped file), and may read what audit wrote. The caller keeps the
// results, by index.
//
// Run stops at emit's first error, which it returns, and when ctx is
// done: it then returns context.Cause(ctx), once no audit is running, and
// the files not emitted have no result (a file cut short is none).
func Run(ctx context.Context, n int, opts RunOptions, prepare func(i int) (skip bool),
	audit func(ctx context.Context, i int), emit func(i int) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	finished := make(chan int, n)
	jobs := make(chan int)
	var wg sync.WaitGroup
	defer wg.Wait()
	for range min(max(opts.Jobs, 1), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				audit(ctx, i)
				finished <- i
			}
		}()
	}
	go func() { // not waited for: it stops once ctx is done
		defer close(jobs)
		for i := range n {
			if ctx.Err() != nil {
				return
			}
			if prepare(i) {
				finished <- i
				continue
			}
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	ready := make([]bool, n)
	next := 0
	for range n {
		var i int
		select {
		case i = <-finished:
		case <-ctx.Done():
		}
		if ctx.Err() != nil { // a file cut short is not a result
			return context.Cause(ctx)
		}
		if opts.Unordered {
			if err := emit(i); err != nil {
				cancel(err)
				return err
			}
			continue
		}
		for ready[i] = true; next < n && ready[next]; next++ {
			if err := emit(next); err != nil {
				cancel(err)
				return err
			}
		}
	}
	return nil
}
