package record

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// buildCase writes internal/pdfbuild's generated build case of sets page
// sets (bench/cmd/genbuild's) into a temporary directory and returns its
// manifest's path and bytes.
func buildCase(tb testing.TB, sets int) (path string, data []byte) {
	tb.Helper()
	dir := tb.TempDir()
	if err := pdfbuild.BuildCase(sets, dir); err != nil {
		tb.Fatal(err)
	}
	path = filepath.Join(dir, "manifest.json")
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return path, data
}
