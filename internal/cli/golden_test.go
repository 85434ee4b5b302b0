package cli

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/webcap/webcap/internal/pdfbuild"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// The audit report of the three samples, plain and JSON, against golden
// files (go test ./internal/cli -run Golden -update rewrites them).
func TestAuditReportGolden(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, name := range pdfbuild.Samples() {
		b, _ := pdfbuild.Sample(name)
		p := filepath.Join(dir, name+".pdf")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		// A fixed mtime: the JSON says it ("mtime", for --resume).
		mtime := time.Date(2015, 4, 2, 8, 51, 5, 123456789, time.UTC)
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		files = append(files, name+".pdf")
	}
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil { // relative names in the report
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	for _, c := range []struct {
		golden string
		json   bool
	}{{"audit.golden.txt", false}, {"audit.golden.json", true}} {
		ios, _, out, _ := Test()
		args := []string{"audit", "--in-process", "--jobs", "2"}
		if c.json {
			args = append(args, "--json")
		}
		if code := Main(context.Background(), append(args, files...), ios); code != exitFailed {
			t.Errorf("%s: exit %d, want %d (the damaged sample has errors)", c.golden, code, exitFailed)
		}
		path := filepath.Join(wd, "testdata", c.golden)
		if *update {
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		if out.String() != string(want) {
			t.Errorf("%s differs from the report:\n%s", c.golden, out)
		}
	}
}
