package limits

import (
	"context"
	"fmt"
	"math"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// DeadlineError is the cause of a context whose deadline (Deadline)
// passed: the operation took longer than Limit.
type DeadlineError struct {
	Limit time.Duration
	Flag  string // the flag that sets Limit ("--timeout"), or ""
}

func (e *DeadlineError) Error() string {
	if e.Flag == "" {
		return fmt.Sprintf("took longer than %v", e.Limit)
	}
	return fmt.Sprintf("took longer than %s %v", e.Flag, e.Limit)
}

// Is makes a DeadlineError both a limit passed and, for the code that
// looks for it, context.DeadlineExceeded.
func (e *DeadlineError) Is(target error) bool {
	return target == ErrLimit || target == context.DeadlineExceeded
}

// Deadline is ctx done after d, with a *DeadlineError cause (see
// context.Cause); d <= 0 sets none.
func Deadline(ctx context.Context, d time.Duration, flag string) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeoutCause(ctx, d, &DeadlineError{Limit: d, Flag: flag})
}

// MemoryError is the cause of a context WatchMemory cancelled: the heap
// grew past Limit bytes.
type MemoryError struct {
	Limit int64
	Flag  string // the flag that sets Limit ("--max-memory"), or ""
}

func (e *MemoryError) Error() string {
	lim := iecBytes(e.Limit)
	if e.Flag == "" {
		return "took more memory than " + lim
	}
	return fmt.Sprintf("took more memory than %s %s", e.Flag, lim)
}

func (e *MemoryError) Is(target error) bool { return target == ErrLimit }

// iecBytes says n in IEC units as the command line's sizes are said
// (go-humanize's IBytes: "64 MiB", "1.0 GiB"), written here so that this
// leaf package, which pdfio imports, needs no module.
func iecBytes(n int64) string {
	if n < 10 {
		return fmt.Sprintf("%d B", n)
	}
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	e := math.Floor(math.Log(float64(n)) / math.Log(1024))
	v := math.Floor(float64(n)/math.Pow(1024, e)*10+0.5) / 10
	if v < 10 {
		return fmt.Sprintf("%.1f %s", v, units[int(e)])
	}
	return fmt.Sprintf("%.0f %s", v, units[int(e)])
}

// watchEvery is how often WatchMemory reads the heap's size: a reader
// that allocates a GB a second passes the ceiling by some 10 MB before it
// is seen.
const watchEvery = 10 * time.Millisecond

// heapMetric is the bytes of heap objects, live or not yet swept.
const heapMetric = "/memory/classes/heap/objects:bytes"

// WatchMemory is ctx cancelled, with a *MemoryError cause, once the Go
// heap holds more than max bytes; until stop is called, Go's memory limit
// (debug.SetMemoryLimit) is also a little under max (softLimit), so that
// the collector works hard before the ceiling and only a heap that really
// is live passes it.
// The work itself must look at ctx to stop. max <= 0 watches nothing.
// Several watches at once (tests run commands side by side) set the
// memory limit of the smallest.
func WatchMemory(ctx context.Context, max int64, flag string) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	if max <= 0 {
		return ctx, func() { cancel(nil) }
	}
	id := ceilings.add(max)
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(watchEvery)
		defer t.Stop()
		sample := []metrics.Sample{{Name: heapMetric}}
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				metrics.Read(sample)
				if sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > uint64(max) {
					cancel(&MemoryError{Limit: max, Flag: flag})
					return
				}
			}
		}
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			close(done)
			cancel(nil)
			ceilings.remove(id)
		})
	}
}

// ceilings are the memory ceilings being watched, by id; Go's memory limit
// is set from the smallest.
var ceilings = &ceilingSet{active: map[int]int64{}}

type ceilingSet struct {
	mu     sync.Mutex
	next   int
	active map[int]int64
	before int64 // the limit before the first watch
}

func (s *ceilingSet) add(max int64) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.active) == 0 {
		s.before = debug.SetMemoryLimit(-1)
	}
	s.next++
	s.active[s.next] = max
	s.apply()
	return s.next
}

func (s *ceilingSet) remove(id int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.active, id)
	s.apply()
}

func (s *ceilingSet) apply() {
	if len(s.active) == 0 {
		debug.SetMemoryLimit(s.before)
		return
	}
	least := int64(math.MaxInt64)
	for _, m := range s.active {
		least = min(least, m)
	}
	debug.SetMemoryLimit(softLimit(least))
}

// softHeadroom is the most Go's memory limit stays under a ceiling.
const softHeadroom = 64 << 20

// softLimit is Go's memory limit under a ceiling of max bytes: max less
// 1/8 of it, but less at most softHeadroom. The headroom is what the heap
// may pass the limit by before the collector catches up and before the
// watch sees it (watchEvery): a rate of allocation times a time, not a
// share of max. At 7/8 of a 1 GiB ceiling, the live heap of a build of
// 100,000 page sets (some 800 MB while its result is read back) sat at
// the limit and the collector ran back to back (issue 30: 17 cycles, 5
// of them at the limit, and some 20% of the build's CPU); at 960 MiB it
// runs 13 times. Ceilings of 512 MiB and under keep 7/8.
func softLimit(max int64) int64 {
	return max - min(max/8, softHeadroom)
}
