package cli

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// TestAuditSpilledIsByteIdentical: a file's findings spilled to files
// (--spool-limit past which they do) print as they did held, in every
// output, and the spool leaves no file behind.
func TestAuditSpilledIsByteIdentical(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{
		"huge.pdf":   pdfbuild.HugeObject(1200),      // 1,200 warnings of one rule: more than --html lists
		"broken.pdf": pdfbuild.BigBroken(300, false), // errors and warnings of many rules
	}
	var paths []string
	for name, b := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	spool := filepath.Join(dir, "tmp")
	if err := os.Mkdir(spool, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", spool)
	// The run's time and host differ between runs: not the output's.
	stamp := regexp.MustCompile(`"?(mtime|timestamp|time|buildDate|start|finish|duration|startTimeUtc|endTimeUtc|dateTime|hostname|eventDateTime)"?[:=]"[^"]*"|<eventDateTime>[^<]*<|<(eventIdentifierValue|dateTime)>[^<]*<`)
	// The HTML report's time, and its name in the output.
	htmlStamp := regexp.MustCompile(`\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC|report-(-1|7)\.html`)
	run := func(limit string, args []string) (string, int) {
		ios, _, out, _ := Test()
		html := ""
		for i, a := range args {
			if a == "--html" {
				html = filepath.Join(dir, "report"+limit+".html")
				args = append(append(append([]string(nil), args[:i+1]...), html), args[i+1:]...)
				break
			}
		}
		code := Main(context.Background(), append(append([]string{"audit", "--in-process", "--spool-limit", limit}, args...), paths...), ios)
		got := stamp.ReplaceAllString(out.String(), "")
		if html != "" {
			b, err := os.ReadFile(html)
			if err != nil {
				t.Fatal(err)
			}
			os.Remove(html)
			got += "\n--- report ---\n" + htmlStamp.ReplaceAllString(string(b), "")
		}
		return got, code
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"text", nil},
		{"verbose", []string{"--verbose"}},
		{"jsonl", []string{"--jsonl", "--ordered"}},
		{"jsonl unordered", []string{"--jsonl", "--jobs", "1"}},
		{"json", []string{"--json"}},
		{"json sets", []string{"--json", "--sets"}},
		{"sarif", []string{"--format", "sarif"}},
		{"junit", []string{"--format", "junit"}},
		{"verapdf", []string{"--format", "verapdf"}},
		{"premis", []string{"--format", "premis"}},
		{"archivematica", []string{"--format", "archivematica"}},
		{"html", []string{"--html", "--thumbnails", "none", "--sets"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, wantCode := run("-1", tc.args)
			got, code := run("7", tc.args)
			if got != want || code != wantCode {
				t.Errorf("audit %q spilled: exit %d, %d bytes; held: exit %d, %d bytes\n%s", tc.args, code, len(got), wantCode, len(want), firstDiff(got, want))
			}
			if left, _ := os.ReadDir(spool); len(left) != 0 {
				t.Errorf("audit %q left %d files in TMPDIR", tc.args, len(left))
			}
		})
	}
}

// firstDiff shows where a and b first differ.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	end := func(s string) string { return s[i:min(len(s), i+120)] }
	return "spilled: " + end(a) + "\nheld:    " + end(b)
}
