package cli

import (
	"context"
	"os"
	"strings"
	"testing"
	"unicode"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// doubledWord is a word of s said twice in a row ("open: open ..."), or "".
func doubledWord(s string) string {
	words := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
	for i := 1; i < len(words); i++ {
		if strings.EqualFold(words[i], words[i-1]) {
			return words[i]
		}
	}
	return ""
}

// Every command's typical failures, each said on one line of the form
// "webcap: COMMAND: FILE: what is wrong" (or "webcap: COMMAND: what is
// wrong"), with the exit code of the table in exitCodesHelp; a usage error
// is followed by the line that points to the command's help. Nothing
// needs Chromium: a URL that cannot be captured is refused before it is
// looked for (--chromium /nonexistent would be exit 3).
func TestMessages(t *testing.T) {
	t.Chdir(t.TempDir())
	good, err := pdfbuild.Sample("capture")
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"good.pdf": good, "not.pdf": []byte("hello\n"), "empty.pdf": {}, "certified.pdf": pdfbuild.Certified(1)} {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir("dir", 0o755); err != nil {
		t.Fatal(err)
	}
	const noChromium = "--chromium=/nonexistent"
	for _, tc := range []struct {
		args []string
		code int
		want string // stderr's first line
	}{
		{[]string{"bogus"}, exitUsage, `webcap: unknown command "bogus"`},
		{[]string{"--bogus"}, exitUsage, `webcap: unknown flag --bogus`},
		{[]string{"canon", "--bogus"}, exitUsage, "webcap: canon: unknown flag --bogus"},
		{[]string{"canon", "-Z"}, exitUsage, "webcap: canon: unknown flag -Z"},
		{[]string{"canon", "--profile"}, exitUsage, "webcap: canon: --profile needs a value"},
		{[]string{"canon", "http://a:99999/"}, exitFailed, `webcap: canon: http://a:99999/: step 6 (default port) at byte 9: port "99999" is above 65535`},
		{[]string{"id"}, exitUsage, "webcap: id: want at least 1 argument (FILE...), got 0"},
		{[]string{"id", "missing.pdf"}, exitIOError, "webcap: id: missing.pdf: no such file or directory"},
		{[]string{"id", "dir"}, exitIOError, "webcap: id: dir: is a directory"},
		{[]string{"id", "--aux", "missing", "good.pdf"}, exitIOError, "webcap: id: --aux missing: no such file or directory"},
		{[]string{"info"}, exitUsage, "webcap: info: want at least 1 argument (FILE...), got 0"},
		{[]string{"lookup", "--password", "sekrit", "good.pdf", "http://a/"}, exitUsage, "webcap: lookup: --password: refused: a command line shows in ps; use --password-file PATH (-: stdin) or $WEBCAP_PASSWORD"},
		{[]string{"info", "--password-file", "missing.txt", "good.pdf"}, exitIOError, "webcap: info: --password-file missing.txt: no such file or directory"},
		{[]string{"audit", "--password-file", "dir", "good.pdf"}, exitIOError, "webcap: audit: --password-file dir: is a directory"},
		{[]string{"info", "missing.pdf"}, exitIOError, "webcap: info: missing.pdf: no such file or directory"},
		{[]string{"info", "dir"}, exitIOError, "webcap: info: dir: is a directory"},
		{[]string{"info", "not.pdf"}, exitInvalid, "webcap: info: not.pdf: not a PDF: no %PDF- header"},
		{[]string{"info", "empty.pdf"}, exitInvalid, "webcap: info: empty.pdf: not a PDF: the file is empty"},
		{[]string{"lookup", "good.pdf"}, exitUsage, "webcap: lookup: give at least one URL or --id"},
		{[]string{"lookup", "missing.pdf", "http://a/"}, exitIOError, "webcap: lookup: missing.pdf: no such file or directory"},
		{[]string{"lookup", "not.pdf", "http://a/"}, exitInvalid, "webcap: lookup: not.pdf: not a PDF: no %PDF- header"},
		{[]string{"audit", "--bogus", "good.pdf"}, exitUsage, "webcap: audit: unknown flag --bogus"},
		{[]string{"audit", "--jobs", "x", "good.pdf"}, exitUsage, `webcap: audit: --jobs "x": invalid syntax`},
		{[]string{"audit", "--sources", "missing", "good.pdf"}, exitIOError, "webcap: audit: --sources missing: no such file or directory"},
		{[]string{"audit", "--format", "xml", "good.pdf"}, exitUsage, `webcap: audit: --format "xml": want one of verapdf, premis, archivematica, sarif, junit`},
		{[]string{"report"}, exitUsage, "webcap: report: give at least one SHARD.jsonl (-: stdin)"},
		{[]string{"report", "missing.jsonl"}, exitIOError, "webcap: report: missing.jsonl: no such file or directory"},
		{[]string{"report", "dir"}, exitIOError, "webcap: report: dir: is a directory"},
		{[]string{"report", "not.pdf"}, exitInvalid, `webcap: report: not.pdf: line 1: not an audit --jsonl object: it starts with "hello"`},
		{[]string{"report", "-o", "good.pdf", "empty.pdf"}, exitUsage, "webcap: report: good.pdf exists: choose another -o, or --force to replace it"},
		{[]string{"report", "-o", "nodir/r.xml", "empty.pdf"}, exitIOError, "webcap: report: cannot write nodir/r.xml: the directory nodir does not exist"},
		{[]string{"build", "a.json", "b.json", "-o", "out.pdf"}, exitUsage, "webcap: build: want 1 argument (MANIFEST -o OUT.pdf), got 2"},
		{[]string{"build", "missing.json", "-o", "out.pdf"}, exitIOError, "webcap: build: missing.json: no such file or directory"},
		{[]string{"build", "dir", "-o", "out.pdf"}, exitIOError, "webcap: build: dir: is a directory"},
		{[]string{"fix", "a.pdf", "b.pdf"}, exitUsage, "webcap: fix: want 1 argument (FILE -o OUT.pdf), got 2"},
		{[]string{"fix", "good.pdf", "-o"}, exitUsage, "webcap: fix: -o needs a value"},
		{[]string{"fix", "missing.pdf", "-o", "out.pdf"}, exitIOError, "webcap: fix: missing.pdf: no such file or directory"},
		{[]string{"fix", "dir", "-o", "out.pdf"}, exitIOError, "webcap: fix: dir: is a directory"},
		{[]string{"fix", "not.pdf", "-o", "out.pdf"}, exitInvalid, "webcap: fix: not.pdf: not a PDF: no %PDF- header"},
		{[]string{"capture"}, exitUsage, "webcap: capture: want at least 1 argument (URL... -o OUT.pdf), got 0"},
		{[]string{"capture", noChromium, "notaurl", "-o", "out.pdf"}, exitUsage, "webcap: capture: notaurl: not an absolute URL"},
		{[]string{"capture", noChromium, "ftp://a/", "-o", "out.pdf"}, exitUsage, "webcap: capture: ftp://a/: not http or https"},
		{[]string{"capture", noChromium, "http:///x", "-o", "out.pdf"}, exitUsage, "webcap: capture: http:///x: no host"},
		{[]string{"capture", noChromium, "ht!tp://a/", "-o", "out.pdf"}, exitUsage, "webcap: capture: ht!tp://a/: does not parse: first path segment in URL cannot contain colon"},
		{[]string{"capture", noChromium, "http://a:99999/", "-o", "out.pdf"}, exitUsage, `webcap: capture: http://a:99999/: cannot be canonicalized: step 6 (default port) at byte 9: port "99999" is above 65535`},
		{[]string{"capture", noChromium, "http://a/", "-o", "out.pdf"}, exitIOError, "webcap: capture: --chromium /nonexistent: no such file or directory"},
		{[]string{"append", "good.pdf"}, exitUsage, "webcap: append: want at least 2 arguments (FILE URL... -o OUT.pdf), got 1"},
		{[]string{"append", noChromium, "good.pdf", "ftp://a/", "-o", "out.pdf"}, exitUsage, "webcap: append: ftp://a/: not http or https"},
		{[]string{"append", noChromium, "missing.pdf", "http://a/", "-o", "out.pdf"}, exitIOError, "webcap: append: missing.pdf: no such file or directory"},
		// The file is read before Chromium is looked for.
		{[]string{"append", noChromium, "not.pdf", "http://a/", "-o", "out.pdf"}, exitInvalid, "webcap: append: not.pdf: not a PDF: no %PDF- header"},
		{[]string{"append", noChromium, "certified.pdf", "http://a/", "-o", "out.pdf"}, exitFailed, "webcap: append: certified.pdf: the document is certified and its permissions forbid this update (DocMDP /P 1: no changes; the signature 5 0 R would no longer validate)"},
		{[]string{"refresh"}, exitUsage, "webcap: refresh: want 1 argument (FILE -o OUT.pdf), got 0"},
		{[]string{"refresh", "--dry-run", "good.pdf", "-o", "out.pdf"}, exitUsage, "webcap: refresh: --dry-run writes nothing: drop -o and --in-place"},
		{[]string{"refresh", noChromium, "missing.pdf", "-o", "out.pdf"}, exitIOError, "webcap: refresh: missing.pdf: no such file or directory"},
		{[]string{"refresh", noChromium, "not.pdf", "-o", "out.pdf"}, exitInvalid, "webcap: refresh: not.pdf: not a PDF: no %PDF- header"},
		{[]string{"version", "extra"}, exitUsage, `webcap: version: unexpected argument "extra"`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			ios, _, stdout, stderr := Test()
			code := Main(context.Background(), tc.args, ios)
			lines := strings.Split(stderr.String(), "\n")
			if code != tc.code || lines[0] != tc.want {
				t.Errorf("webcap %q: exit %d, stderr %q\nwant exit %d, %q\nstdout: %s", tc.args, code, lines[0], tc.code, tc.want, stdout)
			}
			// Once, but for a hint on a line of its own (--force).
			if n := strings.Count(stderr.String(), "webcap: ") - strings.Count(stderr.String(), "webcap: --force"); n != 1 {
				t.Errorf("webcap %q: the failure is said %d times, want once:\n%s", tc.args, n, stderr)
			}
			if w := doubledWord(stderr.String()); w != "" {
				t.Errorf("webcap %q says %q twice:\n%s", tc.args, w, stderr)
			}
			path := "webcap"
			if !strings.HasPrefix(tc.args[0], "-") && tc.args[0] != "bogus" {
				path += " " + tc.args[0]
			}
			help := "Run '" + path + " --help' for usage."
			if tc.code == exitUsage && (len(lines) < 2 || lines[1] != help) {
				t.Errorf("webcap %q: the usage error is not followed by %q:\n%s", tc.args, help, stderr)
			}
		})
	}
}
