package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webcap/webcap/seeds"
)

// capture --urls-from's usage errors are found before Chromium starts,
// and name the list, the line and the problem.
func TestCaptureManyUsage(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "list.txt")
	os.WriteFile(list, []byte("# seeds\nhttp://127.0.0.1:1/\n\nhttp://127.0.0.1:2/ --levels two\n"), 0o644)
	good := filepath.Join(dir, "good.txt")
	os.WriteFile(good, []byte("http://127.0.0.1:1/\n"), 0o644)
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("x"), 0o644)
	done := filepath.Join(dir, "done") // a run's outputs: found before Chromium starts
	os.Mkdir(done, 0o755)
	os.WriteFile(filepath.Join(done, seeds.Name("http://127.0.0.1:1/")+".pdf"), []byte("x"), 0o644)
	tests := []struct {
		name  string
		args  []string
		stdin string
		want  string
	}{
		{"bad line", []string{"--urls-from", list, "--out-dir", dir}, "", list + `:4: --levels "two": not a whole number`},
		{"stdin", []string{"--urls-from", "-", "--out-dir", dir}, "http://a.example/\nhttp://b.example/ --jobs 2\n", "-:2: --jobs: not a flag a line may give"},
		{"empty", []string{"--urls-from", "-", "--out-dir", dir}, "# none\n", "-: no seed"},
		{"no out-dir", []string{"--urls-from", good}, "", "--urls-from needs --out-dir"},
		{"an argument too", []string{"--urls-from", good, "--out-dir", dir, "http://a.example/"}, "", "the URLs are the list's"},
		{"-o", []string{"--urls-from", good, "--out-dir", dir, "-o", "x.pdf"}, "", "no -o"},
		{"out-dir a file", []string{"--urls-from", good, "--out-dir", file}, "", "not a directory"},
		{"warc a file", []string{"--urls-from", good, "--out-dir", dir, "--warc", file}, "", "not a directory"},
		{"list a directory", []string{"--urls-from", dir, "--out-dir", dir}, "", "a directory, not a list"},
		{"bad shard", []string{"--urls-from", good, "--out-dir", dir, "--shard", "4/4"}, "", "want I/N"},
		{"json", []string{"--urls-from", good, "--out-dir", dir, "--json"}, "", "--jsonl prints a JSON line per seed"},
		{"workers", []string{"--urls-from", good, "--out-dir", dir, "--workers", "0"}, "", "--workers 0"},
		{"output exists", []string{"--urls-from", good, "--out-dir", done}, "", good + ":1: " + filepath.Join(done, seeds.Name("http://127.0.0.1:1/")) + ".pdf: exists (--resume keeps it"},
		{"seal", []string{"--urls-from", good, "--out-dir", dir, "--timestamp-url", "http://127.0.0.1:1/"}, "", "not done per seed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ios, in, _, errOut := Test()
			in.WriteString(tc.stdin)
			code := Main(context.Background(), append([]string{"capture"}, tc.args...), ios)
			if code != exitUsage || !strings.Contains(errOut.String(), tc.want) {
				t.Errorf("capture %q = exit %d, %q; want exit 2 and %q", tc.args, code, errOut.String(), tc.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "good.txt")); err != nil {
		t.Error(err)
	}
}
