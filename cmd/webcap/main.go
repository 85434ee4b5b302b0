// Command webcap reads, audits and writes PDF Web Capture structures. See
// "webcap --help" and the README.
package main

import (
	"context"
	"os"

	"github.com/webcap/webcap/internal/cli"
)

func main() {
	ctx, stop := cli.Signals(context.Background())
	code := cli.Main(ctx, os.Args[1:], cli.System())
	stop()
	os.Exit(code)
}
