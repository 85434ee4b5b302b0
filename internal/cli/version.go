package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// version is set at link time (-ldflags "-X github.com/webcap/webcap/internal/cli.version=v1.2.3");
// otherwise it comes from the build information.
var version = ""

// versionInfo is what webcap version prints: the module version, and the
// VCS revision when the build recorded one.
type versionInfo struct {
	Schema string `json:"schema"`
	// Version is the main module's version: vX.Y.Z when installed with
	// "go install github.com/webcap/webcap/cmd/webcap@vX.Y.Z", a
	// pseudo-version (+dirty when the tree was modified) when built in a
	// git checkout, "(devel)" when nothing recorded one.
	Version  string `json:"version"`
	Revision string `json:"revision,omitempty"` // vcs.revision: the commit built
	Time     string `json:"time,omitempty"`     // vcs.time: the commit's time, RFC 3339
	Modified bool   `json:"modified,omitempty"` // vcs.modified: the tree differed from the commit
	Go       string `json:"go"`
}

func buildVersion() versionInfo {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	return versionOf(bi, version, runtime.Version())
}

// versionOf reads the version from the build information bi (nil when the
// binary has none); linked, when set at link time, wins over the module
// version.
func versionOf(bi *debug.BuildInfo, linked, goVersion string) versionInfo {
	v := versionInfo{Schema: schemaName("version"), Version: linked, Go: goVersion}
	if bi != nil {
		if v.Version == "" {
			v.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Revision = s.Value
			case "vcs.time":
				v.Time = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	if v.Version == "" {
		v.Version = "(devel)"
	}
	return v
}

// String is the version as one line: "webcap v1.2.3, go1.26.0", or, built
// in a checkout, "webcap VERSION, revision REV (TIME, modified), go1.26.0".
func (v versionInfo) String() string {
	s := "webcap " + v.Version
	if v.Revision != "" {
		s += ", revision " + v.Revision
		var notes []string
		if v.Time != "" {
			notes = append(notes, v.Time)
		}
		if v.Modified {
			notes = append(notes, "modified")
		}
		if len(notes) > 0 {
			s += " (" + strings.Join(notes, ", ") + ")"
		}
	}
	return s + ", " + v.Go
}

func versionString() string { return buildVersion().String() }

func newVersionCmd(ios *IOStreams, runF func(context.Context, *versionOptions) error) *cobra.Command {
	opts := &versionOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print webcap's version",
		Long: `Print webcap's version: the module version (v1.2.3 when installed with
"go install github.com/webcap/webcap/cmd/webcap@v1.2.3"), the commit it was
built from when built in a git checkout (with the commit's time, and
"modified" when the tree had changes), and the Go version that built it.`,
		Example: `  $ webcap version
  $ webcap version --json`,
		Args: cobra.NoArgs,
		RunE: runner(opts, runF, runVersion, func([]string) error { return nil }),
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, `print {"schema", "version", "revision", "time", "modified", "go"} as JSON`)
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
