package cli

import (
	"fmt"
	"os"
	"time"
)

// progress shows "audited 12/100 files" on stderr while a long run goes on,
// only when stderr is a terminal and there is more than one file.
type progress struct {
	ios       *IOStreams
	total, n  int
	on        bool
	lastPrint time.Time
}

func newProgress(ios *IOStreams, total int) *progress {
	f, ok := ios.ErrOut.(*os.File)
	return &progress{ios: ios, total: total, on: ok && total > 1 && isTerminal(f)}
}

func (p *progress) step() {
	p.n++
	if !p.on || time.Since(p.lastPrint) < 100*time.Millisecond && p.n < p.total {
		return
	}
	p.lastPrint = time.Now()
	fmt.Fprintf(p.ios.ErrOut, "\raudited %d/%d files", p.n, p.total)
}

func (p *progress) clear() {
	if p.on && !p.lastPrint.IsZero() {
		fmt.Fprint(p.ios.ErrOut, "\r\033[K")
		p.lastPrint = time.Time{}
	}
}
