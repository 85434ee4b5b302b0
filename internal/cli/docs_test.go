package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// The reference generated from the command tree: man pages in docs/man and
// Markdown in docs/cli, one page per command and per help topic.
const (
	manDir = "../../docs/man"
	mdDir  = "../../docs/cli"
	// regenerate is what brings them up to date.
	regenerate = "go test ./internal/cli -run TestDocs -update"
)

// manDate is the date in the man pages' headers (month and year): fixed, so
// that the pages are the same wherever and whenever they are generated.
// Move it forward on a release.
var manDate = time.Date(2026, time.November, 1, 0, 0, 0, 0, time.UTC)

// genDocs writes the man pages into man and the Markdown pages into md.
func genDocs(man, md string) error {
	ios, _, _, _ := Test()
	root := newRootCmd(ios)
	root.DisableAutoGenTag = true
	header := &doc.GenManHeader{Section: "1", Date: &manDate, Source: "webcap", Manual: "webcap manual"}
	if err := doc.GenManTree(root, header, man); err != nil {
		return err
	}
	if err := doc.GenMarkdownTree(root, md); err != nil {
		return err
	}
	// The trees leave out help topics: their pages are written here.
	for _, c := range root.Commands() {
		if !c.IsAdditionalHelpTopicCommand() {
			continue
		}
		c.DisableAutoGenTag = true
		base := strings.ReplaceAll(c.CommandPath(), " ", "-")
		h := *header
		h.Title = strings.ToUpper(base)
		if err := writeDoc(filepath.Join(man, base+".1"), func(f *os.File) error { return doc.GenMan(c, &h, f) }); err != nil {
			return err
		}
		base = strings.ReplaceAll(c.CommandPath(), " ", "_")
		if err := writeDoc(filepath.Join(md, base+".md"), func(f *os.File) error { return doc.GenMarkdown(c, f) }); err != nil {
			return err
		}
	}
	return lintClean(man)
}

// lintClean rewrites what cobra's man pages hold that mandoc -Tlint warns
// about: the header's date as "Nov 2026" (mandoc reads 2026-11-01), and the
// tab before each flag's description, in filled text.
func lintClean(man string) error {
	pages, err := filepath.Glob(filepath.Join(man, "*.1"))
	if err != nil {
		return err
	}
	date := strconv.Quote(manDate.Format("Jan 2006"))
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		lines := strings.Split(string(b), "\n")
		for i, l := range lines {
			if strings.HasPrefix(l, ".TH ") {
				lines[i] = strings.Replace(l, date, strconv.Quote(manDate.Format(time.DateOnly)), 1)
			}
			lines[i] = strings.TrimPrefix(lines[i], "\t")
		}
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func writeDoc(name string, gen func(*os.File) error) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := gen(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// The checked-in man pages and Markdown reference are what the command tree
// generates now: same files, same bytes.
func TestDocs(t *testing.T) {
	if *update {
		for _, dir := range []string{manDir, mdDir} {
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := genDocs(manDir, mdDir); err != nil {
			t.Fatal(err)
		}
	}
	tmp := t.TempDir()
	man, md := filepath.Join(tmp, "man"), filepath.Join(tmp, "md")
	for _, dir := range []string{man, md} {
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := genDocs(man, md); err != nil {
		t.Fatal(err)
	}
	stale := false
	for _, d := range [][2]string{{man, manDir}, {md, mdDir}} {
		want, got := readDocs(t, d[0]), readDocs(t, d[1])
		for _, name := range union(want, got) {
			switch w, g := want[name], got[name]; {
			case w == nil:
				t.Errorf("%s/%s: no such command or topic now", d[1], name)
			case g == nil:
				t.Errorf("%s/%s is missing", d[1], name)
			case !bytes.Equal(w, g):
				t.Errorf("%s/%s is not what the command tree generates", d[1], name)
			default:
				continue
			}
			stale = true
		}
	}
	if stale {
		t.Errorf("the reference in docs/ is out of date: %s", regenerate)
	}
}

func readDocs(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("%v (%s)", err, regenerate)
	}
	docs := map[string][]byte{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		docs[e.Name()] = b
	}
	return docs
}

func union(a, b map[string][]byte) []string {
	var names []string
	for n := range a {
		names = append(names, n)
	}
	for n := range b {
		if _, ok := a[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}

// Every command and help topic has a man page and a Markdown page, and the
// topics' pages hold the topic.
func TestDocsCoverEveryCommand(t *testing.T) {
	tmp := t.TempDir()
	man, md := filepath.Join(tmp, "man"), filepath.Join(tmp, "md")
	for _, dir := range []string{man, md} {
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := genDocs(man, md); err != nil {
		t.Fatal(err)
	}
	ios, _, _, _ := Test()
	for _, c := range newRootCmd(ios).Commands() {
		if !c.IsAvailableCommand() && !c.IsAdditionalHelpTopicCommand() {
			continue
		}
		for _, name := range []string{
			filepath.Join(man, "webcap-"+c.Name()+".1"),
			filepath.Join(md, "webcap_"+c.Name()+".md"),
		} {
			b, err := os.ReadFile(name)
			if err != nil {
				t.Errorf("%s: %v", c.Name(), err)
				continue
			}
			if isTopic(c) && !strings.Contains(string(b), longFirstLine(c)) {
				t.Errorf("%s does not hold the topic (%q)", name, longFirstLine(c))
			}
		}
	}
}

func longFirstLine(c *cobra.Command) string {
	line, _, _ := strings.Cut(strings.TrimSpace(c.Long), "\n")
	return line
}

// The man pages as other tools read them: mandoc's linter (the strictest;
// .ci/run installs it) warns about nothing, and groff renders every page
// without a warning.
func TestManPagesLint(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join(manDir, "*.1"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no man page in %s (%v): %s", manDir, err, regenerate)
	}
	checkers := [][]string{
		{"mandoc", "-Tlint", "-W", "warning"},
		{"groff", "-man", "-Tutf8", "-ww", "-z"},
	}
	ran := 0
	for _, c := range checkers {
		if _, err := exec.LookPath(c[0]); err != nil {
			t.Logf("%s is not installed: not checked with it", c[0])
			continue
		}
		ran++
		for _, p := range pages {
			out, err := exec.Command(c[0], append(c[1:], p)...).CombinedOutput()
			if err != nil || len(out) > 0 {
				t.Errorf("%s %s: %v\n%s", strings.Join(c, " "), p, err, out)
			}
		}
	}
	if ran == 0 {
		t.Skip("neither mandoc nor groff is installed (apt-get install mandoc)")
	}
}
