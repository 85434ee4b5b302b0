package cli

import (
	"github.com/spf13/cobra"
)

func newCompletionCmd(ios *IOStreams) *cobra.Command {
	return &cobra.Command{
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
		RunE: func(cmd *cobra.Command, args []string) error {
			root := cmd.Root()
			switch args[0] {
			case "bash":
				return root.GenBashCompletionV2(ios.Out, true)
			case "zsh":
				return root.GenZshCompletion(ios.Out)
			case "fish":
				return root.GenFishCompletion(ios.Out, true)
			default:
				return root.GenPowerShellCompletionWithDesc(ios.Out)
			}
		},
	}
}
