package mirror_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/webcap/webcap/mirror"
	"github.com/webcap/webcap/webcapture"
)

// confined lays out a directory "root" to confine reads to, beside a
// file and a directory outside it:
//
//	secret                  outside
//	outdir/x.gif            outside
//	root/in.txt
//	root/sub/inner.gif
//	root/link-in   -> sub/inner.gif    (stays inside)
//	root/link-out  -> ../secret        (leaves)
//	root/link-abs  -> /abs/secret      (leaves)
//	root/dir-out   -> ../outdir        (a directory that leaves)
//	root/dangling  -> ../nowhere       (leaves, to nothing)
func confined(t *testing.T) (base, root string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir()) // targets are said with links resolved
	if err != nil {
		t.Fatal(err)
	}
	root = filepath.Join(base, "root")
	for name, data := range map[string]string{
		"secret": "outside", "outdir/x.gif": "outside gif",
		"root/in.txt": "inside", "root/sub/inner.gif": "inner",
	} {
		p := filepath.Join(base, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, to := range map[string]string{
		"link-in": "sub/inner.gif", "link-out": "../secret", "link-abs": filepath.Join(base, "secret"),
		"dir-out": "../outdir", "dangling": "../nowhere",
	} {
		if err := os.Symlink(to, filepath.Join(root, name)); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	return base, root
}

func TestOpenIn(t *testing.T) {
	base, root := confined(t)
	tests := []struct {
		name    string
		file    string // relative to root, or absolute
		want    string // the data read; "" when refused
		outside bool   // refused as outside
		target  string // where the refusal says it leads, relative to base
	}{
		{"a file", "in.txt", "inside", false, ""},
		{"a file below", "sub/inner.gif", "inner", false, ""},
		{"a link that stays inside", "link-in", "inner", false, ""},
		{"an absolute path inside", filepath.Join(root, "in.txt"), "inside", false, ""},
		{"a dotdot that stays inside", "sub/../in.txt", "inside", false, ""},
		{"a link out", "link-out", "", true, "secret"},
		{"an absolute link out", "link-abs", "", true, "secret"},
		{"through a directory link out", "dir-out/x.gif", "", true, "outdir/x.gif"},
		{"a dangling link out", "dangling", "", true, "nowhere"},
		{"dotdot", "../secret", "", true, "secret"},
		{"an absolute path outside", filepath.Join(base, "secret"), "", true, "secret"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := mirror.OpenIn(root, tc.file, mirror.Options{})
			var oe *mirror.OutsideError
			switch {
			case tc.outside:
				if !errors.As(err, &oe) || !errors.Is(err, webcapture.ErrRefused) {
					t.Fatalf("OpenIn(%q) = %v, want an *OutsideError", tc.file, err)
				}
				if want := filepath.Join(base, tc.target); oe.Target != want {
					t.Errorf("OpenIn(%q): Target %q, want %q", tc.file, oe.Target, want)
				}
				if msg := err.Error(); !strings.Contains(msg, "outside "+root) || !strings.Contains(msg, "--allow-outside") {
					t.Errorf("OpenIn(%q): %q does not name the directory and the rule", tc.file, msg)
				}
				// With AllowOutside, what it leads to is read (a dangling
				// link still leads to nothing).
				f, err := mirror.OpenIn(root, tc.file, mirror.Options{AllowOutside: true})
				if tc.target == "nowhere" {
					if err == nil || errors.As(err, &oe) {
						t.Errorf("OpenIn(%q) allowed outside = %v, want no such file", tc.file, err)
					}
					return
				}
				if got := readAll(t, f, err); !strings.HasPrefix(got, "outside") {
					t.Errorf("OpenIn(%q) allowed outside read %q", tc.file, got)
				}
			default:
				if got := readAll(t, f, err); got != tc.want {
					t.Errorf("OpenIn(%q) read %q, want %q", tc.file, got, tc.want)
				}
			}
		})
	}
	// A file that is not there is no refusal, and is named in full.
	_, err := mirror.OpenIn(root, "missing.gif", mirror.Options{})
	if oe := (*mirror.OutsideError)(nil); errors.As(err, &oe) || !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), filepath.Join(root, "missing.gif")) {
		t.Errorf("OpenIn(missing.gif) = %v, want not found, named in full", err)
	}
	if _, err := mirror.StatIn(root, "link-out", mirror.Options{}); !errors.Is(err, webcapture.ErrRefused) {
		t.Errorf("StatIn(link-out) = %v, want refused", err)
	}
	if fi, err := mirror.StatIn(root, "link-in", mirror.Options{}); err != nil || fi.Size() != 5 {
		t.Errorf("StatIn(link-in) = %v, %v", fi, err)
	}
}

