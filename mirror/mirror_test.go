package mirror_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webcap/webcap/mirror"
)

func TestDir(t *testing.T) {
	dir := t.TempDir()
	write := func(p, data string) {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(data), 0o644)
	}
	write("www.example.com/index.html", "home")
	write("www.example.com/a b/c.gif", "decoded")
	write("www.example.com/page.php?x=1", "query")
	write("www.example.com:8080/p.png", "port")
	write("secret", "outside the host dirs")
	m := mirror.Dir{Path: dir}
	for u, want := range map[string]string{
		"http://www.example.com/":             "home",
		"http://www.example.com/a%20b/c.gif":  "decoded",
		"http://www.example.com/page.php?x=1": "query",
		"http://www.example.com:8080/p.png":   "port",
	} {
		rc, err := m.Open(u)
		if err != nil {
			t.Errorf("Open(%s): %v", u, err)
			continue
		}
		b := new(bytes.Buffer)
		b.ReadFrom(rc)
		rc.Close()
		if b.String() != want {
			t.Errorf("Open(%s) = %q, want %q", u, b, want)
		}
	}
	for _, u := range []string{"http://www.example.com/missing.gif", "http://www.example.com/../secret", "http://../secret", "mailto:x@y"} {
		if _, err := m.Open(u); err == nil {
			t.Errorf("Open(%s) succeeded", u)
		}
	}
	if u, ok := m.URLOf(filepath.Join(dir, "www.example.com", "a b", "c.gif")); !ok || u != "http://www.example.com/a b/c.gif" {
		t.Errorf("URLOf = %q, %v", u, ok)
	}
}

func TestManifest(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "logo.gif"), []byte("GIF"), 0o644)
	os.WriteFile(filepath.Join(dir, "m.json"), []byte(`{"HTTP://WWW.Example.com:80/logo.gif#x": "logo.gif"}`), 0o644)
	m, err := mirror.LoadManifest(filepath.Join(dir, "m.json"), nil, mirror.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rc, err := m.Open("http://www.example.com/logo.gif")
	if err != nil {
		t.Fatal(err)
	}
	rc.Close()
	if _, err := m.Open("http://www.example.com/other.gif"); err == nil {
		t.Error("found a file the manifest does not list")
	}
	os.WriteFile(filepath.Join(dir, "bad.json"), []byte(`["not", "an", "object"]`), 0o644)
	if _, err := mirror.LoadManifest(filepath.Join(dir, "bad.json"), nil, mirror.Options{}); err == nil {
		t.Error("a manifest that is not an object loaded")
	}
}

// A manifest that says two things of one URL is refused: a name given
// twice (encoding/json would keep the last), or two spellings of one URL
// given different files (which one would win depended on map order). Two
// spellings of one URL given the same file are one entry.
func TestManifestRefused(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		json string
		want string // in the error; "" for none
	}{
		{`{"http://a/x.gif": "x.gif",
  "http://a/x.gif": "y.gif"}`, `m.json:2:3: http://a/x.gif: "http://a/x.gif" is given twice in one object (JSON keeps only one)`},
		{`{"http://a/x.gif": "x.gif", "HTTP://A:80/x.gif": "y.gif"}`, `"HTTP://A:80/x.gif" and "http://a/x.gif" are one URL, http://a/x.gif, given two files`},
		{`{"http://a/x.gif": "x.gif", "HTTP://A:80/x.gif": "x.gif"}`, ""},
	} {
		path := filepath.Join(dir, "m.json")
		if err := os.WriteFile(path, []byte(tc.json), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := mirror.LoadManifest(path, nil, mirror.Options{})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.json, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want %q in it", tc.json, err, tc.want)
		}
	}
}
