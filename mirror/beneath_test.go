package mirror_test

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/webcap/webcap/mirror"
)

// Load's Dir opens plain files by its fast path (openat2 on Linux) and
// leaves links, FIFOs, directories, missing and large files to OpenIn: it
// reads what Dir{Path} (OpenIn alone) reads, and refuses what it refuses,
// in the same words.
func TestDirFastPathAsOpenIn(t *testing.T) {
	base, root := confined(t)
	host := filepath.Join(root, "www.example.com")
	for name, data := range map[string]string{"a.html": "page", "s/t/deep.css": "css", "big.js": "0123456789abcdef"} {
		p := filepath.Join(host, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(data), 0o644)
	}
	os.Mkdir(filepath.Join(host, "dir.html"), 0o755)
	os.Symlink("a.html", filepath.Join(host, "link-in.html"))
	os.Symlink("../../secret", filepath.Join(host, "link-out.html"))
	os.Symlink("s", filepath.Join(host, "dlink"))
	os.Symlink("../outdir", filepath.Join(root, "evil.example"))
	if err := mkfifo(filepath.Join(host, "fifo.html")); err != nil {
		t.Logf("no FIFO here: %v", err)
	}
	urls := []string{
		"http://www.example.com/a.html", "http://www.example.com/s/t/deep.css", "http://www.example.com/link-in.html",
		"http://www.example.com/link-out.html", "http://www.example.com/dlink/t/deep.css", "http://evil.example/x.gif",
		"http://www.example.com/dir.html", "http://www.example.com/fifo.html", "http://www.example.com/missing.html",
		"http://www.example.com/big.js", "file://" + filepath.ToSlash(filepath.Join(host, "a.html")),
		"file://" + filepath.ToSlash(filepath.Join(base, "secret")),
	}
	for _, o := range []mirror.Options{{}, {MaxFileSize: 8}, {AllowOutside: true}} {
		src, err := mirror.Load(root, o)
		if err != nil {
			t.Fatal(err)
		}
		slow := mirror.Dir{Path: root, Options: o}
		for _, u := range urls {
			got, gerr := read(src.Open(u))
			want, werr := read(slow.Open(u))
			if got != want || errText(gerr) != errText(werr) {
				t.Errorf("%+v: Open(%s) = %q, %v; OpenIn reads %q, %v", o, u, got, gerr, want, werr)
			}
		}
	}
}

func read(rc io.ReadCloser, err error) (string, error) {
	if err != nil {
		return "", err
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	return string(b), err
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// A Dir's file read whole gives its bytes as they are (Bytes, without a
// copy): all of them, then what is left after a read.
func TestDirFileBytes(t *testing.T) {
	_, root := confined(t)
	host := filepath.Join(root, "www.example.com")
	os.MkdirAll(host, 0o755)
	os.WriteFile(filepath.Join(host, "a.html"), []byte("<p>page</p>"), 0o644)
	src, err := mirror.Load(root, mirror.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rc, err := src.Open("http://www.example.com/a.html")
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	f, ok := rc.(interface{ Bytes() []byte })
	if !ok {
		t.Skip("no fast path here: the file is an os.File")
	}
	if got := string(f.Bytes()); got != "<p>page</p>" {
		t.Errorf("Bytes() = %q, want the file's", got)
	}
	io.ReadFull(rc, make([]byte, 3))
	if got := string(f.Bytes()); got != "page</p>" {
		t.Errorf("Bytes() after 3 bytes read = %q, want %q", got, "page</p>")
	}
}
