package cli

import (
	"context"

	"github.com/spf13/cobra"
)

func newCompletionCmd(ios *IOStreams, runF func(context.Context, *completionOptions) error) *cobra.Command {
	opts := &completionOptions{IO: ios}
	var cmd *cobra.Command
	cmd = &cobra.Command{
		Use:   "completion bash|zsh|fish|powershell",
		Short: "Print a shell completion script",
		Long: `Print a completion script for webcap for the given shell.

Load it into the current shell, or install it where your shell looks for
completions (see the examples).`,
		Example: `  # bash, this session
  $ source <(webcap completion bash)
  # bash, every session (Linux)
  $ webcap completion bash > /etc/bash_completion.d/webcap
  # zsh
  $ webcap completion zsh > "${fpath[1]}/_webcap"
  # fish
  $ webcap completion fish > ~/.config/fish/completions/webcap.fish
  # PowerShell
  PS> webcap completion powershell | Out-String | Invoke-Expression`,
		ValidArgs:             []string{"bash", "zsh", "fish", "powershell"},
		Args:                  cobra.MatchAll(cobra.ExactArgs(1), cobra.OnlyValidArgs),
		DisableFlagsInUseLine: true,
		RunE: runner(opts, runF, runCompletion, func(args []string) error {
			opts.Shell, opts.Root = args[0], cmd.Root()
			return nil
		}),
	}
	return cmd
}

type completionOptions struct {
	IO    *IOStreams
	Shell string
	Root  *cobra.Command // the command tree the script completes
}

func runCompletion(ctx context.Context, opts *completionOptions) error {
	switch opts.Shell {
	case "bash":
		return opts.Root.GenBashCompletionV2(opts.IO.Out, true)
	case "zsh":
		return opts.Root.GenZshCompletion(opts.IO.Out)
	case "fish":
		return opts.Root.GenFishCompletion(opts.IO.Out, true)
	default:
		return opts.Root.GenPowerShellCompletionWithDesc(opts.IO.Out)
	}
}
