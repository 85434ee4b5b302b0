package seeds

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/webcap/webcap/audit/batch"
	"github.com/webcap/webcap/internal/workers"
)

// Run hands each seed to do, opts.Jobs at once (at least one), and calls
// emit with each result, from the caller's goroutine: in list order, or
// (opts.Unordered) as each seed is done, as batch.Run decides for audit.
// A seed not started when ctx ends is reported Interrupted: every seed
// has a result. It returns the results' worst exit status: 0 when every
// seed was captured or kept.
func Run(ctx context.Context, list []Seed, opts batch.RunOptions, do func(context.Context, Seed) Result, emit func(Result)) int {
	exit := 0
	results := make([]*Result, len(list)) // a seed's, from its do until its emit
	// batch.Run stops handing files on once its context ends; here the
	// seeds not started then are reported, so it runs on to the end (do
	// sees ctx).
	_ = batch.Run(context.WithoutCancel(ctx), len(list), opts, func(int) bool { return false },
		func(_ context.Context, i int) {
			s := list[i]
			r := Result{Seed: s.URL, Line: s.Line}.interrupted()
			if ctx.Err() == nil {
				r = do(ctx, s)
			}
			results[i] = &r
		},
		func(i int) error {
			exit = worse(exit, results[i].Exit)
			emit(*results[i])
			results[i] = nil
			return nil
		})
	return exit
}

// worse is the exit status that says more: an interrupt, then an I/O
// error (3), then a limit passed (4), then a failure (1), as webcap's
// exit codes rank them.
func worse(a, b int) int {
	rank := func(x int) int {
		switch x {
		case 0:
			return 0
		case 1:
			return 1
		case 4:
			return 2
		case 3:
			return 3
		}
		return 4 // 130, another signal's
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// Serve is a worker process's loop: it reads seeds from r, a JSON line
// each, captures each with c, and writes its Result as a JSON line on w,
// until the end of r.
func Serve(ctx context.Context, r io.Reader, w io.Writer, c *Capturer) error {
	defer c.Close()
	return workers.Serve(r, w, func(line []byte) []byte {
		var s Seed
		var res Result
		if err := json.Unmarshal(line, &s); err != nil {
			res = Result{Status: Failed, Exit: 2, Message: fmt.Sprintf("not a seed: %v", err)}
		} else {
			res = c.Do(ctx, s)
		}
		b, err := json.Marshal(res)
		if err != nil {
			panic(err) // strings and numbers only
		}
		return b
	})
}

// Pool is the parent's side of Serve: a function for Run that captures
// each seed in a worker of pool. cfg names the outputs of a seed whose
// worker crashed or timed out.
func Pool(pool *workers.Pool, cfg *Config) func(context.Context, Seed) Result {
	return func(ctx context.Context, s Seed) Result {
		task, err := json.Marshal(s)
		if err != nil {
			panic(err)
		}
		r := Result{Seed: s.URL, Line: s.Line, PDF: cfg.PDF(s.URL), WARC: cfg.WARCPath(s.URL)}
		answer, err := pool.Do(ctx, task)
		var got Result
		var ce *workers.CrashError
		switch {
		case err == nil && json.Unmarshal(answer, &got) == nil && got.Seed == s.URL:
			return got
		case err == nil:
			return r.fail(3, errors.New("the worker gave no result"))
		case ctx.Err() != nil:
			return r.interrupted()
		case errors.Is(err, workers.ErrTimeout):
			return r.fail(1, fmt.Errorf("the seed's worker took longer than its time limit; stopped"))
		case errors.As(err, &ce) && ce.OutOfMemory:
			return r.fail(4, ce) // a limit passed, as --max-memory is in capture
		case errors.As(err, &ce):
			return r.fail(3, ce)
		}
		return r.fail(3, err)
	}
}
