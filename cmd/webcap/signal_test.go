package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/webcap/webcap/internal/browsertest"
	"github.com/webcap/webcap/pdfio"
)

// The hostile suite's frame does not signal its children: these tests do.
// A webcap child stopped mid-work by a signal exits 128 plus its number,
// says it was interrupted, and leaves no temporary file, no Chromium
// profile and no partial output. Each signal is sent when the child is
// known to be at work (it said so, or it asked the test's server), never
// after a sleep.

// entries lists dir's names.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

// report merging a shard and stdin: once it has said on stderr that the
// shard's last line is cut short, it goes on to stdin, which it copies to
// a temporary file in $TMPDIR while it waits for more (the test never
// closes it). The signal stops the wait; the copy is removed, and -o's
// file is never made.
func TestSignalLeavesNothing(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			tmp := filepath.Join(dir, "tmp")
			if err := os.Mkdir(tmp, 0o755); err != nil {
				t.Fatal(err)
			}
			shard := `{"schema":"webcap.audit-file/1","input":"a.pdf","findings":[]}` + "\n" + `{"schema":"webcap.audit-file/1","inp`
			if err := os.WriteFile(filepath.Join(dir, "cut.jsonl"), []byte(shard), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("webcap", "report", "-o", "out.txt", "cut.jsonl", "-")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			io.WriteString(stdin, `{"schema":"webcap.audit-file/1","input":"b.pdf","findings":[]}`+"\n")
			r := bufio.NewReader(stderr)
			said, err := r.ReadString('\n')
			if err != nil || !strings.Contains(said, "line 2 is cut short") {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("stderr %q (%v), want the cut line said", said, err)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			rest, _ := io.ReadAll(r)
			code := exitOf(cmd.Wait())
			if want := 128 + int(sig); code != want || !strings.Contains(string(rest), "webcap: report: interrupted") {
				t.Errorf("exit %d, stderr %q; want %d and the interrupt said", code, rest, want)
			}
			if names := entries(t, tmp); len(names) > 0 {
				t.Errorf("$TMPDIR holds %q after the signal", names)
			}
			if names := entries(t, dir); strings.Join(names, " ") != "cut.jsonl tmp" {
				t.Errorf("the directory holds %q, want cut.jsonl and tmp", names)
			}
		})
	}
}

// capture, stopped by TERM while Chromium waits for the test's server:
// the page captured before is written (as Ctrl-C does in-process), and
// neither Chromium's profile directory (in $TMPDIR) nor a temporary file
// beside the output is left.
func TestSignalCaptureLeavesNothing(t *testing.T) {
	browsertest.Chromium(t)
	dir := t.TempDir()
	// $TMPDIR of a short name: Chromium makes its singleton socket in it,
	// and a socket's path is at most 107 bytes (t.TempDir's are long).
	tmp, err := os.MkdirTemp("", "sig")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	started := make(chan *os.Process, 1)
	done := make(chan struct{})
	defer close(done)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/p0.html":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<title>Page 0</title><p>Page 0</p><a href="/p1.html">next</a>`)
		case "/p1.html":
			p := <-started
			started <- p
			p.Signal(syscall.SIGTERM)
			select {
			case <-r.Context().Done():
			case <-done:
			}
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	cmd := exec.Command("webcap", "capture", "--levels", "2", "--wait-idle", "50ms", srv.URL+"/p0.html", "-o", "out.pdf")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	started <- cmd.Process
	if code := exitOf(cmd.Wait()); code != 143 {
		t.Errorf("exit %d, want 143\n%s", code, out.String())
	}
	if names := entries(t, tmp); len(names) > 0 {
		t.Errorf("$TMPDIR holds %q after the signal (Chromium's profile?)", names)
	}
	if names := entries(t, dir); strings.Join(names, " ") != "out.pdf" {
		t.Errorf("the directory holds %q, want out.pdf alone", names)
	}
	d, err := pdfio.Open(filepath.Join(dir, "out.pdf"), pdfio.Options{})
	if err != nil || len(d.Pages) != 1 {
		t.Errorf("out.pdf: %v, want the page captured before\n%s", err, out.String())
	}
}
