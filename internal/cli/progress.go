package cli

import (
	"time"

	"github.com/schollz/progressbar/v3"
)

// progress shows a progress bar on stderr while a run over many files goes
// on — only when stderr is a terminal and there is more than one file.
type progress struct {
	bar *progressbar.ProgressBar
}

func newProgress(ios *IOStreams, total int) *progress {
	if total < 2 || !ios.ErrTTY {
		return &progress{}
	}
	return &progress{bar: progressbar.NewOptions(total,
		progressbar.OptionSetWriter(ios.ErrOut),
		progressbar.OptionSetDescription("auditing"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)}
}

// step counts one file done.
func (p *progress) step() {
	if p.bar != nil {
		_ = p.bar.Add(1)
	}
}

// clear takes the bar off the line, before output is written there; the
// next step draws it again.
func (p *progress) clear() {
	if p.bar != nil {
		_ = p.bar.Clear()
	}
}
