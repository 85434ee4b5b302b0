package capture

import (
	"errors"
	"fmt"
	"os/exec"

	"github.com/chromedp/chromedp"
)

// ErrBrowserExited is the error of a Browser whose Chromium exited
// without being asked to (killed, out of memory, crashed).
var ErrBrowserExited = errors.New("Chromium exited")

// Exited says whether Chromium has exited without being asked to, as
// when it is killed or runs out of memory: nil while it runs, else an
// error wrapping ErrBrowserExited that says how ("signal: killed"). A
// Browser whose Chromium exited renders nothing more: its owner closes it
// and starts another. Call it between pages, before Close.
func (b *Browser) Exited() error {
	c := chromedp.FromContext(b.ctx)
	if c == nil || c.Browser == nil {
		return nil
	}
	select {
	case <-c.Browser.LostConnection:
	default:
		return nil
	}
	// A call on the lost browser returns the process's exit error.
	_, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool]("true"))
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return fmt.Errorf("%w (%v)", ErrBrowserExited, exit)
	}
	return fmt.Errorf("%w: its connection is lost", ErrBrowserExited)
}
