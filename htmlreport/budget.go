package htmlreport

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"
)

// The time a report's thumbnails may take: each drawing is given what is
// left of its file's budget and of the report's, up to the page's own
// limit, and is charged the time it took (Renderer.FileTime, RunTime).

// A budget is the time left for the drawings of one file, or of a report,
// and the number of them under way.
type budget struct {
	total time.Duration // 0: no bound
	left  time.Duration
	busy  int
}

func newBudget(total time.Duration) *budget {
	if total <= 0 {
		return &budget{left: math.MaxInt64}
	}
	return &budget{total: total, left: total}
}

// spent reports whether b has nothing left: a drawing under way may
// still give back what it does not use.
func (b *budget) spent() bool { return b.left <= 0 }

// A clock is what the drawings are timed by: how long one took, and when
// its time is up. It is the wall clock (wallClock) but in a test, which
// gives its own (export_test.go) so that it need not wait for a budget.
type clock interface {
	now() time.Time
	// withTimeout is context.WithTimeout on this clock: when the time is
	// up, the context's cause is context.DeadlineExceeded.
	withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc)
}

type wallClock struct{}

func (wallClock) now() time.Time { return time.Now() }
func (wallClock) withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, d)
}

// timeKeeper holds the report's budget and gives the time of a drawing
// from it and from its file's; the budgets of one report share its lock.
// Its clock is the renderer's.
type timeKeeper struct {
	mu    sync.Mutex
	cond  *sync.Cond
	run   *budget
	page  time.Duration
	clock clock
}

func newTimeKeeper(r *Renderer) *timeKeeper {
	k := &timeKeeper{page: time.Second, run: newBudget(0), clock: wallClock{}}
	if r != nil {
		k.page, k.run, k.clock = r.pageTime(), newBudget(r.RunTime), r.clockOf()
	}
	k.cond = sync.NewCond(&k.mu)
	return k
}

// take reserves the time of one drawing of a page of the file whose
// budget is file: the page's limit, or less when that is what is left of
// a budget (returned: the one that cut it). While a budget is spent but
// drawings are under way it waits for them (they give back what they do
// not use); once it is spent with none, take returns 0 and which budget
// it was.
func (k *timeKeeper) take(file *budget) (time.Duration, *budget) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for {
		switch {
		case !file.spent() && !k.run.spent():
			t, by := k.page, (*budget)(nil)
			if file.left < t {
				t, by = file.left, file
			}
			if k.run.left < t {
				t, by = k.run.left, k.run
			}
			file.left -= t
			k.run.left -= t
			file.busy++
			k.run.busy++
			return t, by
		case k.run.spent() && k.run.busy == 0:
			return 0, k.run
		case file.spent() && file.busy == 0:
			return 0, file
		}
		k.cond.Wait()
	}
}

// give charges file's budget and the report's with took, the time a
// drawing given t took, and gives back the rest of t.
func (k *timeKeeper) give(file *budget, t, took time.Duration) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, b := range []*budget{file, k.run} {
		b.left += t - took
		b.busy--
	}
	k.cond.Broadcast()
}

// why says what budget b is, for a page set it left without a thumbnail.
func (k *timeKeeper) why(b *budget) string {
	if b == k.run {
		return "the report's thumbnails took their " + duration(b.total)
	}
	return "this file's thumbnails took their " + duration(b.total)
}

// duration says d in words: "30 s", "10 min", or as Go does ("1.5s").
func duration(d time.Duration) string {
	switch {
	case d >= time.Minute && d%time.Minute == 0:
		return fmt.Sprintf("%d min", d/time.Minute)
	case d%time.Second == 0:
		return fmt.Sprintf("%d s", d/time.Second)
	}
	return d.String()
}
