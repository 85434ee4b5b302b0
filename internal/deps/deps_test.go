// Package deps holds the test of the project's import graph: dependencies
// point one way, cli → htmlreport → audit → pdfio → webcapture → canon,
// and only pdfio imports pdfcpu.
package deps

import (
	"os/exec"
	"strings"
	"testing"
)

const mod = "github.com/webcap/webcap"

// forbidden maps a package (prefix) of the module to import paths (prefixes)
// it must not import, directly or not.
var forbidden = map[string][]string{
	mod + "/docs":                {mod, "github.com"}, // embedded files only
	mod + "/canon":               {mod + "/webcapture", mod + "/pdfio", mod + "/internal/cli", mod + "/cmd", "github.com/pdfcpu", "github.com/spf13"},
	mod + "/webcapture":          {mod + "/pdfio", mod + "/audit", mod + "/record", mod + "/repair", mod + "/internal/cli", mod + "/cmd", "github.com/pdfcpu", "github.com/spf13"},
	mod + "/pdfio":               {mod + "/audit", mod + "/record", mod + "/repair", mod + "/internal/cli", mod + "/cmd", "github.com/spf13"},
	mod + "/repair":              {mod + "/internal/cli", mod + "/cmd", mod + "/audit", "github.com/spf13"},                   // pdfcpu only through pdfio
	mod + "/audit":               {mod + "/internal/cli", mod + "/cmd", mod + "/record", mod + "/repair", "github.com/spf13"}, // pdfcpu only through pdfio (checked below)
	mod + "/record":              {mod + "/internal/cli", mod + "/cmd", mod + "/audit", mod + "/repair", "github.com/spf13"},  // pdfcpu only through pdfio
	mod + "/capture":             {mod + "/internal/cli", mod + "/cmd", mod + "/audit", mod + "/repair", "github.com/spf13"},
	mod + "/mirror":              {mod + "/pdfio", mod + "/audit", mod + "/record", mod + "/repair", mod + "/capture", mod + "/internal/cli", mod + "/cmd", "github.com/pdfcpu", "github.com/spf13"},
	mod + "/warc":                {mod + "/pdfio", mod + "/audit", mod + "/record", mod + "/repair", mod + "/capture", mod + "/mirror", mod + "/internal/cli", mod + "/cmd", "github.com/pdfcpu", "github.com/spf13"}, // beside mirror: WARC files, canon and webcapture only
	mod + "/internal/jsonstrict": {mod},                                                                                                                                                                               // a leaf: JSON checks only
	mod + "/internal/proctree":   {mod},                                                                                                                                                                               // a leaf: /proc only
	mod + "/internal/sockettest": {mod},
	mod + "/internal/sealoracle": {mod}, // a leaf: openssl and pdfsig asked about seals (the tests of seal and cli)                                                                                                                                                                               // a leaf: the browser socket tests' pages and listener (capture's tests, internal/hostile)
	mod + "/internal/urlcorpus":  {mod + "/canon", mod + "/webcapture", mod + "/pdfio"},
	mod + "/internal/workers":    {mod, "github.com"},                                                                                                                // process plumbing only: what a task means is its caller's
	mod + "/audit/batch":         {mod + "/capture", mod + "/htmlreport", mod + "/internal/cli", mod + "/cmd", mod + "/record", mod + "/repair", "github.com/spf13"}, // a batch audit's decisions: cli → batch → audit, export
	mod + "/audit/export":        {mod + "/capture", mod + "/internal/cli", mod + "/cmd", mod + "/record", mod + "/repair", "github.com/spf13"},                      // formats of audit results: cli → export → audit
	mod + "/htmlreport":          {mod + "/capture", mod + "/internal/cli", mod + "/cmd", mod + "/record", mod + "/repair", "github.com/spf13"},                      // the HTML report: cli → htmlreport → audit, pdfio (pdfcpu only through pdfio)

	mod + "/seeds":            {mod + "/internal/cli", mod + "/cmd", mod + "/repair", "github.com/spf13"},                                                    // a list of seeds captured: cli → seeds → capture, audit
	mod + "/shard":            {mod},                                                                                                                         // a leaf: the split of a list among machines
	mod + "/internal/testpki": {mod},                                                                                                                         // a leaf: the tests' CA, TSA, OCSP and CRL on loopback
	mod + "/seal":             {mod + "/audit", mod + "/record", mod + "/repair", mod + "/capture", mod + "/internal/cli", mod + "/cmd", "github.com/spf13"}, // signatures and timestamps (pdfcpu only through pdfio)
}

func TestImportGraph(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps=false", "-f", `{{.ImportPath}}:{{join .Deps " "}}:{{join .Imports " "}}`, mod+"/...").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 3 {
		t.Fatalf("go list found %d packages", len(lines))
	}
	for _, line := range lines {
		pkg, rest, _ := strings.Cut(line, ":")
		deps, imports, _ := strings.Cut(rest, ":")
		for prefix, bad := range forbidden {
			if pkg != prefix && !strings.HasPrefix(pkg, prefix+"/") {
				continue
			}
			for _, d := range strings.Fields(deps) {
				for _, b := range bad {
					if d == b || strings.HasPrefix(d, b+"/") {
						t.Errorf("%s depends on %s, which it must not", pkg, d)
					}
				}
			}
		}
		// Only pdfio imports pdfcpu directly.
		for _, imp := range strings.Fields(imports) {
			if strings.HasPrefix(imp, "github.com/pdfcpu/") && !strings.HasPrefix(pkg, mod+"/pdfio") {
				t.Errorf("%s imports %s: only pdfio may", pkg, imp)
			}
			if strings.HasPrefix(imp, mod+"/internal/cli") && !strings.HasPrefix(pkg, mod+"/cmd/") {
				t.Errorf("%s imports %s: only cmd/webcap may", pkg, imp)
			}
		}
	}
}
