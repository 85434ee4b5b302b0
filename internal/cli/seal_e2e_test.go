package cli

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webcap/webcap/internal/testpki"
)

// TestCaptureSealed: capture, append and refresh with the sealing flags
// seal what they write (pdfsig says the signature is valid, qpdf --check
// is clean); a time-stamping authority that fails leaves no output, exit
// 3, and the crawl's pages are not written unsealed.
func TestCaptureSealed(t *testing.T) {
	browserSuite(t)
	p, err := testpki.New()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	dir := t.TempDir()
	f, err := p.WriteFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!DOCTYPE html><title>Page %s</title><p>Page %s.</p><a href="/b">b</a>`, r.URL.Path, r.URL.Path)
	}))
	defer srv.Close()
	sign := []string{"--sign-cert", f.Chain, "--sign-key", f.Key, "--timestamp-url", p.TSAURL(), "--ltv"}
	captured := filepath.Join(dir, "c.pdf")
	run := func(want int, args ...string) string {
		t.Helper()
		ios, _, stdout, stderr := Test()
		if code := Main(context.Background(), args, ios); code != want {
			t.Fatalf("webcap %q: exit %d, want %d\n%s%s", args, code, want, stdout, stderr)
		}
		return stdout.String() + stderr.String()
	}
	run(0, append([]string{"capture", "--ignore-robots", "--wait-idle", "50ms", srv.URL + "/a", "-o", captured}, sign...)...)
	checkSealedFile(t, captured, 2)

	appended := filepath.Join(dir, "a.pdf")
	run(0, "append", "--ignore-robots", "--wait-idle", "50ms", "--timestamp-url", p.TSAURL(), captured, srv.URL+"/c", "-o", appended)
	checkSealedFile(t, appended, 3)
	refreshed := filepath.Join(dir, "r.pdf")
	run(0, "refresh", "--ignore-robots", "--allow-private", "--wait-idle", "50ms", "--sign-p12", f.P12, "--sign-password-file", f.Password, appended, "-o", refreshed)
	checkSealedFile(t, refreshed, 4)

	p.SetTSA(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusBadGateway) }))
	failed := filepath.Join(dir, "failed.pdf")
	said := run(exitIOError, append([]string{"capture", "--ignore-robots", "--wait-idle", "50ms", srv.URL + "/a", "-o", failed}, sign...)...)
	if !strings.Contains(said, "capture: nothing written: sealing: the time-stamping authority at") {
		t.Errorf("capture with a TSA that fails said:\n%s", said)
	}
	if _, err := os.Stat(failed); err == nil {
		t.Error("capture wrote its output although the TSA failed")
	}
}

// checkSealedFile checks with pdfsig that file has seals seals, every
// signature valid, and with qpdf that it is sound.
func checkSealedFile(t *testing.T, file string, seals int) {
	t.Helper()
	if _, err := exec.LookPath("pdfsig"); err == nil {
		out, _ := exec.Command("pdfsig", file).CombinedOutput()
		if n := bytes.Count(out, []byte("Signature Field Name:")); n != seals {
			t.Errorf("pdfsig %s: %d seals, want %d\n%s", file, n, seals, out)
		}
		if bytes.Contains(out, []byte("Signature is Invalid")) || !bytes.Contains(out, []byte("Signature is Valid")) {
			t.Errorf("pdfsig %s:\n%s", file, out)
		}
	}
	if _, err := exec.LookPath("qpdf"); err == nil {
		if out, err := exec.Command("qpdf", "--check", file).CombinedOutput(); err != nil {
			t.Errorf("qpdf --check %s: %v\n%s", file, err, out)
		}
	}
}
