package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestWritersToStdoutAndInPlace: capture, append and refresh write the PDF
// to stdout with -o - (the summary goes to stderr, none of it into the
// PDF; qpdf --check accepts what was written), and append and refresh
// replace their input with --in-place, a symbolic link staying one.
func TestWritersToStdoutAndInPlace(t *testing.T) {
	browserSuite(t)
	qpdf, err := exec.LookPath("qpdf")
	if err != nil {
		t.Skip("qpdf is not installed")
	}
	s := newE2ESite(t)
	dir := t.TempDir()
	flags := []string{"--ignore-robots", "--wait-idle", "50ms", "--allow-private"}
	run := func(args ...string) (stdout, stderr *bytes.Buffer) {
		t.Helper()
		ios, _, stdout, stderr := Test()
		if code := Main(context.Background(), args, ios); code != 0 {
			t.Fatalf("webcap %q: exit %d\n%s", args, code, stderr)
		}
		return stdout, stderr
	}
	check := func(name string, pdf []byte) string {
		t.Helper()
		if !bytes.HasPrefix(pdf, []byte("%PDF-")) || bytes.Contains(pdf, []byte("audits with")) {
			t.Fatalf("%s: stdout is not the PDF alone: %.40q", name, pdf)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, pdf, 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(qpdf, "--check", p).CombinedOutput(); err != nil {
			t.Errorf("qpdf --check %s: %v\n%s", name, err, out)
		}
		return p
	}

	out, errOut := run(append([]string{"capture", "-o", "-"}, append(flags, s.srv.URL+"/docs/a.html")...)...)
	if !strings.Contains(errOut.String(), "stdout: 1 page captured") || !strings.Contains(errOut.String(), "audits with no error") {
		t.Errorf("capture -o -: stderr %q", errOut)
	}
	captured := check("captured.pdf", out.Bytes())

	out, errOut = run(append([]string{"append", "-o", "-"}, append(flags, captured, s.srv.URL+"/docs/b.html")...)...)
	if !strings.Contains(errOut.String(), "1 page captured and added") {
		t.Errorf("append -o -: stderr %q", errOut)
	}
	appended := check("appended.pdf", out.Bytes())

	out, errOut = run(append([]string{"refresh", "-o", "-"}, append(flags, appended)...)...)
	if !strings.Contains(errOut.String(), "compared") {
		t.Errorf("refresh -o -: stderr %q", errOut)
	}
	check("refreshed.pdf", out.Bytes())

	// --in-place through a symbolic link.
	link := filepath.Join(dir, "link.pdf")
	if err := os.Symlink(captured, link); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(captured)
	run(append([]string{"append", "--in-place"}, append(flags, link, s.srv.URL+"/docs/b.html")...)...)
	run(append([]string{"refresh", "--in-place"}, append(flags, link)...)...)
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("%s is no longer a symbolic link: %v", link, err)
	}
	after, _ := os.ReadFile(captured)
	if len(after) <= len(before) || !bytes.Equal(after[:len(before)], before) {
		t.Errorf("--in-place: %d bytes before, %d after; the original bytes kept: %v", len(before), len(after), bytes.HasPrefix(after, before))
	}
	check("inplace.pdf", after)
}
