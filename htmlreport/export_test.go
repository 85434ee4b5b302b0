package htmlreport

import (
	"context"
	"sync"
	"time"
)

// A FakeClock is a clock whose time passes only when a test says
// (Advance): a drawing's time is up once the clock has been advanced past
// it, so that a test of the budgets is the same on a loaded machine.
type FakeClock struct {
	mu     sync.Mutex
	t      time.Time
	timers []fakeTimer
}

type fakeTimer struct {
	at     time.Time
	cancel context.CancelCauseFunc
}

// UseFakeClock makes r's drawings timed by a new FakeClock.
func UseFakeClock(r *Renderer) *FakeClock {
	c := &FakeClock{t: time.Unix(0, 0)}
	r.clock = c
	return c
}

func (c *FakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *FakeClock) withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	c.mu.Lock()
	c.timers = append(c.timers, fakeTimer{c.t.Add(d), cancel})
	c.mu.Unlock()
	return ctx, func() { cancel(context.Canceled) }
}

// Advance moves the clock on by d, and ends the drawings whose time is
// then up.
func (c *FakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	kept := c.timers[:0]
	for _, tm := range c.timers {
		if tm.at.After(c.t) {
			kept = append(kept, tm)
			continue
		}
		tm.cancel(context.DeadlineExceeded)
	}
	c.timers = kept
}
