// The capture's memory: the response bytes its pages hold at once (a
// run-wide budget), and Chromium's (a V8 heap limit, and a watchdog over
// its processes' memory that stops the renderer of a page past the
// ceiling).

package capture

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/webcap/webcap/internal/proctree"
)

// DefaultInFlight is how many response bytes the pages being rendered
// may hold at once, all together (Browser.MaxInFlight).
const DefaultInFlight = 256 << 20

// DefaultBrowserMemory is the memory Chromium's processes may hold
// together before the renderer of the page that grows them is stopped
// (BrowserOptions.Memory).
const DefaultBrowserMemory = 2 << 30

// SkipBrowserMemory is the kind of the Skip of a page whose renderer the
// watchdog stopped.
const SkipBrowserMemory = "browser-memory" // its renderer was stopped: Chromium held more than its ceiling

// A budget counts the bytes held against a run-wide maximum. A taker
// that cannot have what it asks for at once does not wait for it (every
// taker holds some, and waiting could hold them all): its response
// fails, and says why.
type budget struct {
	mu        sync.Mutex
	max, used int64
}

// take takes n bytes, or reports false and takes nothing when fewer than
// n are left.
func (b *budget) take(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n > b.max-b.used {
		return false
	}
	b.used += n
	return true
}

// give gives n bytes back.
func (b *budget) give(n int64) {
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
}

// A hold is what one page (or one batch of fetches) holds of a budget;
// release gives it all back. A nil hold takes from no budget.
type hold struct {
	b    *budget
	held atomic.Int64
}

func (h *hold) take(n int64) bool {
	if h == nil {
		return true
	}
	if !h.b.take(n) {
		return false
	}
	h.held.Add(n)
	return true
}

func (h *hold) give(n int64) {
	if h != nil && n > 0 {
		h.held.Add(-n)
		h.b.give(n)
	}
}

// max is the budget's maximum (0 for none).
func (h *hold) max() int64 {
	if h == nil {
		return 0
	}
	return h.b.max
}

func (h *hold) release() {
	if h != nil {
		h.b.give(h.held.Swap(0))
	}
}

// hold starts a hold on the browser's budget of response bytes in flight
// (MaxInFlight).
func (b *Browser) hold() *hold {
	b.mem.budgetOnce.Do(func() {
		max := b.MaxInFlight
		if max <= 0 {
			max = DefaultInFlight
		}
		b.mem.inflight = &budget{max: max}
	})
	return &hold{b: b.mem.inflight}
}

// InFlightError is a response not read because the pages being rendered
// hold the whole budget of response bytes in flight.
type InFlightError struct{ Max int64 }

func (e *InFlightError) Error() string {
	return fmt.Sprintf("not read: the pages being rendered already hold the %s of responses a capture holds at once", sizeOf(e.Max))
}

// readChunk is how many bytes a body is read by at most, each taken from
// the budget before it is read.
const readChunk = 256 << 10

// readBody reads a response's body, at most MaxBytes (default 64 MiB),
// taking the bytes it keeps from h: a body that declares more than
// MaxBytes is not read at all, and one that cannot have budget fails
// (*InFlightError, of kind TooLarge) and gives back what it took.
func (b *Browser) readBody(u string, resp *http.Response, h *hold) ([]byte, *FetchError) {
	limit := b.MaxBytes
	if limit <= 0 {
		limit = 64 << 20
	}
	if resp.ContentLength > limit {
		return nil, &FetchError{URL: u, Kind: TooLarge, Err: fmt.Errorf("declares %d bytes, more than %d", resp.ContentLength, limit)}
	}
	var took int64
	fail := func(fe *FetchError) ([]byte, *FetchError) {
		h.give(took)
		return nil, fe
	}
	// The body is read into chunks, each taken from the budget before it
	// is read, and joined once whole: no array is copied as it grows.
	// One of the declared length (and a byte more, to see the end) when
	// there is one.
	var chunks [][]byte
	var n int64
	for {
		if len(chunks) == 0 || len(chunks[len(chunks)-1]) == cap(chunks[len(chunks)-1]) {
			size := int64(readChunk)
			if len(chunks) == 0 && resp.ContentLength >= 0 {
				size = resp.ContentLength + 1
			}
			size = min(size, limit+1-n)
			if size <= 0 {
				return fail(&FetchError{URL: u, Kind: TooLarge, Err: fmt.Errorf("more than %d bytes", limit)})
			}
			if !h.take(size) {
				return fail(&FetchError{URL: u, Kind: TooLarge, Err: &InFlightError{h.max()}})
			}
			took += size
			chunks = append(chunks, make([]byte, 0, size))
		}
		c := chunks[len(chunks)-1]
		k, err := resp.Body.Read(c[len(c):cap(c)])
		chunks[len(chunks)-1] = c[:len(c)+k]
		n += int64(k)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fail(ClassifyFetch(u, err))
		}
	}
	if n > limit {
		return fail(&FetchError{URL: u, Kind: TooLarge, Err: fmt.Errorf("more than %d bytes", limit)})
	}
	if len(chunks) == 1 {
		return chunks[0], nil // the page's until the page is done
	}
	// The joined body is the page's until the page is done (the chunks,
	// which it replaces, are taken for it).
	return bytes.Join(chunks, nil), nil
}

