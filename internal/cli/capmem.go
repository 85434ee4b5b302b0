package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/capture"
	"github.com/webcap/webcap/internal/limits"
)

// crawlMemory are the memory bounds of the commands that fetch pages
// (capture, append, refresh): --max-memory, webcap's own heap as every
// command that reads PDFs bounds it (passing it stops the crawl, what was
// captured is written, and the command exits 4; the write is under it
// too, capture.Options.WriteBound: what fits of it is written), and
// --browser-memory, Chromium's processes (a page that takes more is
// skipped, and the crawl goes on).
type crawlMemory struct {
	MaxMemory      byteSize
	maxMemoryGiven bool
	BrowserMemory  byteSize
}

// minBrowserMemory is the least --browser-memory: what Chromium needs to
// render a plain page, with room.
const minBrowserMemory = 256 << 20

func (m *crawlMemory) add(cmd *cobra.Command) {
	f := cmd.Flags()
	m.MaxMemory = defaultMaxMemory
	f.Var(givenSize{&m.MaxMemory, &m.maxMemoryGiven}, "max-memory",
		"stop fetching once webcap needs more memory than `SIZE`, keeping what was captured, as much of it as its write fits in (exit 4; default: 1 GiB)")
	m.BrowserMemory = capture.DefaultBrowserMemory
	f.Var(&m.BrowserMemory, "browser-memory", "skip a page once Chromium's processes hold more than `SIZE` while it renders (its scripts may hold half)")
}

// check checks what the flags' types do not.
func (m *crawlMemory) check(cmd string) error {
	switch {
	case m.maxMemoryGiven && m.MaxMemory < minMaxMemory:
		least := byteSize(minMaxMemory)
		return usagef("%s: --max-memory %v: want at least %v", cmd, &m.MaxMemory, &least)
	case m.BrowserMemory < minBrowserMemory:
		least := byteSize(minBrowserMemory)
		return usagef("%s: --browser-memory %v: want at least %v", cmd, &m.BrowserMemory, &least)
	}
	return nil
}

// watch is ctx done once webcap's heap passes --max-memory (a
// *limits.MemoryError cause: the crawl stops and keeps what it did).
func (m *crawlMemory) watch(ctx context.Context) (context.Context, func()) {
	return limits.WatchMemory(ctx, int64(m.MaxMemory), maxMemoryFlag)
}

// stoppedByLimit reports a crawl that --max-memory stopped, once what it
// captured is written (kept says where): the command exits 4, as every
// command past a limit does, and nothing more is said.
func stoppedByLimit(ios *IOStreams, name string, why error, kept string) error {
	if !errors.Is(why, limits.ErrLimit) {
		return nil
	}
	fmt.Fprintf(ios.ErrOut, "webcap: %s: stopped early: %v: %s\n", name, why, kept)
	return &invalidError{errFailed}
}
