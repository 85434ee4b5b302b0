package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is set at link time (-ldflags "-X github.com/webcap/webcap/internal/cli.version=v1.2.3");
// otherwise it comes from the build information.
var version = ""

type versionInfo struct {
	Schema   string `json:"schema"`
	Version  string `json:"version"`
	Revision string `json:"revision,omitempty"`
	Go       string `json:"go"`
}

func buildVersion() versionInfo {
	v := versionInfo{Schema: schemaName("version"), Version: version, Go: runtime.Version()}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v.Version == "" {
			v.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				v.Revision = s.Value
			}
		}
	}
	if v.Version == "" {
		v.Version = "(devel)"
	}
	return v
}

func versionString() string {
	v := buildVersion()
	s := "webcap " + v.Version
	if v.Revision != "" {
		s += " (" + v.Revision + ")"
	}
	return s + " " + v.Go
}

func newVersionCmd(ios *IOStreams, runF func(context.Context, *versionOptions) error) *cobra.Command {
	opts := &versionOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print webcap's version",
		Example: `  $ webcap version
  $ webcap version --json`,
		Args: cobra.NoArgs,
		RunE: runner(opts, runF, runVersion, func([]string) error { return nil }),
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, `print {"schema", "version", "revision", "go"} as JSON`)
	return cmd
}

type versionOptions struct {
	IO   *IOStreams
	JSON bool
}

func runVersion(ctx context.Context, opts *versionOptions) error {
	if opts.JSON {
		return json.NewEncoder(opts.IO.Out).Encode(buildVersion())
	}
	_, err := fmt.Fprintln(opts.IO.Out, versionString())
	return err
}
