//go:build unix

package hostile

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"syscall"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// Outputs never clobber: webcap writes only to a regular file or a new
// path (or stdout with -o -), and refuses anything else before any work,
// even with --force; --in-place through a link fixes the file it names
// and keeps the link, the owner and the mode; nothing temporary is left.
// (Temporary files and Chromium's profile left after a signal are tested
// by cmd/webcap's TestSignalLeavesNothing: this frame does not signal its
// children.)

// broken is a small capture with repairs for fix to make.
func broken() []byte { return pdfbuild.BigBroken(40, false) }

// fixInto is a Setup writing broken.pdf, making the output with mk, and
// running fix broken.pdf -o out plus extra.
func fixInto(out string, mk func(dir string) error, extra ...string) func(dir string) ([]string, func(), error) {
	return func(dir string) ([]string, func(), error) {
		if err := Write(dir, "broken.pdf", broken()); err != nil {
			return nil, nil, err
		}
		if mk != nil {
			if err := mk(dir); err != nil {
				return nil, nil, err
			}
		}
		return append([]string{"fix", "broken.pdf", "-o", out}, extra...), nil, nil
	}
}

// link makes a symbolic link name to target in dir.
func link(name, target string) func(dir string) error {
	return func(dir string) error { return os.Symlink(target, filepath.Join(dir, name)) }
}

// isType is a Check that name (as Lstat sees it; an absolute name as it
// is) is still of type t.
func isType(name string, t fs.FileMode) func(dir string) error {
	return func(dir string) error {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, name)
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		if fi.Mode().Type() != t {
			return fmt.Errorf("%s is now %v, was %v", name, fi.Mode().Type(), t)
		}
		return nil
	}
}

// only is a Check that dir holds exactly names at its top (no temporary
// file left beside an output).
func only(names ...string) func(dir string) error {
	return func(dir string) error {
		es, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		var got []string
		for _, e := range es {
			got = append(got, e.Name())
		}
		want := append([]string(nil), names...)
		sort.Strings(want)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			return fmt.Errorf("directory holds %q, want %q", got, want)
		}
		return nil
	}
}

// devNullChar is /dev/null's type: a character device.
const devNullChar = fs.ModeDevice | fs.ModeCharDevice

// shardLine is an audit --jsonl line, for report.
const shardLine = `{"schema":"webcap.audit-file/1","input":"a.pdf","findings":[],"jhoveStatus":"Well-Formed and valid"}` + "\n"

// inPlaceMode is the mode of the file fixed in place through a link.
const inPlaceMode = 0o640

