package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/webcap/webcap/internal/hostile"
)

// readmeBlock is a fenced code block of the README whose language is sh or
// console: sh lines are commands; in console, "$ " starts a command and the
// lines after it, up to the next command, are what it prints ("..." for
// lines left out).
type readmeBlock struct {
	line   int    // of the opening fence, 1-based
	notRun string // the reason in a "<!-- not run: REASON -->" line just above the fence
	cmds   []readmeCmd
}

type readmeCmd struct {
	line int
	cmd  string
	want []string
}

var notRunMark = regexp.MustCompile(`^<!-- not run: (.+) -->$`)

// readmeBlocks extracts the sh and console blocks of a Markdown text.
func readmeBlocks(text string) []readmeBlock {
	var blocks []readmeBlock
	var cur *readmeBlock
	var lang, prev string
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && lang == "" && strings.HasPrefix(line, "```"):
			lang = strings.TrimPrefix(line, "```")
			if lang == "sh" || lang == "console" {
				cur = &readmeBlock{line: n}
				if m := notRunMark.FindStringSubmatch(prev); m != nil {
					cur.notRun = m[1]
				}
			}
		case lang != "" && line == "```":
			if cur != nil {
				blocks = append(blocks, *cur)
			}
			cur, lang = nil, ""
		case cur != nil && lang == "sh":
			if strings.TrimSpace(line) != "" {
				cur.cmds = append(cur.cmds, readmeCmd{line: n, cmd: line})
			}
		case cur != nil && strings.HasPrefix(line, "$ "):
			cur.cmds = append(cur.cmds, readmeCmd{line: n, cmd: strings.TrimPrefix(line, "$ ")})
		case cur != nil && len(cur.cmds) > 0 && line != "...":
			c := &cur.cmds[len(cur.cmds)-1]
			c.want = append(c.want, line)
		}
		prev = line
	}
	return blocks
}

// TestREADME runs the README's shell commands, in order, with the webcap
// under test, in a directory where testdata is the repository's, and checks
// that each exits 0 or 1 (an example may show a failure) and prints every
// line the README shows, in order on stdout or on stderr. "go run
// ./cmd/webcap" is this webcap; "go test ./..." is not run (it is this run).
// A block marked <!-- not run: REASON --> above its fence is not run: the
// ones that need the network (capture, append, refresh, seal, install),
// which the tests never reach.
func TestREADME(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("webcap"); err != nil {
		t.Fatalf("webcap is not on PATH (TestMain puts it there): %v", err)
	}
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(root, "testdata"), filepath.Join(dir, "testdata")); err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, b := range readmeBlocks(string(text)) {
		if b.notRun != "" {
			if !strings.Contains(b.notRun, "network") {
				t.Errorf("README.md:%d: a block is not run because %q: only the network is a reason", b.line, b.notRun)
			}
			t.Logf("README.md:%d: not run: %s", b.line, b.notRun)
			continue
		}
		for _, c := range b.cmds {
			cmd := strings.TrimSpace(c.cmd)
			if strings.HasPrefix(cmd, "go test ./...") {
				continue
			}
			cmd = strings.ReplaceAll(cmd, "go run ./cmd/webcap", "webcap")
			if !strings.HasPrefix(cmd, "webcap ") {
				t.Errorf("README.md:%d: %q is not a webcap command: mark its block <!-- not run: REASON --> or make it one", c.line, c.cmd)
				continue
			}
			runREADMECommand(t, dir, c, cmd)
			ran++
		}
	}
	if ran < 10 {
		t.Errorf("ran %d commands of the README, want at least 10 (one per command that needs no network)", ran)
	}
}

func runREADMECommand(t *testing.T, dir string, c readmeCmd, cmd string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	sh := exec.Command("bash", "-c", cmd)
	sh.Dir, sh.Stdout, sh.Stderr = dir, &stdout, &stderr
	err := sh.Run()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		t.Errorf("README.md:%d: %s: %v\n%s%s", c.line, cmd, err, stdout.String(), stderr.String())
		return
	}
	out := strings.Split(stdout.String(), "\n")
	errs := strings.Split(stderr.String(), "\n")
	i, j := 0, 0
	for _, w := range c.want {
		if k := indexFrom(out, i, w); k >= 0 {
			i = k + 1
		} else if k := indexFrom(errs, j, w); k >= 0 {
			j = k + 1
		} else {
			t.Errorf("README.md:%d: %s does not print, in this order,\n\t%s\nstdout:\n%s\nstderr:\n%s", c.line, cmd, w, stdout.String(), stderr.String())
			return
		}
	}
}

func indexFrom(lines []string, from int, s string) int {
	for k := from; k < len(lines); k++ {
		if lines[k] == s {
			return k
		}
	}
	return -1
}

// TestREADMELinks checks that every relative link of the README and of the
// docs it links to leads to a file of the repository.
func TestREADMELinks(t *testing.T) {
	root := filepath.Join("..", "..")
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{filepath.Join(root, "README.md")}, files...)
	link := regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`)
	checked := 0
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(text), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(f), target)); err != nil {
				t.Errorf("%s links to %s, which is not there", f, target)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Error("no relative link checked")
	}
}

// docs/development.md gives the number of hostile-input cases; it is
// len(hostile.Cases()), so a merge that adds cases says so there too.
func TestDevelopmentHostileCount(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("..", "..", "docs", "development.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("\\(`internal/hostile`: ([0-9,]+) cases").FindSubmatch(text)
	if m == nil {
		t.Fatal("docs/development.md does not give the number of hostile cases")
	}
	if got, want := strings.ReplaceAll(string(m[1]), ",", ""), fmt.Sprint(len(hostile.Cases())); got != want {
		t.Errorf("docs/development.md says %s hostile cases; internal/hostile has %s", got, want)
	}
}
