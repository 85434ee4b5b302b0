package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// A file name is bytes: audit's worker processes are given each name as
// its bytes, so that a name that is not UTF-8 names the same file there as
// here (a JSON string would carry U+FFFD instead), and the text names it
// escaped, as in this process.
func TestAuditWorkerNamesNotUTF8(t *testing.T) {
	dir := t.TempDir()
	pdf, err := pdfbuild.Sample("capture")
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"bad\xff.pdf", "bad\xfe\xff.pdf", "caf\xe9.pdf", "ok.pdf"}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), pdf, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		append([]string{"audit", "--jobs", "2"}, names...),
		{"audit", names[0]}, // one file: a worker too
		append([]string{"audit", "--jobs", "2", "--in-process"}, names...),
	} {
		cmd := exec.Command("webcap", args...)
		cmd.Dir = dir
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if err != nil {
			t.Errorf("webcap %q: %v\n%s%s", args, err, stdout.String(), stderr.String())
			continue
		}
		for _, n := range args[1:] {
			if !strings.HasSuffix(n, ".pdf") {
				continue
			}
			shown := n
			if n != "ok.pdf" {
				shown = strconv.Quote(n)
			}
			if want := shown + ": Well-Formed and valid\n"; !strings.Contains(stdout.String(), want) {
				t.Errorf("webcap %q: no line %q in\n%s", args, want, stdout.String())
			}
		}
	}
}
