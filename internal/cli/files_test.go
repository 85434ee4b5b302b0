package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An input that cannot be read is an I/O error (exit 3) for every command,
// and its message says each operation once.
func TestUnreadableInputs(t *testing.T) {
	dir := t.TempDir()
	in := func(name string) string { return filepath.Join(dir, name) }
	missing, notPDF, out := in("missing.pdf"), in("not.pdf"), in("out.pdf")
	if err := os.WriteFile(notPDF, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"info", missing}, exitIOError},
		{[]string{"lookup", missing, "http://a/"}, exitIOError},
		{[]string{"audit", "--in-process", missing}, exitIOError},
		{[]string{"audit", "--sources", missing, notPDF}, exitIOError},
		{[]string{"fix", "--dry-run", missing}, exitIOError},
		{[]string{"fix", "-o", out, dir}, exitIOError},
		{[]string{"build", missing, "-o", out}, exitIOError},
		{[]string{"build", dir, "-o", out}, exitIOError},
		{[]string{"build", "--sources", missing, missing, "-o", out}, exitIOError},
		{[]string{"id", missing}, exitIOError},
		{[]string{"id", "--aux", missing, notPDF}, exitIOError},
		{[]string{"refresh", "--dry-run", missing}, exitIOError},
		{[]string{"append", missing, "http://a/", "-o", out}, exitIOError},
		// A file that is not a PDF fails the command the same way everywhere.
		{[]string{"info", notPDF}, exitFailed},
		{[]string{"lookup", notPDF, "http://a/"}, exitFailed},
		{[]string{"fix", "--dry-run", notPDF}, exitFailed},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			ios, _, stdout, stderr := Test()
			if code := Main(context.Background(), tc.args, ios); code != tc.want {
				t.Errorf("exit %d, want %d\n%s%s", code, tc.want, stdout, stderr)
			}
			text := stdout.String() + stderr.String()
			for _, op := range []string{"open", "read", "stat", "parse"} {
				if strings.Contains(text, op+": "+op) {
					t.Errorf("%q says %q twice:\n%s", tc.args, op, text)
				}
			}
		})
	}
}
