package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/webcap/webcap/capture"
	"github.com/webcap/webcap/internal/limits"
)

// What capture, append and refresh share: Chromium, the options of a
// crawl, its progress, and what is said when it stops early.

// browse starts Chromium for a command and calls f with it, under the
// --timeout (capture.ErrTimeLimit is the context's cause when it passes).
// Chromium's errors are I/O errors; what the user should know of how it
// runs is said once.
func (o *fetchFlags) browse(ctx context.Context, ios *IOStreams, cmd string, f func(context.Context, *capture.Browser) error) error {
	ctx, cancel := context.WithTimeoutCause(ctx, o.Timeout, capture.ErrTimeLimit)
	defer cancel()
	ctx, stop := o.crawlMemory.watch(ctx)
	defer stop()
	exe, err := capture.FindChromium(o.Chromium)
	if err != nil && o.Chromium != "" {
		return &ioError{fmt.Errorf("%s: --chromium %w", cmd, err)}
	} else if err != nil {
		return &ioError{fmt.Errorf("%s: %w", cmd, err)}
	}
	b, err := capture.NewBrowser(ctx, exe, capture.BrowserOptions{NoSandbox: o.NoSandbox, Memory: int64(o.BrowserMemory)})
	if cause := context.Cause(ctx); err != nil && errors.Is(cause, limits.ErrLimit) {
		// Chromium did not start because a limit was passed (reading
		// FILE took more than --max-memory): that limit is the error.
		return fmt.Errorf("%s: %w", cmd, cause)
	} else if err != nil {
		return &ioError{fmt.Errorf("%s: %w", cmd, err)}
	}
	defer b.Close()
	for _, n := range b.Notes {
		if !o.Quiet {
			fmt.Fprintf(ios.ErrOut, "%s: %s\n", cmd, n)
		}
	}
	return f(ctx, b)
}

// options are the crawl's options the fetch flags set.
func (o *fetchFlags) options(ios *IOStreams, cmd string) capture.Options {
	var allow capture.AddressClass
	if o.AllowPrivate {
		allow = capture.Loopback | capture.Private | capture.LinkLocal | capture.Metadata
	}
	return capture.Options{Profile: o.Profile, MaxPages: o.MaxPages, MaxBytes: int64(o.MaxBytes), PageTimeout: o.PageTimeout,
		IgnoreRobots: o.IgnoreRobots, Allow: allow, Media: o.Media, Bookmarks: capture.BookmarksMode(o.Bookmarks), IdleQuiet: o.WaitIdle, Settle: o.settle(), Session: o.Session, Progress: newCaptureProgress(ios, o.mode(ios, progressPlain), cmd, o.MaxPages),
		WriteBound: o.crawlMemory.watch} // --max-memory bounds the write of what the crawl kept, too
}

// settle is --settle as capture.Options takes it: 0 is none.
func (o *fetchFlags) settle() time.Duration {
	if o.Settle == 0 {
		return capture.NoSettle
	}
	return o.Settle
}

// stopped reports a crawl that stopped before its end, once what it did
// is written: kept says what was kept ("the 3 pages captured before are
// in a.pdf"). A time limit is said; an interrupt is the error returned.
func stopped(ios *IOStreams, name string, why error, kept string) error {
	var in *interrupted
	switch {
	case why == nil:
		return nil
	case errors.Is(why, limits.ErrLimit):
		return stoppedByLimit(ios, name, why, kept)
	case errors.As(why, &in):
		fmt.Fprintf(ios.ErrOut, "webcap: %s: %v: %s\n", name, in, kept)
		return &interrupted{in.sig, true}
	}
	fmt.Fprintf(ios.ErrOut, "webcap: %s: stopped early: %v: %s\n", name, why, kept)
	return nil
}

// skipsOrNone is a crawl's skipped URLs for JSON: [] rather than null.
func skipsOrNone(skips []capture.Skip) []capture.Skip {
	return orNoneOf(skips)
}

// orNoneOf is a list for JSON: [] rather than null.
func orNoneOf[T any](list []T) []T {
	if list == nil {
		return []T{}
	}
	return list
}

// stopCause says why a crawl stopped early, or "" when it did not.
func stopCause(why error) string {
	if why == nil {
		return ""
	}
	return why.Error()
}

// newCaptureProgress shows pages done of pages known (done + queued, at
// most max) and bytes fetched: a bar, a line per page, or nothing (nil).
func newCaptureProgress(ios *IOStreams, mode progressMode, name string, max int) func(done, queued int, bytes int64, url string) {
	switch mode {
	case progressNone:
		return nil
	case progressPlain:
		return func(done, queued int, bytes int64, url string) {
			fmt.Fprintf(ios.ErrOut, "%s: %d done, %d queued, %s fetched: %s\n", name, done, queued, sizeOf(bytes), displayInput(shownURL(url)))
		}
	}
	bar := progressbar.NewOptions(max, progressbar.OptionSetWriter(ios.ErrOut), progressbar.OptionShowCount(),
		progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish())
	return func(done, queued int, bytes int64, url string) {
		bar.ChangeMax(min(done+queued, max))
		bar.Describe(fmt.Sprintf("capturing (%s)", sizeOf(bytes)))
		_ = bar.Set(done)
	}
}

// clearProgress erases the progress bar's line, when there is one.
func (o *fetchFlags) clearProgress(ios *IOStreams) {
	if o.mode(ios, progressPlain) == progressBar {
		fmt.Fprint(ios.ErrOut, "\r\033[K")
	}
}
