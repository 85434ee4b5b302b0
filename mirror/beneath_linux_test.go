package mirror

import (
	"os"
	"path/filepath"
	"testing"
)

// The fast path takes the plain files, and no link.
func TestReadBeneath(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "h", "s"), 0o755)
	os.WriteFile(filepath.Join(dir, "h", "s", "f.html"), []byte("plain"), 0o644)
	os.Symlink("f.html", filepath.Join(dir, "h", "s", "l.html"))
	os.Symlink("s", filepath.Join(dir, "h", "d"))
	h := newDirHandle()
	if _, ok := h.readBeneath(dir, "h/s/f.html", Options{}); !ok && h.off.Load() {
		t.Skip("no openat2 here: every file goes to OpenIn")
	}
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"h/s/f.html", true}, {"h/s/l.html", false}, {"h/d/f.html", false}, {"h/s/../s/f.html", true},
		{"../x", false}, {"h/s", false}, {"h/s/none.html", false},
	} {
		data, ok := h.readBeneath(dir, tc.name, Options{})
		if ok != tc.ok || ok && string(data) != "plain" {
			t.Errorf("readBeneath(%q) = %q, %v, want ok %v", tc.name, data, ok, tc.ok)
		}
	}
}
