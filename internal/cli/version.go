package cli

import (
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
	Version  string `json:"version"`
	Revision string `json:"revision,omitempty"`
	Go       string `json:"go"`
}

func buildVersion() versionInfo {
	v := versionInfo{Version: version, Go: runtime.Version()}
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

func newVersionCmd(ios *IOStreams) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print webcap's version",
		Example: `  $ webcap version
  $ webcap version --json`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if asJSON {
				return json.NewEncoder(ios.Out).Encode(buildVersion())
			}
			_, err := fmt.Fprintln(ios.Out, versionString())
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"version", "revision", "go"} as JSON`)
	return cmd
}
