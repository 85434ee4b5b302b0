package cli

import (
	"context"
	"strings"
	"testing"
)

// --embed-warc embeds the --warc file: without one it is a usage error, on
// each command that has it.
func TestEmbedWARCNeedsWARC(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"capture", "--embed-warc", "http://a/", "-o", "o.pdf"}, "webcap: capture: --embed-warc embeds the WARC the command writes: give --warc OUT.warc.gz"},
		{[]string{"append", "--embed-warc", "a.pdf", "http://a/", "-o", "o.pdf"}, "webcap: append: --embed-warc embeds the WARC the command writes: give --warc OUT.warc.gz"},
		{[]string{"refresh", "--embed-warc", "a.pdf", "-o", "o.pdf"}, "webcap: refresh: --embed-warc embeds the WARC the command writes: give --warc OUT.warc.gz"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			ios, _, stdout, stderr := Test()
			if code := Main(context.Background(), tc.args, ios); code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			if !strings.HasPrefix(stderr.String(), tc.msg) || stdout.Len() > 0 {
				t.Errorf("stderr %q, stdout %q; want stderr to start %q", stderr, stdout, tc.msg)
			}
		})
	}
}
