package capture

import (
	"errors"
	"fmt"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/inspector"
	"github.com/chromedp/chromedp"
)

// An InterruptedError is a page whose rendering ended before it was
// printed, not by a failure of webcap's: its own frame loaded another
// document while it was being read or printed (its script, a refresh, a
// form), or the browser's renderer crashed. What the browser says then
// ("Inspected target navigated or closed", a script's error on a document
// without a root, "Target crashed") is internal; this says what happened.
type InterruptedError struct {
	URL     string // the page's
	To      string // the document it navigated to, when it did
	Crashed bool   // the renderer crashed
	Err     error  // what the browser said
}

func (e *InterruptedError) Error() string {
	if e.Crashed {
		return "the browser's renderer crashed (its process for the page ended before the page was printed)"
	}
	return "the page navigated away while being read or printed (to " + e.To + ")"
}

func (e *InterruptedError) Unwrap() error { return e.Err }

// moves is how many loads of another document the page's frame started.
func (t *tab) moves(r *rendering) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return r.moved
}

// interrupted says what err, rendering r, means when the page or the
// browser interrupted it: the renderer crashed, or the page's frame
// started loading another document after it was loaded (loaded is how
// many it had started then; -1: it was not loaded). A load webcap
// refused is the page's document's error, as when it ends before the page
// is printed; other errors are returned as they are.
func (t *tab) interrupted(r *rendering, loaded int, err error) error {
	t.mu.Lock()
	moved, to, crash := r.moved, r.movedTo, t.crashed
	t.mu.Unlock()
	if crash || crashed(err) {
		return &InterruptedError{URL: r.p.Requested, Crashed: true, Err: err}
	}
	if loaded < 0 || moved == loaded {
		return err
	}
	if fe := t.documentError(r); fe != nil && fe.Kind == Blocked {
		// Refused where it led (RenderOptions.Navigate): said as when
		// the load ends before the page is printed.
		return fmt.Errorf("loading %s: %w", r.p.Requested, fe)
	}
	return &InterruptedError{URL: r.p.Requested, To: to, Err: err}
}

// watchCrash marks the tab crashed when its renderer crashes, and ends
// the page being rendered: the browser answers nothing for it any more.
// (Listen fails only for a context without a tab, which t's is not.)
func (t *tab) watchCrash() {
	chromedp.Listen(t.ctx, func(ev any) {
		if _, ok := ev.(*inspector.EventTargetCrashed); !ok {
			return
		}
		t.mu.Lock()
		t.crashed = true
		r := t.cur
		t.mu.Unlock()
		if r != nil {
			r.cancel()
		}
	})
}

// quietErrorf is chromedp's error log: nothing. What it logs (a document
// root it could not read, an event it does not know) is internal; the
// calls that fail return their errors.
func quietErrorf(string, ...any) {}

// crashed reports whether err is the browser's word for a renderer that
// crashed ("Target crashed", code -32000).
func crashed(err error) bool {
	var ce *cdproto.Error
	return errors.As(err, &ce) && ce.Message == "Target crashed"
}
