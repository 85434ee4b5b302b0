package mirror

import (
	"bytes"
	"io"
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

// ReadFast reads what Open reads on its fast path, into the buffer given
// when it has room, and leaves every other file to Open (false).
func TestReadFast(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "h", "s"), 0o755)
	os.MkdirAll(filepath.Join(dir, "out"), 0o755)
	os.WriteFile(filepath.Join(dir, "h", "s", "f.html"), []byte("plain"), 0o644)
	os.WriteFile(filepath.Join(dir, "h", "s", "g.html"), []byte("other page"), 0o644)
	os.WriteFile(filepath.Join(dir, "h", "s", "index.html"), []byte("index"), 0o644)
	os.WriteFile(filepath.Join(dir, "h", "s", "v?id=1"), []byte("query"), 0o644)
	os.WriteFile(filepath.Join(dir, "h", "empty.html"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "h", "big.html"), bytes.Repeat([]byte("x"), 100), 0o644)
	os.Symlink("f.html", filepath.Join(dir, "h", "s", "l.html"))
	os.Symlink(filepath.Join(dir, "out"), filepath.Join(dir, "h", "d"))
	os.WriteFile(filepath.Join(dir, "out", "f.html"), []byte("outside"), 0o644)
	os.Mkdir(filepath.Join(dir, "h", "s", "dir.html"), 0o755)
	src, err := Load(dir, Options{MaxFileSize: 50})
	if err != nil {
		t.Fatal(err)
	}
	d := src.(Dir)
	if _, ok := d.ReadFast(nil, "http://h/s/f.html"); !ok && d.h.off.Load() {
		t.Skip("no openat2 here: every file goes to Open")
	}
	buf := make([]byte, 0, 64)
	for _, tc := range []struct {
		url string
		ok  bool
	}{
		{"http://h/s/f.html", true}, {"https://h/s/g.html", true}, {"http://h/s/", true},
		{"http://h/s/v?id=1", true}, {"http://h/empty.html", true},
		{"http://h/s/l.html", false},    // a link: Open follows it inside
		{"http://h/d/f.html", false},    // a link out: Open refuses it
		{"http://h/s/none.html", false}, // missing: Open says so
		{"http://h/s/dir.html", false},  // a directory
		{"http://h/big.html", false},    // over MaxFileSize
		{"http://h/s/%66.html", false},  // an escape: not a plain URL
		{"file://" + filepath.Join(dir, "h", "s", "f.html"), false},
	} {
		data, ok := d.ReadFast(buf, tc.url)
		if ok != tc.ok {
			t.Errorf("ReadFast(%q) ok = %v, want %v", tc.url, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		rc, err := d.Open(tc.url)
		if err != nil {
			t.Fatalf("Open(%q): %v", tc.url, err)
		}
		want, _ := io.ReadAll(rc)
		rc.Close()
		if !bytes.Equal(data, want) {
			t.Errorf("ReadFast(%q) = %q, Open reads %q", tc.url, data, want)
		}
		if len(data) > 0 && &data[:1][0] != &buf[:1][0] {
			t.Errorf("ReadFast(%q): not read into the buffer given, which had room", tc.url)
		}
	}
	// A buffer too small: a new one, the given one untouched.
	small := []byte("abc")[:0:3]
	data, ok := d.ReadFast(small, "http://h/s/g.html")
	if !ok || string(data) != "other page" || string(small[:3]) != "abc" {
		t.Errorf("ReadFast into a small buffer = %q, %v; buffer %q", data, ok, small[:3])
	}
	d.AllowOutside = true
	if _, ok := d.ReadFast(buf, "http://h/s/f.html"); ok {
		t.Error("ReadFast with AllowOutside: want false (Open's reads are not confined)")
	}
}
