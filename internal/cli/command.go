package cli

import (
	"context"

	"github.com/spf13/cobra"
)

// runner returns a command's RunE, the same for every command: args sets
// the arguments into opts and checks what the flags alone cannot (a usage
// error), then runF is called with opts, or run when runF is nil. runF is
// the seam tests use to see the options a command line parses into without
// running anything.
func runner[T any](opts *T, runF, run func(context.Context, *T) error, args func([]string) error) func(*cobra.Command, []string) error {
	if runF == nil {
		runF = run
	}
	return func(cmd *cobra.Command, a []string) error {
		if err := args(a); err != nil {
			return err
		}
		return runF(cmd.Context(), opts)
	}
}
