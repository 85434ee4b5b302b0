//go:build unix

package hostile

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
