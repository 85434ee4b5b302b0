package cli

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// wgetWARC runs GNU wget (at path wget, which the caller looked up and
// skipped without), the WARC oracle of the end-to-end tests, over urls:
// it writes dir/site.warc.gz and the files it fetched into dir/files,
// following links when recursive (a wget mirror).
func wgetWARC(t *testing.T, wget, dir, files string, recursive bool, urls ...string) {
	t.Helper()
	args := []string{"--no-verbose", "--warc-file=" + filepath.Join(dir, "site"), "--directory-prefix=" + filepath.Join(dir, files)}
	if recursive {
		args = append([]string{"--recursive", "--level=inf", "-e", "robots=off"}, args...)
	}
	if b, err := exec.Command(wget, append(args, urls...)...).CombinedOutput(); err != nil {
		t.Fatalf("wget: %v\n%s", err, b)
	}
}
