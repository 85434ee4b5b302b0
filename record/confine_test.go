package record

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/mirror"
	"github.com/webcap/webcap/webcapture"
)

// A manifest's paths (input, sources, warc, a set's source) and the files
// its sources name are read inside the manifest's directory only: one that
// leads outside, by "..", an absolute path or a symbolic link, is refused
// (a *mirror.OutsideError naming the field), and read with AllowOutside.
func TestManifestPathsConfined(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(base, "m")
	if err := os.CopyFS(filepath.Join(dir, "site"), os.DirFS("../testdata/build/site")); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(base, "site"), os.DirFS("../testdata/build/site")); err != nil {
		t.Fatal(err)
	}
	web := pdfbuild.Web(false)
	for _, p := range []string{filepath.Join(dir, "web.pdf"), filepath.Join(base, "web.pdf")} {
		if err := os.WriteFile(p, web, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	notes, _ := os.ReadFile("../testdata/build/site/www.example.com/docs/notes.txt")
	os.WriteFile(filepath.Join(base, "notes.txt"), notes, 0o644)
	if err := os.Symlink("../site", filepath.Join(dir, "site-link")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	// A mirror whose host directory is a link out of it.
	os.MkdirAll(filepath.Join(dir, "linked"), 0o755)
	os.Symlink("../../site/www.example.com", filepath.Join(dir, "linked", "www.example.com"))
	arc := filepath.Join(base, "small.warc")
	if b, err := os.ReadFile("../warc/testdata/small.warc"); err != nil || os.WriteFile(arc, b, 0o644) != nil {
		t.Fatalf("copying a WARC file: %v", err)
	}

	tests := []struct {
		name  string
		edit  func(m *Manifest)
		field string // the field the refusal names; "": none
	}{
		{"inside", func(m *Manifest) {}, ""},
		{"input dotdot", func(m *Manifest) { m.Input = "../web.pdf" }, "input"},
		{"input absolute", func(m *Manifest) { m.Input = filepath.Join(base, "web.pdf") }, "input"},
		{"input absolute inside", func(m *Manifest) { m.Input = filepath.Join(dir, "web.pdf") }, ""},
		{"sources dotdot", func(m *Manifest) { m.Sources = "../site" }, "sources"},
		{"sources link", func(m *Manifest) { m.Sources = "site-link" }, "sources"},
		{"a host directory link in the sources", func(m *Manifest) { m.Sources = "linked" }, "pageSets[0].source"},
		{"source dotdot", func(m *Manifest) { m.PageSets[1].Source = "../notes.txt" }, "pageSets[1].source"},
		{"source absolute", func(m *Manifest) { m.PageSets[1].Source = filepath.Join(base, "notes.txt") }, "pageSets[1].source"},
		{"warc absolute", func(m *Manifest) { m.Sources, m.WARC = "", arc }, "warc"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, allow := range []bool{false, true} {
				m := loadExample(t)
				m.name, m.dir = filepath.Join(dir, "manifest.json"), dir
				tc.edit(m)
				_, err := Apply(m, Options{AllowOutside: allow})
				var oe *mirror.OutsideError
				var me *ManifestError
				switch {
				case tc.field == "" || allow:
					if errors.Is(err, webcapture.ErrRefused) || (err != nil && tc.field != "warc") {
						t.Errorf("allow=%v: Apply = %v, want no error", allow, err)
					}
				case !errors.As(err, &oe) || !errors.As(err, &me) || me.Field != tc.field:
					t.Errorf("Apply = %v, want %s refused as outside", err, tc.field)
				case !strings.Contains(err.Error(), "outside") || !strings.Contains(oe.Target+oe.Name, base):
					t.Errorf("Apply = %v: does not say where the path leads", err)
				}
			}
		})
	}
}
