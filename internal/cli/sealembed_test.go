package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webcap/webcap/internal/testpki"
)

// webcap seal --embed-warc on a capture made without it (issue 28 item 6):
// the WARC goes in first, by an update of its own that the seals cover;
// every byte of the input is kept; pdfdetach saves the WARC's bytes, qpdf
// finds the file sound, audit verifies every set from the file alone, and
// pdfsig says the signature is valid over the whole file. Renewing the
// timestamp twice keeps every earlier seal valid. Alone, --embed-warc is
// the only change.
func TestSealEmbedWARC(t *testing.T) {
	dir := t.TempDir()
	p, f := testpki.Start(t, dir)
	pdf, archive := builtCapture(t, dir, true, nil)
	in, warcPath := filepath.Join(dir, "in.pdf"), filepath.Join(dir, "site.warc.gz")
	if err := os.WriteFile(in, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(warcPath, archive, 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (int, string) {
		t.Helper()
		ios, _, stdout, stderr := Test()
		code := Main(context.Background(), append([]string{"seal"}, args...), ios)
		return code, stdout.String() + stderr.String()
	}
	tsa := p.TSAURL()

	only := filepath.Join(dir, "embedded.pdf")
	if code, said := run(in, "--embed-warc", warcPath, "-o", only); code != 0 || !strings.Contains(said, "embedded site.warc.gz") {
		t.Fatalf("seal --embed-warc: exit %d\n%s", code, said)
	}
	checkDetachFile(t, only, "site.warc.gz", warcPath)
	checkQPDFFile(t, only)
	if code, report := audited(t, only); code != 0 || !strings.Contains(report, "3 of 3 content sets verified against the embedded WARC site.warc.gz") {
		t.Errorf("audit of the embedded-only file: exit %d\n%s", code, report)
	}

	sealed := filepath.Join(dir, "sealed.pdf")
	code, said := run(in, "--embed-warc", warcPath, "--sign-cert", f.Chain, "--sign-key", f.Key, "--timestamp-url", tsa, "--ltv", "-o", sealed)
	if code != 0 {
		t.Fatalf("seal --embed-warc --sign-… --ltv: exit %d\n%s", code, said)
	}
	file, _ := os.ReadFile(sealed)
	if !bytes.HasPrefix(file, pdf) {
		t.Error("the sealed file does not keep every byte of the input")
	}
	if i, j := bytes.Index(file, []byte("/Type /EmbeddedFile")), bytes.Index(file, []byte("/ByteRange")); i < 0 || j < i {
		t.Errorf("the embedded file (at %d) is not before the first seal (at %d)", i, j)
	}
	checkDetachFile(t, sealed, "site.warc.gz", warcPath)
	checkQPDFFile(t, sealed)
	audit := func(file string) {
		t.Helper()
		ios, _, stdout, stderr := Test()
		code := Main(context.Background(), []string{"audit", "--in-process", "--trust", f.CA, file}, ios)
		report := stdout.String() + stderr.String()
		if code != 0 || !strings.Contains(report, "3 of 3 content sets verified against the embedded WARC site.warc.gz") || strings.Contains(report, "WC-SEAL-UNTRUSTED") || !strings.Contains(report, "WC-SEAL-VERIFIED") {
			t.Errorf("audit --trust %s: exit %d\n%s", file, code, report)
		}
	}
	audit(sealed)
	pdfsigAll(t, sealed, 1)

	// Renew the archive timestamp twice: every earlier seal stays valid.
	prev := sealed
	for i, name := range []string{"renewed1.pdf", "renewed2.pdf"} {
		next := filepath.Join(dir, name)
		if code, said := run(prev, "--timestamp-url", tsa, "--ltv", "-o", next); code != 0 {
			t.Fatalf("renewal %d: exit %d\n%s", i+1, code, said)
		}
		old, _ := os.ReadFile(prev)
		now, _ := os.ReadFile(next)
		if !bytes.HasPrefix(now, old) {
			t.Errorf("renewal %d changed earlier bytes", i+1)
		}
		audit(next)
		pdfsigAll(t, next, 1)
		prev = next
	}

	// A file that is not a WARC is not embedded: nothing written.
	x := filepath.Join(dir, "x.pdf")
	if code, said := run(in, "--embed-warc", in, "--timestamp-url", tsa, "-o", x); code != exitInvalid || !strings.Contains(said, "seal: --embed-warc: "+in) {
		t.Errorf("seal --embed-warc in.pdf: exit %d, want %d naming the file\n%s", code, exitInvalid, said)
	}
	if _, err := os.Stat(x); err == nil {
		t.Error("seal --embed-warc with a file that is not a WARC wrote its output")
	}
}

// pdfsigAll checks that pdfsig finds sigs signatures (document timestamps
// are not counted: pdfsig cannot check them) and says each is valid.
func pdfsigAll(t *testing.T, file string, sigs int) {
	t.Helper()
	pdfsig, err := exec.LookPath("pdfsig")
	if err != nil {
		return
	}
	out, _ := exec.Command(pdfsig, file).CombinedOutput()
	got := string(out)
	if n := strings.Count(got, "Signature Validation: Signature is Valid."); n < sigs || strings.Contains(got, "Signature is Invalid") || strings.Contains(got, "Digest Mismatch") {
		t.Errorf("pdfsig %s: want %d valid signatures, none invalid:\n%s", filepath.Base(file), sigs, got)
	}
}
