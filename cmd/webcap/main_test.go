package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/webcap/webcap/docs"
	"github.com/webcap/webcap/internal/browsertest"
	"github.com/webcap/webcap/internal/pdfbuild"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"webcap": func() { os.Exit(run()) },
		// rusage PROG ARGS... (TestHostile's measurer, see measured).
		"rusage": func() { os.Exit(measured()) },
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
			// mkpdf SAMPLE FILE writes one of pdfbuild's sample, hostile or loss documents.
			"mkpdf": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 2 {
					ts.Fatalf("usage: mkpdf SAMPLE FILE")
				}
				b, err := pdfbuild.Sample(args[0])
				if err != nil {
					b, err = pdfbuild.Hostile(args[0])
				}
				if err != nil {
					b, err = pdfbuild.LossSample(args[0])
				}
				ts.Check(err)
				ts.Check(os.WriteFile(ts.MkAbs(args[1]), b, 0o644))
			},
			// jsonschema NAME FILE validates FILE against the schema NAME
			// that the binary ships (docs/schemas): a document, or each
			// line of a stream. It fails on an empty file.
			"jsonschema": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 2 {
					ts.Fatalf("usage: jsonschema NAME FILE")
				}
				err := validateJSON(args[0], ts.ReadFile(args[1]))
				switch {
				case neg && err == nil:
					ts.Fatalf("%s is valid against %s", args[1], args[0])
				case !neg:
					ts.Check(err)
				}
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

// validateJSON validates each JSON value in text (a document, or the lines
// of a stream) against the shipped schema name, with a validator that is
// not webcap's (santhosh-tekuri/jsonschema, draft 2020-12).
func validateJSON(name, text string) error {
	b, err := docs.Schema(name)
	if err != nil {
		return err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return err
	}
	c := jsonschema.NewCompiler()
	url := "https://github.com/webcap/webcap/docs/schemas/" + name + ".schema.json"
	if err := c.AddResource(url, doc); err != nil {
		return err
	}
	sch, err := c.Compile(url)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	n := 0
	for {
		var v any
		if err := dec.Decode(&v); err == io.EOF {
			break
		} else if err != nil {
			return fmt.Errorf("value %d: %w", n+1, err)
		}
		n++
		if err := sch.Validate(v); err != nil {
			return fmt.Errorf("value %d: %w", n, err)
		}
	}
	if n == 0 {
		return fmt.Errorf("no JSON value to validate against %s", name)
	}
	return nil
}