func init() {
	refused := func(flag, file, kind string) string {
		return `^webcap: \w+: ` + flag + ` ` + file + ` is not a regular file but ` + kind
	}
	Register(
		Case{
			Name:   "fix-to-dev-null",
			Part:   Outputs,
			Setup:  fixInto("/dev/null", nil),
			Exit:   2,
			Stderr: []string{refused("-o", "/dev/null", "a character device")},
			Check:  All(isType("/dev/null", devNullChar), only("broken.pdf")),
			Before: "fix broken.pdf -o /dev/null: exit 2, '/dev/null exists: choose another -o, or --force' (a device offered --force)",
		},
		Case{
			Name:      "fix-to-dev-null-force",
			Part:      Outputs,
			Setup:     fixInto("/dev/null", nil, "--force"),
			Exit:      2,
			Stderr:    []string{refused("-o", "/dev/null", "a character device")},
			NotStdout: []string{`^fix: `}, // refused before any work
			Check:     All(isType("/dev/null", devNullChar), only("broken.pdf")),
			Before:    "fix broken.pdf -o /dev/null --force: every repair planned and printed, then exit 3 'write /dev/null: not a regular file (Dc---------)'; report -o DEVICE --force renamed a regular file over the device (as root)",
		},
		Case{
			Name:   "fix-to-fifo-force",
			Part:   Outputs,
			Setup:  fixInto("out.pdf", makeFIFO("out.pdf"), "--force"),
			Exit:   2,
			Stderr: []string{refused("-o", "out.pdf", "a FIFO")},
			Check:  All(isType("out.pdf", fs.ModeNamedPipe), only("broken.pdf", "out.pdf")),
			Before: "fix -o FIFO --force: the work done, then exit 3 'not a regular file (p---------)'; report -o FIFO --force replaced the FIFO with a regular file",
		},
		Case{
			Name: "report-to-fifo-force",
			Part: Outputs,
			Setup: func(dir string) ([]string, func(), error) {
				if err := Write(dir, "shard.jsonl", []byte(shardLine)); err != nil {
					return nil, nil, err
				}
				return []string{"report", "-o", "out.txt", "--force", "shard.jsonl"}, nil, makeFIFO("out.txt")(dir)
			},
			Exit:   2,
			Stderr: []string{refused("-o", "out.txt", "a FIFO")},
			Check:  All(isType("out.txt", fs.ModeNamedPipe), only("shard.jsonl", "out.txt")),
			Before: "report -o FIFO --force shard.jsonl: exit 0, the FIFO replaced by a regular file (rename over it)",
		},
		Case{
			Name: "resume-fifo",
			Part: Outputs,
			Setup: func(dir string) ([]string, func(), error) {
				if err := Write(dir, "a.pdf", broken()); err != nil {
					return nil, nil, err
				}
				return []string{"audit", "--resume", "results.jsonl", "a.pdf"}, nil, makeFIFO("results.jsonl")(dir)
			},
			Exit:   2,
			Stderr: []string{refused("--resume", "results.jsonl", "a FIFO")},
			Check:  All(isType("results.jsonl", fs.ModeNamedPipe), only("a.pdf", "results.jsonl")),
			Before: "audit --resume FIFO a.pdf: hung reading the FIFO (killed after 5 s)",
		},
		Case{
			Name:   "fix-in-place-through-link",
			Part:   Outputs,
			Setup:  inPlaceSetup,
			Exit:   0,
			Stdout: []string{`^cur\.pdf: \d+ repairs written to cur\.pdf`},
			Check:  inPlaceCheck,
			Before: "fix --in-place LINK: link kept and mode kept, but the file's owner became the user running webcap (nobody's file became root's)",
		},
	)
	// A file with thousands of findings of a few rules: the text shows 10
	// of each, and a line per rule with the count of the rest.
	many := func(args ...string) func(dir string) ([]string, func(), error) {
		return func(dir string) ([]string, func(), error) {
			return append(args, "many.pdf"), nil, Write(dir, "many.pdf", pdfbuild.BigBroken(10000, false))
		}
	}
	Register(
		Case{
			Name:      "many-findings-audit-text",
			Part:      Bounds,
			Setup:     many("audit"),
			Exit:      1,
			Stdout:    []string{`^many\.pdf: error WC-URLS-CANONICAL: 1422 more not shown \(--verbose or --json lists every finding\)$`},
			MaxOutput: 32 << 10,
			Before:    "audit many.pdf (10,000 sets, 3,000 findings): 426 KB of text, a line per finding (746 MB for a 2M-key file)",
		},
		Case{
			Name:      "many-findings-fix-text",
			Part:      Bounds,
			Setup:     many("fix", "--dry-run"),
			Exit:      0,
			Stdout:    []string{`^fix: WC-URLS-CANONICAL: 1422 more not shown \(--verbose or --json lists every one\)$`},
			MaxOutput: 16 << 10,
			Before:    "fix --dry-run many.pdf (10,000 sets): 238 KB of text, a line per repair (502 MB for a 2M-key file)",
		},
	)
	if runtime.GOOS == "linux" {
		Register(Case{
			Name:   "fix-to-link-to-proc-self-fd-1",
			Part:   Outputs,
			Setup:  fixInto("out.pdf", link("out.pdf", "/proc/self/fd/1"), "--force"),
			Exit:   2,
			Stderr: []string{refused("-o", "out.pdf", "a FIFO") + ` \(through its link to /proc/self/fd/pipe:`},
			Check:  All(isType("out.pdf", fs.ModeSymlink), only("broken.pdf", "out.pdf")),
			Before: "fix -o LINK --force, LINK -> /proc/self/fd/1: with stdout redirected to a file, that file was replaced by the PDF (exit 0, the summary lost); on a pipe, the work done, then exit 3",
		})
	}
}

// inPlaceSetup makes real/cap.pdf (mode 0640, owned by nobody when the
// suite runs as root) and the link cur.pdf to it, and fixes cur.pdf in
// place.
func inPlaceSetup(dir string) ([]string, func(), error) {
	if err := Write(dir, "real/cap.pdf", broken()); err != nil {
		return nil, nil, err
	}
	p := filepath.Join(dir, "real", "cap.pdf")
	if err := os.Chmod(p, inPlaceMode); err != nil {
		return nil, nil, err
	}
	if os.Geteuid() == 0 {
		if err := os.Chown(p, 65534, 65534); err != nil {
			return nil, nil, err
		}
	}
	return []string{"fix", "--in-place", "cur.pdf"}, nil, link("cur.pdf", "real/cap.pdf")(dir)
}

