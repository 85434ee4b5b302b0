package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// No output of audit or info shows a password of the file's URLs (its
// source, alias chain and URLS key carry one): every URL goes through
// audit.WithoutPassword.
func TestNoURLPassword(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "credentials.pdf")
	if err := os.WriteFile(in, pdfbuild.Credentials("t"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"audit", "--in-process", in},
		{"audit", "--in-process", "--verbose", in},
		{"audit", "--in-process", "--json", "--sets", in},
		{"audit", "--in-process", "--jsonl", "--sets", in},
		{"audit", "--in-process", "--format", "verapdf", in},
		{"audit", "--in-process", "--format", "premis", in},
		{"audit", "--in-process", "--format", "archivematica", in},
		{"audit", "--in-process", "--format", "sarif", in},
		{"audit", "--in-process", "--format", "junit", in},
		{"info", in},
		{"info", "--json", in},
	} {
		t.Run(strings.Join(args[:len(args)-1], " "), func(t *testing.T) {
			ios, _, stdout, stderr := Test()
			if code := Main(context.Background(), args, ios); code != 0 {
				t.Fatalf("webcap %q: exit %d; stderr %q", args, code, stderr)
			}
			if args[len(args)-2] != "archivematica" && !strings.Contains(stdout.String(), "alice") { // (a verdict only)
				t.Errorf("webcap %q does not show the URL: %s", args, stdout)
			}
			for _, out := range []string{stdout.String(), stderr.String()} {
				if strings.Contains(out, "s3cret") {
					t.Errorf("webcap %q shows a password: %s", args, out)
				}
			}
		})
	}
}