// sizeOf says n bytes in IEC units ("256 MiB").
func sizeOf(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + " GiB"
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// memoryFlags are Chromium's flags that bound a renderer's memory: V8's
// old space, where a script's objects live, is half the ceiling of the
// browser's memory (a script that allocates until it dies crashes its
// renderer there; what V8's heap does not hold, array buffers among
// them, is the watchdog's).
func (b *Browser) memoryFlags() []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.Flag("js-flags", fmt.Sprintf("--max-old-space-size=%d", b.memory()/2>>20)),
	}
}

// memory is the ceiling of Chromium's memory.
func (b *Browser) memory() int64 {
	if b.opts.Memory > 0 {
		return b.opts.Memory
	}
	return DefaultBrowserMemory
}

// BrowserMemoryError is a page whose renderer was stopped: Chromium's
// processes held more than Limit bytes while it rendered.
type BrowserMemoryError struct{ Limit int64 }

func (e *BrowserMemoryError) Error() string {
	return fmt.Sprintf("the page took more than %s in the browser (its renderer was stopped)", sizeOf(e.Limit))
}

// memState is a browser's memory: its budget of response bytes in
// flight (made at the first hold), and how many renderers the watchdog
// stopped.
type memState struct {
	budgetOnce sync.Once
	inflight   *budget
	stops      atomic.Int64
}

// watchEvery is how often Chromium's memory is read: a page that
// allocates a GB a second passes the ceiling by some 250 MB before it is
// seen.
const watchEvery = 250 * time.Millisecond

// watchMemory watches the memory of Chromium's processes (the browser
// started in ctx) until ctx is done: once they hold more than the
// ceiling, the renderer that holds the most is killed, so that its page
// fails (BrowserMemoryError) and the crawl goes on. Where /proc cannot be
// read, nothing is watched.
func (b *Browser) watchMemory(ctx context.Context) {
	c := chromedp.FromContext(ctx)
	if c == nil || c.Browser == nil || c.Browser.Process() == nil {
		return
	}
	pid, limit := c.Browser.Process().Pid, b.memory()
	w := &proctree.Watch{Root: pid}
	go func() {
		t := time.NewTicker(watchEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			total, renderer := treeMemory(w)
			if total > limit && renderer > 0 && syscall.Kill(renderer, syscall.SIGKILL) == nil {
				b.mem.stops.Add(1)
				// Its memory is counted until it is gone: no other
				// renderer is killed for it meanwhile.
				for i := 0; i < 20 && proctree.Alive(renderer); i++ {
					select {
					case <-ctx.Done():
						return
					case <-t.C:
					}
				}
			}
		}
	}()
}

// explainStop starts watching a page: the returned func, given the
// page's error, says when its renderer crashed because the watchdog
// stopped it (a renderer that crashes on its own is an InterruptedError).
func (b *Browser) explainStop() func(err *error) {
	stops := b.mem.stops.Load()
	return func(err *error) {
		var ie *InterruptedError
		if *err != nil && errors.As(*err, &ie) && ie.Crashed && b.mem.stops.Load() != stops {
			*err = &BrowserMemoryError{b.memory()}
		}
	}
}

// treeMemory returns the anonymous resident memory (RssAnon: what each
// holds for itself, no shared page counted twice) of w's root and of
// every process descending from it, summed, and the renderer among them
// that holds the most (0: none). The tree is read again only where a
// process may have joined it (proctree.Watch: the PIDs given out since):
// reading all of /proc every watchEvery was a third of webcap's own CPU
// time in a capture of 24 small pages (bench/capture-cpu.sh), on a
// machine of 130 processes, and still was when only read after a process
// started anywhere, on a machine running builds beside the capture.
func treeMemory(w *proctree.Watch) (total int64, renderer int) {
	var most int64
	for _, p := range w.Tree() {
		m := proctree.RSSAnon(p)
		total += m
		if m > most && isRenderer(p) {
			most, renderer = m, p
		}
	}
	return total, renderer
}

// isRenderer reports whether a process is one of Chromium's renderers
// (--type=renderer on its command line, which a renderer rewrites: its
// arguments are not always separated by NULs).
func isRenderer(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	return err == nil && bytes.Contains(b, []byte("--type=renderer"))
}
