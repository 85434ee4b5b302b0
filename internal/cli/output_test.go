package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// -o - never writes a PDF to a terminal; with stdout redirected it does,
// and the summary goes to stderr.
func TestOutputStdout(t *testing.T) {
	dir := t.TempDir()
	b, err := pdfbuild.Sample("damaged")
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "damaged.pdf")
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tty := range []bool{true, false} {
		ios, _, stdout, stderr := Test()
		ios.OutTTY = tty
		code := Main(context.Background(), []string{"fix", in, "-o", "-"}, ios)
		switch {
		case tty && (code != exitUsage || !strings.Contains(stderr.String(), "which is a terminal") || stdout.Len() > 0):
			t.Errorf("fix -o - to a terminal: exit %d, stdout %d bytes, stderr %q", code, stdout.Len(), stderr)
		case !tty && (code != 0 || !strings.HasPrefix(stdout.String(), "%PDF-") || !strings.Contains(stderr.String(), "written to stdout")):
			t.Errorf("fix -o -: exit %d, stdout %.20q, stderr %q", code, stdout, stderr)
		}
	}
	if _, err := os.Stat("-"); err == nil {
		t.Error("a file named - was written")
	}
}
