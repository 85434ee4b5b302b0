package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// stdin read from a regular file is an input like any other: no output
// of the run may be that file; one that is not read is no input.
func TestRunFilesStdin(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	const shard = `{"schema":"webcap.audit-file/1","input":"a.pdf","findings":[],"jhoveStatus":"Well-Formed and valid"}` + "\n"
	contents := map[string]string{"s.jsonl": shard, "list": "a.pdf\n", "pw": "secret\n"}
	for name, b := range contents {
		if err := os.WriteFile(name, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		stdin string
		args  []string
		code  int
		msg   string
	}{
		{"s.jsonl", []string{"report", "-o", "s.jsonl", "--force", "-"}, exitUsage, "report: -o s.jsonl is an input of this run (stdin): give another file"},
		{"s.jsonl", []string{"report", "--html", "./s.jsonl", "--force", "-"}, exitUsage, "report: --html ./s.jsonl is an input of this run (stdin)"},
		{"list", []string{"audit", "--in-process", "--files-from", "-", "--html", "list", "--force"}, exitUsage, "audit: --html list is an input of this run (stdin)"},
		{"pw", []string{"audit", "--in-process", "--password-file", "-", "--html", "pw", "--force", "a.pdf"}, exitUsage, "audit: --html pw is an input of this run (stdin)"},
		// Not read: no input (and the list is replaced).
		{"list", []string{"report", "-o", "list", "--force", "s.jsonl"}, exitOK, ""},
	} {
		f, err := os.Open(filepath.Join(dir, tc.stdin))
		if err != nil {
			t.Fatal(err)
		}
		ios, _, _, stderr := Test()
		ios.In = f
		code := Main(context.Background(), tc.args, ios)
		f.Close()
		if code != tc.code || !strings.Contains(stderr.String(), tc.msg) {
			t.Errorf("webcap %q < %s: exit %d, %q; want %d and %q", tc.args, tc.stdin, code, stderr, tc.code, tc.msg)
		}
		if b, err := os.ReadFile(tc.stdin); err != nil || tc.code == exitUsage && string(b) != contents[tc.stdin] {
			t.Errorf("webcap %q < %s: %s changed (%v)", tc.args, tc.stdin, tc.stdin, err)
		}
	}
}