func readAll(t *testing.T, f *os.File, err error) string {
	t.Helper()
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A mirror reads its files inside its directory only: a link in it that
// leaves (a file, a host directory), and a file: URL outside it, are
// refused; a file: URL inside it is read.
func TestDirConfined(t *testing.T) {
	base, root := confined(t)
	host := filepath.Join(root, "www.example.com")
	os.MkdirAll(host, 0o755)
	os.WriteFile(filepath.Join(host, "logo.gif"), []byte("logo"), 0o644)
	os.Symlink("../../secret", filepath.Join(host, "index.html"))
	os.Symlink("../outdir", filepath.Join(root, "evil.example"))
	secretURL := "file://" + filepath.ToSlash(filepath.Join(base, "secret"))
	insideURL := "file://" + filepath.ToSlash(filepath.Join(host, "logo.gif"))
	d := mirror.Dir{Path: root}
	for u, want := range map[string]string{
		"http://www.example.com/logo.gif": "logo",
		insideURL:                         "logo",
		"http://www.example.com/":         "",
		"http://evil.example/x.gif":       "",
		secretURL:                         "",
	} {
		rc, err := d.Open(u)
		if want == "" {
			if !errors.Is(err, webcapture.ErrRefused) {
				t.Errorf("Open(%s) = %v, want refused", u, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Open(%s): %v", u, err)
			continue
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		if string(b) != want {
			t.Errorf("Open(%s) = %q, want %q", u, b, want)
		}
	}
	open := mirror.Dir{Path: root, Options: mirror.Options{AllowOutside: true}}
	for _, u := range []string{"http://www.example.com/", "http://evil.example/x.gif", secretURL} {
		rc, err := open.Open(u)
		if err != nil {
			t.Errorf("Open(%s) allowed outside: %v", u, err)
			continue
		}
		rc.Close()
	}
	// A file of the mirror named on its own is checked the same way.
	if err := d.Check(filepath.Join(host, "index.html")); !errors.Is(err, webcapture.ErrRefused) {
		t.Errorf("Check(index.html) = %v, want refused", err)
	}
	for _, p := range []string{filepath.Join(host, "logo.gif"), filepath.Join(base, "secret")} {
		if err := d.Check(p); err != nil {
			t.Errorf("Check(%s) = %v, want nil (inside, or not the mirror's)", p, err)
		}
	}
}

// A manifest's files are read inside its directory only.
func TestManifestConfined(t *testing.T) {
	base, root := confined(t)
	m := filepath.Join(root, "files.json")
	os.WriteFile(m, []byte(`{"http://a.example/in": "in.txt", "http://a.example/link": "link-in",
		"http://a.example/up": "../secret", "http://a.example/abs": "`+filepath.ToSlash(filepath.Join(base, "secret"))+`",
		"http://a.example/out": "link-out"}`), 0o644)
	for _, allow := range []bool{false, true} {
		src, err := mirror.Load(m, mirror.Options{AllowOutside: allow})
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range []string{"http://a.example/in", "http://a.example/link", "http://a.example/up", "http://a.example/abs", "http://a.example/out"} {
			rc, err := src.Open(u)
			inside := strings.HasSuffix(u, "/in") || strings.HasSuffix(u, "/link")
			switch {
			case inside || allow:
				if err != nil {
					t.Errorf("allow=%v: Open(%s): %v", allow, u, err)
					continue
				}
				rc.Close()
			case !errors.Is(err, webcapture.ErrRefused):
				t.Errorf("Open(%s) = %v, want refused", u, err)
			}
		}
	}
}

// A FIFO among the sources is refused at once: opening it does not wait
// for a writer that never comes.
func TestOpenInFIFO(t *testing.T) {
	_, root := confined(t)
	if err := mkfifo(filepath.Join(root, "fifo")); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	for _, allow := range []bool{false, true} {
		if _, err := mirror.OpenIn(root, "fifo", mirror.Options{AllowOutside: allow}); !errors.Is(err, mirror.ErrNotRegular) || !strings.Contains(err.Error(), filepath.Join(root, "fifo")) {
			t.Errorf("OpenIn(fifo) = %v, want not a regular file, named in full", err)
		}
	}
	if _, err := mirror.OpenIn(root, "sub", mirror.Options{}); !errors.Is(err, syscall.EISDIR) {
		t.Errorf("OpenIn(a directory) = %v, want is a directory", err)
	}
}
