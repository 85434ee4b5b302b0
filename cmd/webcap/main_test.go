package main

import (
	"context"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/webcap/webcap/internal/cli"
	"github.com/webcap/webcap/internal/pdfbuild"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"webcap": func() { os.Exit(cli.Main(context.Background(), os.Args[1:], cli.System())) },
	})
}

// TestScripts runs the end-to-end scripts in testdata/script, one behaviour
// per script.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// mkpdf SAMPLE FILE writes one of pdfbuild's sample or hostile documents.
			"mkpdf": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 2 {
					ts.Fatalf("usage: mkpdf SAMPLE FILE")
				}
				b, err := pdfbuild.Sample(args[0])
				if err != nil {
					b, err = pdfbuild.Hostile(args[0])
				}
				ts.Check(err)
				ts.Check(os.WriteFile(ts.MkAbs(args[1]), b, 0o644))
			},
			// mksite DIR copies the build example's captured site
			// (testdata/build/site, a wget mirror) to DIR.
			"mksite": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 1 {
					ts.Fatalf("usage: mksite DIR")
				}
				ts.Check(os.CopyFS(ts.MkAbs(args[0]), os.DirFS("../../testdata/build/site")))
			},
		},
	})
}