// inPlaceCheck: the link is a link, the file it names was fixed (the old
// bytes, then the update), with its mode and owner, and nothing is left
// beside it.
func inPlaceCheck(dir string) error {
	if err := isType("cur.pdf", fs.ModeSymlink)(dir); err != nil {
		return err
	}
	p := filepath.Join(dir, "real", "cap.pdf")
	b, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	old := broken()
	if len(b) <= len(old) || !bytes.Equal(b[:len(old)], old) {
		return fmt.Errorf("real/cap.pdf: %d bytes, not the %d old ones and an update", len(b), len(old))
	}
	fi, err := os.Stat(p)
	if err != nil {
		return err
	}
	if fi.Mode().Perm() != inPlaceMode {
		return fmt.Errorf("real/cap.pdf: mode %v, was %v", fi.Mode().Perm(), fs.FileMode(inPlaceMode))
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && os.Geteuid() == 0 && (st.Uid != 65534 || st.Gid != 65534) {
		return fmt.Errorf("real/cap.pdf: owner %d:%d, was 65534:65534", st.Uid, st.Gid)
	}
	es, err := os.ReadDir(filepath.Join(dir, "real"))
	if err != nil {
		return err
	}
	if len(es) != 1 {
		return fmt.Errorf("real/ holds %d files, want cap.pdf alone", len(es))
	}
	return nil
}

// No output ever replaces an input, nor appends to one, nor is another
// output of the same run: every file a command writes is compared with
// every file it reads by identity (links followed), before any work,
// --force or not (pdfio.CheckRun). Each case's Check finds the inputs'
// bytes as they were.

// standIn is a Chromium that is not one: it leaves a file named started
// when run. An output refused before any work never runs it.
const standIn = "#!/bin/sh\necho started >> started\nexit 1\n"

// files is a Setup writing each name → content (a content "->X" makes a
// symbolic link to X) and running webcap with args.
func files(contents map[string]string, args ...string) func(dir string) ([]string, func(), error) {
	return func(dir string) ([]string, func(), error) {
		for name, b := range contents {
			var err error
			if target, ok := strings.CutPrefix(b, "->"); ok {
				err = os.Symlink(target, filepath.Join(dir, name))
			} else {
				err = Write(dir, name, []byte(b))
			}
			if err != nil {
				return nil, nil, err
			}
		}
		if _, ok := contents["chromium"]; ok {
			if err := os.Chmod(filepath.Join(dir, "chromium"), 0o755); err != nil {
				return nil, nil, err
			}
		}
		return args, nil, nil
	}
}

// intact is a Check that each name still holds what files wrote.
func intact(contents map[string]string, names ...string) func(dir string) error {
	var checks []func(dir string) error
	for _, n := range names {
		checks = append(checks, Unchanged(n, []byte(contents[n])))
	}
	return All(checks...)
}

func init() {
	pdf := string(broken())
	input := func(cmd, out, in string) string {
		return `^webcap: ` + cmd + `: ` + regexp.QuoteMeta(out) + ` is an input of this run \(` + regexp.QuoteMeta(in) + `\): give another file`
	}
	type tc struct {
		name     string
		contents map[string]string
		args     []string
		stderr   string
		intact   []string
		absent   []string
		before   string
	}
	for _, c := range []tc{
		{"audit-html-over-input", map[string]string{"in.pdf": pdf},
			[]string{"audit", "--html", "in.pdf", "--force", "in.pdf"},
			input("audit", "--html in.pdf", "in.pdf"), []string{"in.pdf"}, nil,
			"audit --html in.pdf --force in.pdf: exit 0, in.pdf replaced by the HTML report"},
		{"audit-html-over-input-workers", map[string]string{"a.pdf": pdf, "b.pdf": pdf},
			[]string{"audit", "--jobs", "2", "--html", "b.pdf", "--force", "a.pdf", "b.pdf"},
			input("audit", "--html b.pdf", "b.pdf"), []string{"a.pdf", "b.pdf"}, nil,
			"audit --jobs 2 --html b.pdf --force a.pdf b.pdf (worker processes): exit 1 (the files' findings), b.pdf replaced by the report"},
		{"audit-html-link-to-input", map[string]string{"in.pdf": pdf, "r.html": "->in.pdf"},
			[]string{"audit", "--html", "r.html", "--force", "in.pdf"},
			input("audit", "--html r.html", "in.pdf"), []string{"in.pdf"}, nil,
			"audit --html r.html --force in.pdf, r.html -> in.pdf: exit 0, in.pdf replaced by the report"},
		{"audit-resume-input", map[string]string{"a.pdf": pdf, "r.jsonl": shardLine},
			[]string{"audit", "--resume", "r.jsonl", "a.pdf", "r.jsonl"},
			input("audit", "--resume r.jsonl", "r.jsonl"), []string{"a.pdf", "r.jsonl"}, nil,
			"audit --resume r.jsonl a.pdf r.jsonl: exit 4, r.jsonl read as an input and its own result appended to it (101 → 3168 bytes)"},
		{"audit-html-over-files-from", map[string]string{"a.pdf": pdf, "list": "a.pdf\n"},
			[]string{"audit", "--files-from", "list", "--html", "list", "--force"},
			input("audit", "--html list", "--files-from list"), []string{"a.pdf", "list"}, nil,
			"audit --files-from list --html list --force: exit 0, the list replaced by the report"},
		{"audit-html-dir-holds-input", map[string]string{"rep/index.html": "old report", "rep/x.pdf": pdf},
			[]string{"audit", "--html", "rep", "--force", "rep/x.pdf"},
			`^webcap: audit: --html rep is a directory that holds rep/x\.pdf, an input of this run, which replacing it would remove: give another path`,
			[]string{"rep/x.pdf", "rep/index.html"}, nil,
			"audit --html rep --force rep/x.pdf, rep an old report: exit 0, the directory and the input in it replaced by a one-file report"},
		{"audit-html-in-sources", map[string]string{"in.pdf": pdf, "m/page.html": "<p>captured</p>"},
			[]string{"audit", "--sources", "m", "--html", "m/page.html", "--force", "in.pdf"},
			`^webcap: audit: --html m/page\.html is inside --sources m, an input of this run: give a file outside it`,
			[]string{"in.pdf", "m/page.html"}, nil,
			"audit --sources m --html m/page.html --force in.pdf: exit 0, the mirror's file replaced by the report"},
		{"report-o-over-shard", map[string]string{"s.jsonl": shardLine},
			[]string{"report", "-o", "s.jsonl", "--force", "s.jsonl"},
			input("report", "-o s.jsonl", "s.jsonl"), []string{"s.jsonl"}, nil,
			"report -o s.jsonl --force s.jsonl: exit 0, the shard replaced by the text report"},
		{"report-html-over-shard", map[string]string{"s.jsonl": shardLine},
			[]string{"report", "--html", "s.jsonl", "--force", "s.jsonl"},
			input("report", "--html s.jsonl", "s.jsonl"), []string{"s.jsonl"}, nil,
			"report --html s.jsonl --force s.jsonl: exit 0, the shard replaced by the HTML report"},
		{"fix-over-password-file", map[string]string{"in.pdf": pdf, "pw": "secret\n"},
			[]string{"fix", "in.pdf", "--password-file", "pw", "-o", "pw", "--force"},
			input("fix", "-o pw", "--password-file pw"), []string{"in.pdf", "pw"}, nil,
			"fix in.pdf --password-file pw -o pw --force: exit 0, the password file replaced by the PDF"},
		{"refresh-report-link-to-output", map[string]string{"in.pdf": pdf, "o.json": "->o.pdf", "chromium": standIn},
			[]string{"refresh", "--chromium", "./chromium", "--report", "o.json", "-o", "o.pdf", "in.pdf"},
			`^webcap: refresh: -o o\.pdf and --report o\.json are one file: give each output its own`, []string{"in.pdf"}, []string{"o.pdf", "started"},
			"refresh --report o.json -o o.pdf in.pdf, o.json -> o.pdf (new): every check passed, Chromium started (here a stand-in, exit 3); with Chromium, the JSON written into o.pdf and 'nothing written' (issue 27)"},
		{"capture-warc-link-to-output", map[string]string{"w.warc": "->a.pdf", "chromium": standIn},
			[]string{"capture", "--chromium", "./chromium", "--warc", "w.warc", "-o", "a.pdf", "http://127.0.0.1:1/"},
			`^webcap: capture: -o a\.pdf and --warc w\.warc are one file: give each output its own`, nil, []string{"a.pdf", "started"},
			"capture --warc w.warc -o a.pdf, w.warc -> a.pdf (new): every check passed, Chromium started (here a stand-in, exit 3)"},
		{"append-o-is-input", map[string]string{"in.pdf": pdf, "chromium": standIn},
			[]string{"append", "--chromium", "./chromium", "in.pdf", "http://127.0.0.1:1/", "-o", "./in.pdf", "--force"},
			input("append", "-o ./in.pdf", "in.pdf") + `, or --in-place to replace it`, []string{"in.pdf"}, []string{"started"},
			"append in.pdf URL -o ./in.pdf --force: exit 2 (\"-o ./in.pdf is the input\"): already refused"},
	} {
		Register(Case{
			Name:   c.name,
			Part:   Outputs,
			Setup:  files(c.contents, c.args...),
			Exit:   2,
			Stderr: []string{c.stderr},
			Check:  All(intact(c.contents, c.intact...), Absent(c.absent...)),
			Before: c.before,
		})
	}
}
