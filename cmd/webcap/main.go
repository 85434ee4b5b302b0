// Command webcap reads, audits and writes PDF Web Capture structures. See
// "webcap --help" and the README.
package main

import (
	"context"
	"os"

	"github.com/webcap/webcap/internal/cli"
)

func main() {
	os.Exit(run())
}

// run is webcap, signals handled (cli.Signals): main, and the test
// binary when it runs as webcap (TestMain), which then stops on a signal
// as the command does.
func run() int {
	ctx, stop := cli.Signals(context.Background())
	defer stop()
	return cli.Main(ctx, os.Args[1:], cli.System())
}
