package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/webcap/webcap/internal/browsertest"
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
		// [browser]: the browser suites are on (WEBCAP_BROWSER_TESTS=1,
		// see internal/browsertest); a script's Chromium steps need it.
		Condition: func(cond string) (bool, error) {
			if cond == "browser" {
				return os.Getenv(browsertest.Env) == "1", nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// exits N PROG ARGS... runs PROG as exec does (stdout and
			// stderr kept for the next checks) and checks that it exits
			// with status N.
			"exits": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) < 2 || neg {
					ts.Fatalf("usage: exits N PROG [ARGS...]")
				}
				want, err := strconv.Atoi(args[0])
				ts.Check(err)
				code := 0
				var ee *exec.ExitError
				if err := ts.Exec(args[1], args[2:]...); errors.As(err, &ee) {
					code = ee.ExitCode()
				} else if err != nil {
					ts.Fatalf("%s: %v", args[1], err)
				}
				if code != want {
					ts.Fatalf("%s: exit status %d, want %d", args[1], code, want)
				}
			},
			// serve DIR serves DIR over HTTP on a loopback address until
			// the script ends, and sets $URL to it.
			"serve": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 1 {
					ts.Fatalf("usage: serve DIR")
				}
				srv := httptest.NewServer(http.FileServer(http.Dir(ts.MkAbs(args[0]))))
				ts.Defer(srv.Close)
				ts.Setenv("URL", srv.URL)
			},
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
