package pdfio

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// dirEntries lists the names in dir: a temporary file left behind shows.
func dirEntries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// oldFile makes dir/out.pdf with data and exactly the permission bits perm.
func oldFile(t *testing.T, dir, data string, perm os.FileMode) string {
	t.Helper()
	path := filepath.Join(dir, "out.pdf")
	if err := os.WriteFile(path, []byte(data), perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, perm); err != nil { // whatever the umask
		t.Fatal(err)
	}
	return path
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWriteFileNew(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.pdf")
	if err := WriteFile(path, []byte("new"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, path); got != "new" {
		t.Errorf("WriteFile wrote %q, want %q", got, "new")
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("new file's mode %v, want 0644", fi.Mode().Perm())
	}
	if names := dirEntries(t, dir); len(names) != 1 {
		t.Errorf("directory holds %q, want out.pdf alone", names)
	}
	other := filepath.Join(dir, "private.pdf")
	if err := WriteFile(other, []byte("x"), WriteOptions{Perm: 0o600}); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(other); fi.Mode().Perm() != 0o600 {
		t.Errorf("WriteOptions{Perm: 0600}: mode %v", fi.Mode().Perm())
	}
}

// An existing file is replaced whole and keeps its permission bits.
func TestWriteFileKeepsPermissions(t *testing.T) {
	path := oldFile(t, t.TempDir(), "old bytes, longer", 0o640)
	if err := WriteFile(path, []byte("new"), WriteOptions{Perm: 0o666, Replace: true}); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, path); got != "new" {
		t.Errorf("file holds %q, want %q", got, "new")
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the file's own 0640", fi.Mode().Perm())
	}
}

// A symbolic link stays a link: the file it names is replaced, through a
// chain of links, relative or not, and also when it does not exist yet.
func TestWriteFileFollowsLinks(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	target := filepath.Join(elsewhere, "real.pdf")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	mid := filepath.Join(dir, "mid.pdf")
	link := filepath.Join(dir, "link.pdf")
	if err := os.Symlink(target, mid); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("mid.pdf", link); err != nil { // relative
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte("new"), WriteOptions{Replace: true}); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{link, mid} {
		if fi, err := os.Lstat(l); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s is no longer a symbolic link (%v)", l, err)
		}
	}
	if got := readString(t, target); got != "new" {
		t.Errorf("link target holds %q, want %q", got, "new")
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o600 {
		t.Errorf("link target's mode %v, want its own 0600", fi.Mode().Perm())
	}
	if names := dirEntries(t, elsewhere); len(names) != 1 {
		t.Errorf("target's directory holds %q, want real.pdf alone", names)
	}

	dangling := filepath.Join(dir, "dangling.pdf")
	if err := os.Symlink(filepath.Join(elsewhere, "later.pdf"), dangling); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(dangling, []byte("created"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, filepath.Join(elsewhere, "later.pdf")); got != "created" {
		t.Errorf("dangling link's target holds %q", got)
	}
	if fi, _ := os.Lstat(dangling); fi.Mode()&fs.ModeSymlink == 0 {
		t.Error("the dangling link was replaced by a file")
	}

	loop := filepath.Join(dir, "loop.pdf")
	if err := os.Symlink("loop.pdf", loop); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(loop, []byte("x"), WriteOptions{}); err == nil {
		t.Error("a link to itself was written through")
	}
}

// When the write fails, the old file is intact and no temporary file is
// left; the error names the file, not the temporary one.
func TestWriteFileFailure(t *testing.T) {
	dir := t.TempDir()
	path := oldFile(t, dir, "old", 0o644)
	full := errors.New("no space left on device")
	failing := func(f *os.File, b []byte) (int, error) {
		n, _ := f.Write(b[:len(b)/2])
		return n, full
	}
	err := writeFile(path, []byte("new bytes"), WriteOptions{Replace: true}, failing)
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != path || pe.Op != "write" || !errors.Is(err, full) {
		t.Errorf("error %v, want a *fs.PathError for %s wrapping %v", err, path, full)
	}
	if got := readString(t, path); got != "old" {
		t.Errorf("after a failed write the file holds %q, want the old %q", got, "old")
	}
	if names := dirEntries(t, dir); len(names) != 1 {
		t.Errorf("directory holds %q after a failed write, want out.pdf alone", names)
	}
}

func TestWriteFileRefuses(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, path string
		is         error
	}{
		{"missing directory", filepath.Join(dir, "nope", "out.pdf"), fs.ErrNotExist},
		{"a directory", dir, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := WriteFile(tc.path, []byte("x"), WriteOptions{})
			var pe *fs.PathError
			if !errors.As(err, &pe) || pe.Path != tc.path {
				t.Fatalf("WriteFile(%s) = %v, want a *fs.PathError for it", tc.path, err)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("WriteFile(%s) = %v, want it to wrap %v", tc.path, err, tc.is)
			}
		})
	}
	if names := dirEntries(t, dir); len(names) != 0 {
		t.Errorf("directory holds %q, want nothing", names)
	}
	if os.Geteuid() == 0 {
		return // root writes in a read-only directory; TestWriteFileFailure covers a failure
	}
	ro := t.TempDir()
	path := oldFile(t, ro, "old", 0o644)
	if err := os.Chmod(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(ro, 0o755)
	if err := WriteFile(path, []byte("new"), WriteOptions{Replace: true}); !errors.Is(err, fs.ErrPermission) {
		t.Errorf("WriteFile in a read-only directory = %v, want a permission error", err)
	}
	if got := readString(t, path); got != "old" {
		t.Errorf("file holds %q, want the old %q", got, "old")
	}
}

// Without Replace, a file that exists is refused (fs.ErrExist), also when
// it appears while the output is written; an output closed without
// Commit leaves nothing.
func TestWriteFileNoReplace(t *testing.T) {
	dir := t.TempDir()
	path := oldFile(t, dir, "old", 0o644)
	for name, err := range map[string]error{
		"CheckOutput": CheckOutput(path, WriteOptions{}),
		"WriteFile":   WriteFile(path, []byte("new"), WriteOptions{}),
	} {
		if !errors.Is(err, fs.ErrExist) {
			t.Errorf("%s of an existing file without Replace = %v, want fs.ErrExist", name, err)
		}
	}
	later := filepath.Join(dir, "later.pdf")
	w, err := CreateOutput(later, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(later, []byte("theirs"), 0o644); err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("ours"))
	if err := w.Commit(); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Commit over a file made since = %v, want fs.ErrExist", err)
	}
	w.Close()
	if got := readString(t, later); got != "theirs" {
		t.Errorf("the file made since holds %q", got)
	}
	w, err = CreateOutput(filepath.Join(dir, "abandoned.pdf"), WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("half"))
	w.Close()
	if names := dirEntries(t, dir); len(names) != 2 {
		t.Errorf("directory holds %q, want out.pdf and later.pdf alone", names)
	}
}

// CheckOutput names a directory that does not exist, and leaves nothing.
func TestCheckOutputMissingDirectory(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "nodir", "x.pdf")
	err := CheckOutput(path, WriteOptions{})
	want := "write " + path + ": the directory " + filepath.Join(dir, "nodir") + " does not exist"
	if !errors.Is(err, fs.ErrNotExist) || err == nil || err.Error() != want {
		t.Errorf("CheckOutput = %v, want %q", err, want)
	}
	if err := CheckOutput(filepath.Join(dir, "new.pdf"), WriteOptions{}); err != nil {
		t.Errorf("CheckOutput of a new file = %v", err)
	}
	if names := dirEntries(t, dir); len(names) != 0 {
		t.Errorf("directory holds %q, want nothing", names)
	}
}
