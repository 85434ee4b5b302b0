package audit_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// The vendored signed PDFs are the ones testdata/seals/README.md describes,
// byte for byte (SHA256SUMS).
func TestSealCorpusProvenance(t *testing.T) {
	dir := filepath.Join("testdata", "seals")
	sums, err := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	if len(files) == 0 {
		t.Fatal("no PDF in", dir)
	}
	want := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(sums)), "\n") {
		sum, name, ok := strings.Cut(l, "  ")
		if !ok {
			t.Fatalf("SHA256SUMS: %q is not `digest  name`", l)
		}
		want[name] = sum
	}
	var listed []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([^`]+\\.pdf)` \\|").FindAllStringSubmatch(string(readme), -1) {
		listed = append(listed, m[1])
	}
	var names []string
	for _, f := range files {
		name := filepath.Base(f)
		names = append(names, name)
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		if got := hex.EncodeToString(sum[:]); got != want[name] {
			t.Errorf("%s: sha256 %s, SHA256SUMS says %q", name, got, want[name])
		}
	}
	sort.Strings(listed)
	if strings.Join(listed, " ") != strings.Join(names, " ") {
		t.Errorf("README.md's table lists %v,\nthe directory holds %v", listed, names)
	}
	if len(want) != len(names) {
		t.Errorf("SHA256SUMS has %d files, the directory %d", len(want), len(names))
	}
}
