package htmlreport

import (
	"testing"
	"time"
)

// TestTimeKeeper: a drawing is given the page's limit or what is left of
// its file's budget or the report's, is charged what it took, and once a
// budget is spent the next drawing is refused with that budget.
func TestTimeKeeper(t *testing.T) {
	const s = time.Second
	k := newTimeKeeper(&Renderer{Timeout: 10 * s, FileTime: 30 * s, RunTime: 50 * s})
	a, b := newBudget(30*s), newBudget(30*s)
	for _, tc := range []struct {
		name     string
		file     *budget
		took     time.Duration
		want     time.Duration
		wantBy   *budget
		fileLeft time.Duration
	}{
		{"a fast page: given back", a, 1 * s, 10 * s, nil, 29 * s},
		{"a page that times out", a, 10 * s, 10 * s, nil, 19 * s},
		{"another", a, 10 * s, 10 * s, nil, 9 * s},
		{"what is left of the file's", a, 9 * s, 9 * s, a, 0},
		{"the file's budget spent", a, 0, 0, a, 0},
		{"another file: its own budget", b, 10 * s, 10 * s, nil, 20 * s},
		{"another", b, 10 * s, 10 * s, nil, 10 * s},
	} {
		got, by := k.take(tc.file)
		if got != tc.want || by != tc.wantBy {
			t.Errorf("%s: take = %v, %p; want %v, %p", tc.name, got, by, tc.want, tc.wantBy)
		}
		if got > 0 {
			k.give(tc.file, got, tc.took)
		}
		if tc.file.left != tc.fileLeft {
			t.Errorf("%s: the file has %v left, want %v", tc.name, tc.file.left, tc.fileLeft)
		}
	}
	// 50 s of the report's: 1+10+10+9 for a, 10+10 for b: none left.
	c := newBudget(30 * s)
	if got, by := k.take(c); got != 0 || by != k.run {
		t.Errorf("a third file, the report's time spent: take = %v, %p; want 0, the report's (%p)", got, by, k.run)
	}
	if why := k.why(k.run); why != "the report's thumbnails took their 50 s" {
		t.Errorf("why = %q", why)
	}
	if why := k.why(a); why != "this file's thumbnails took their 30 s" {
		t.Errorf("why = %q", why)
	}
	// A drawing cut short by what is left of the report's.
	k = newTimeKeeper(&Renderer{Timeout: 10 * s, RunTime: 15 * s})
	d := newBudget(30 * s)
	got, _ := k.take(d)
	k.give(d, got, 10*s)
	if got, by := k.take(d); got != 5*s || by != k.run {
		t.Errorf("5s of the report's left: take = %v, %p; want 5s, the report's (%p)", got, by, k.run)
	}
}

// TestTimeKeeperWaits: with its budget reserved by a drawing under way, a
// file's next drawing waits for what that one gives back.
func TestTimeKeeperWaits(t *testing.T) {
	const s = time.Second // amounts of budget: nothing here waits for time to pass
	k := newTimeKeeper(&Renderer{Timeout: 10 * s, FileTime: 10 * s})
	f := newBudget(10 * s)
	first, _ := k.take(f)
	got := make(chan time.Duration)
	go func() {
		t, _ := k.take(f)
		got <- t
	}()
	k.give(f, first, time.Second)
	if second := <-got; second != 9*time.Second {
		t.Errorf("the second drawing is given %v, want the 9s the first gave back", second)
	}
}

// TestUnbounded: a zero FileTime or RunTime is no bound.
func TestUnbounded(t *testing.T) {
	const s = time.Second // an amount of budget, not a wait
	k := newTimeKeeper(&Renderer{Timeout: s})
	f := newBudget(0)
	for i := range 100 {
		got, by := k.take(f)
		if got != time.Second || by != nil {
			t.Fatalf("drawing %d: take = %v, %p; want 1s", i, got, by)
		}
		k.give(f, got, got)
	}
}
