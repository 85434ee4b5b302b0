//go:build unix

package htmlreport_test

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/htmlreport"
)

// TestThumbnailBudget: a file whose pages take their file's time gets no
// more thumbnails, and says why; the file after it gets its own. The
// bomb's page hangs until it is killed, and its time passes on the test's
// clock: the drawing is stopped once the clock is past the file's 2 s,
// however loaded the machine.
func TestThumbnailBudget(t *testing.T) {
	dir := t.TempDir()
	// The bomb's pdftoppm says it started on a FIFO the test holds open
	// for reading and writing (so that neither side's open waits).
	started := filepath.Join(dir, "started")
	if err := syscall.Mkfifo(started, 0o600); err != nil {
		t.Fatal(err)
	}
	fifo, err := os.OpenFile(started, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer fifo.Close()
	r := fakeRenderer(t, `for a; do last=$a; done; case "$last" in *bomb*) echo "$last" > '`+started+`'; exec sleep 600;; esac; printf '\211PNG\r\n\032\n'`)
	r.Timeout, r.FileTime = 2*time.Second, 2*time.Second // the bomb's first page takes the file's time
	clock := htmlreport.UseFakeClock(r)
	var files htmlreport.Slice
	for _, name := range []string{"bomb.pdf", "ok.pdf"} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		c := &htmlreport.Capture{}
		for p := 1; p <= 3; p++ {
			c.Sets = append(c.Sets, htmlreport.Set{Kind: "page", Page: p, Objects: 1, Verified: "unchecked"})
		}
		files = append(files, htmlreport.File{Result: audit.FileResult{Input: path}, Capture: c})
	}
	out := filepath.Join(dir, "r.html")
	type result struct {
		st  htmlreport.Stats
		err error
	}
	done := make(chan result, 1)
	go func() {
		st, err := htmlreport.Write(context.Background(), out, files, htmlreport.Options{Renderer: r, Jobs: 1})
		done <- result{st, err}
	}()
	if err := fifo.SetReadDeadline(time.Now().Add(time.Minute)); err != nil { // a safety net only
		t.Fatal(err)
	}
	if _, err := bufio.NewReader(fifo).ReadString('\n'); err != nil {
		t.Fatalf("the bomb's page was not drawn: %v", err)
	}
	clock.Advance(2 * time.Second) // its time is up: it is killed, and its file's budget spent
	var res result
	select {
	case res = <-done:
	case <-time.After(time.Minute): // a safety net only
		t.Fatal("Write did not return once the bomb's time was up")
	}
	if res.err != nil {
		t.Fatal(res.err)
	}
	if st := res.st; st.Thumbnails != 3 || st.Failed != 1 || st.Skipped != 2 {
		t.Errorf("Write = %d thumbnails, %d failed, %d skipped; want 3, 1, 2", st.Thumbnails, st.Failed, st.Skipped)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"not drawn: this file&#39;s thumbnails took their 2 s</span>",
		"No more thumbnails were drawn: this file&#39;s thumbnails took their 2 s.",
	} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("the report does not say %q", want)
		}
	}
}
