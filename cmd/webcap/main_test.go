package main

import (
	"context"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/webcap/webcap/internal/cli"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"webcap": func() { os.Exit(cli.Main(context.Background(), os.Args[1:], cli.System())) },
	})
}

// TestScripts runs the end-to-end scripts in testdata/script, one behaviour
// per script.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script"})
}
