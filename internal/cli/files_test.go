package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webcap/webcap/internal/pdfbuild"
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
	// A manifest whose input PDF is missing.
	noInput := in("no-input.json")
	os.WriteFile(noInput, []byte(`{"input": "missing.pdf", "pageSets": [{"pages": "1", "url": "http://a/", "source": "not.pdf"}]}`), 0o644)
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
		{[]string{"build", noInput, "-o", out}, exitIOError},
		{[]string{"build", "--sources", missing, missing, "-o", out}, exitIOError},
		{[]string{"id", missing}, exitIOError},
		{[]string{"id", "--aux", missing, notPDF}, exitIOError},
		{[]string{"refresh", "--dry-run", missing}, exitIOError},
		{[]string{"append", missing, "http://a/", "-o", out}, exitIOError},
		// A file that is not a PDF is a finding about the file, the same
		// way everywhere: 4, never worth retrying.
		{[]string{"info", notPDF}, exitInvalid},
		{[]string{"lookup", notPDF, "http://a/"}, exitInvalid},
		{[]string{"fix", "--dry-run", notPDF}, exitInvalid},
		{[]string{"audit", "--in-process", notPDF}, exitInvalid},
		{[]string{"audit", "--in-process", notPDF, missing}, exitIOError}, // 3 wins over 4
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

// A file pdfio reads but cannot update (startxref reaches no cross-reference
// section) fails fix, with the file named once; it is no I/O error.
func TestFixCannotUpdate(t *testing.T) {
	b, err := pdfbuild.Sample("damaged")
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.LastIndex(b, []byte("startxref\n")) + len("startxref\n")
	j := i + bytes.IndexByte(b[i:], '\n')
	bad := append(append(append([]byte{}, b[:i]...), "17"...), b[j:]...)
	in := filepath.Join(t.TempDir(), "bad.pdf")
	if err := os.WriteFile(in, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	ios, _, stdout, stderr := Test()
	if code := Main(context.Background(), []string{"fix", in, "-o", in + ".fixed"}, ios); code != exitFailed {
		t.Errorf("exit %d, want %d\n%s%s", code, exitFailed, stdout, stderr)
	}
	if n := strings.Count(stderr.String(), in); n != 1 || !strings.Contains(stderr.String(), "startxref 17") {
		t.Errorf("stderr names %s %d times, want once with the cause:\n%s", in, n, stderr)
	}
}
