package cli

import (
	"errors"
	"fmt"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
)

// progressMode is how a command shows its progress, on stderr.
type progressMode string

const (
	progressAuto  progressMode = "auto"  // bar on a terminal, else the command's default
	progressBar   progressMode = "bar"   // a bar redrawn in place
	progressPlain progressMode = "plain" // a line per step
	progressNone  progressMode = "none"
)

func (m progressMode) String() string { return string(m) }

var progressModes = []progressMode{progressAuto, progressBar, progressPlain, progressNone}

func parseProgressMode(s string) (progressMode, error) {
	for _, m := range progressModes {
		if string(m) == s {
			return m, nil
		}
	}
	return "", errors.New("no such mode")
}

// progressFlags are --progress and --quiet, of the commands that show
// progress or notes on stderr (audit, capture, append, refresh): parsed
// here, for all of them.
type progressFlags struct {
	Progress progressMode
	Quiet    bool // no progress, no notes: errors and results only
}

func (p *progressFlags) add(cmd *cobra.Command) {
	p.Progress = progressAuto
	cmd.Flags().Var(choiceValue[progressMode]{&p.Progress, progressModes, parseProgressMode, "mode"},
		"progress", "show progress on stderr: auto (a bar on a terminal), bar, plain (a line per step) or none")
	cmd.Flags().BoolVarP(&p.Quiet, "quiet", "q", false, "print no progress and no notes on stderr, only errors and the result")
	_ = cmd.RegisterFlagCompletionFunc("progress", cobra.FixedCompletions(
		[]string{"auto\ta bar on a terminal", "bar", "plain\ta line per step", "none"}, cobra.ShellCompDirectiveNoFileComp))
}

// check refuses --quiet with a --progress that shows something.
func (p *progressFlags) check(cmd string) error {
	if p.Quiet && p.Progress != progressAuto && p.Progress != progressNone {
		return usagef("%s: --quiet shows no progress: drop --progress %s", cmd, p.Progress)
	}
	return nil
}

// mode is the progress shown: auto is a bar when stderr is a terminal,
// otherwise def (plain or none, the command's choice).
func (p *progressFlags) mode(ios *IOStreams, def progressMode) progressMode {
	switch {
	case p.Quiet:
		return progressNone
	case p.Progress == progressAuto && ios.ErrTTY:
		return progressBar
	case p.Progress == progressAuto:
		return def
	}
	return p.Progress
}

// progress shows the files done of a run over many files, on stderr: a
// bar, or a line per file.
type progress struct {
	ios   *IOStreams
	name  string
	mode  progressMode
	total int
	done  int
	bar   *progressbar.ProgressBar
}

// newProgress shows audit's progress; auto is a bar on a terminal when
// there is more than one file, and nothing otherwise.
func newProgress(ios *IOStreams, p progressFlags, name string, total int) *progress {
	mode := p.mode(ios, progressNone)
	if p.Progress == progressAuto && total < 2 {
		mode = progressNone
	}
	pr := &progress{ios: ios, name: name, mode: mode, total: total}
	if mode == progressBar {
		pr.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(ios.ErrOut),
			progressbar.OptionSetDescription("auditing"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
	}
	return pr
}

// step counts one file done.
func (p *progress) step(file string) {
	p.done++
	switch {
	case p.bar != nil:
		_ = p.bar.Add(1)
	case p.mode == progressPlain:
		fmt.Fprintf(p.ios.ErrOut, "%s: %d of %d done: %s\n", p.name, p.done, p.total, displayInput(file))
	}
}

// clear takes the bar off the line, before output is written there; the
// next step draws it again.
func (p *progress) clear() {
	if p.bar != nil {
		_ = p.bar.Clear()
	}
}
