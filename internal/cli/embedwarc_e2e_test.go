package cli

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/internal/sealoracle"
	"github.com/webcap/webcap/internal/testpki"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/warc"
)

// TestBrowserEmbedWARC is issue 28's items 2 and 3 through the commands, on
// the 80-page site: capture --warc --embed-warc writes a PDF that carries
// its WARC (pdfdetach saves the bytes of the --warc file, node-warc reads
// them, qpdf finds the file sound), and audit with no --sources verifies
// every content set against it, and the signature and timestamps
// (--sign-cert, --timestamp-url, --ltv, on the test PKI) cover it; append --embed-warc adds its own WARC, and
// the sets of both are verified; with WEBCAP_SLOW_TESTS=1 refresh too. The
// size the WARC adds is logged.
func TestBrowserEmbedWARC(t *testing.T) {
	browserSuite(t)
	s := newCaptureSite(t)
	base := s.srv.URL
	dir := t.TempDir()
	file, archive := filepath.Join(dir, "site.pdf"), filepath.Join(dir, "site.warc.gz")
	p, pki := testpki.Start(t, dir)
	ios, _, stdout, stderr := Test()
	if code := Main(context.Background(), []string{"capture", "--levels", "3", "--max-pages", "200", "--wait-idle", "100ms",
		"--warc", archive, "--embed-warc", "--sign-cert", pki.Chain, "--sign-key", pki.Key, "--timestamp-url", p.TSAURL(), "--ltv",
		base + "/site/index.html", "-o", file}, ios); code != 0 {
		t.Fatalf("capture --embed-warc: exit %d\n%s%s", code, stdout, stderr)
	}
	pdf, _ := os.ReadFile(file)
	if pdfsig, err := exec.LookPath("pdfsig"); err == nil {
		got, _ := exec.Command(pdfsig, file).CombinedOutput()
		if n := strings.Count(string(got), "Signature Validation: Signature is Valid."); n != 1 {
			t.Errorf("pdfsig: %d valid signatures, want the signature (its document timestamps openssl checks):\n%s", n, got)
		}
	}
	warcBytes, _ := os.ReadFile(archive)
	checkQPDFFile(t, file)
	extracted := checkDetachFile(t, file, "site.warc.gz", archive)

	// The WARC's last record is the PDF before the WARC was put in it: a
	// prefix of the file, whose size is the capture's without --embed-warc.
	if node, err := exec.LookPath("node"); err == nil && extracted != "" {
		if npm, err := exec.LookPath("npm"); err == nil {
			recs := nodeWARC(t, node, npm, extracted) // the WARC as pdfdetach saved it from the PDF
			last := recs[len(recs)-1]
			before := last.content()
			if last.Type != "resource" || len(before) == 0 || !strings.HasPrefix(string(pdf), string(before)) {
				t.Errorf("the WARC's last record (%s, %d bytes) is not the PDF before the WARC was embedded", last.Type, len(before))
			} else {
				t.Logf("size: PDF without the WARC %d bytes, WARC %d bytes, PDF with it, sealed, %d bytes (+%d, %.1f%%)",
					len(before), len(warcBytes), len(pdf), len(pdf)-len(before), 100*float64(len(pdf)-len(before))/float64(len(before)))
			}
		}
	}
	verified := regexp.MustCompile(`info WC-EMBED-VERIFIED object \d+ 0 R: (\d+) of (\d+) content sets verified against the embedded WARCs? ([^(]*) \(`)
	audit := func(name, want string) {
		t.Helper()
		code, report := audited(t, name)
		m := verified.FindStringSubmatch(report)
		if code != 0 || m == nil || m[1] != m[2] || m[3] != want || m[1] == "0" {
			t.Errorf("audit %s: exit %d, want 0 and every set verified against %s:\n%s", filepath.Base(name), code, want, report)
			return
		}
		n, _ := strconv.Atoi(m[1])
		t.Logf("audit %s: %d of %d content sets verified against %s", filepath.Base(name), n, n, want)
	}
	audit(file, "site.warc.gz")
	evidenceChecks(t, file, archive, pki)

	appended, appWARC := filepath.Join(dir, "app.pdf"), filepath.Join(dir, "app.warc.gz")
	s.mu.Lock()
	s.files["/site/extra.html"] = []byte(`<!DOCTYPE html><html><head><title>Extra</title></head><body><p>Appended.</p></body></html>`)
	s.mu.Unlock()
	ios, _, stdout, stderr = Test()
	if code := Main(context.Background(), []string{"append", "--wait-idle", "100ms", "--warc", appWARC, "--embed-warc", "--timestamp-url", p.TSAURL(), file, base + "/site/extra.html", "-o", appended}, ios); code != 0 {
		t.Fatalf("append --embed-warc: exit %d\n%s%s", code, stdout, stderr)
	}
	// (sealed again: what append adds is covered by a new document
	// timestamp, or the audit names it, WC-SEAL-AFTER)
	audit(appended, "site.warc.gz, app.warc.gz")

	// Not sealed again: append says the update is covered by no seal, and
	// audit names what it added.
	unsealed := filepath.Join(dir, "unsealed.pdf")
	ios, _, stdout, stderr = Test()
	if code := Main(context.Background(), []string{"append", "--wait-idle", "100ms", file, base + "/site/extra.html", "-o", unsealed}, ios); code != 0 ||
		!strings.Contains(stderr.String(), "is sealed (2 seals), and what this update added is covered by no seal") {
		t.Errorf("append of a sealed file, not sealed again: exit %d, want 0 and a warning\n%s%s", code, stdout, stderr)
	}
	if code, report := audited(t, unsealed); code != 1 || !strings.Contains(report, "error WC-SEAL-AFTER") {
		t.Errorf("audit of a sealed file appended to: exit %d, want 1 with WC-SEAL-AFTER\n%s", code, report)
	}

	if os.Getenv("WEBCAP_SLOW_TESTS") != "1" {
		return
	}
	refreshed, refWARC := filepath.Join(dir, "refreshed.pdf"), filepath.Join(dir, "refreshed.warc.gz")
	ios, _, stdout, stderr = Test()
	if code := Main(context.Background(), []string{"refresh", "--allow-private", "--wait-idle", "100ms", "--warc", refWARC, "--embed-warc", "--timestamp-url", p.TSAURL(), file, "-o", refreshed}, ios); code != 0 {
		t.Fatalf("refresh --embed-warc: exit %d\n%s%s", code, stdout, stderr)
	}
	audit(refreshed, "site.warc.gz, refreshed.warc.gz")
}

// evidenceChecks is the rest of issue 28's "done when" on a capture made
// with --warc W --embed-warc --sign-cert --sign-key --timestamp-url --ltv:
// openssl verifies every seal over its range (cms -verify for the
// signature, ts -verify for its signature timestamp over the signature
// value and for the document timestamp), audit --trust CA.pem verifies
// both seals against the test CA, and every URLS key of the PDF has a
// response record in the WARC.
func evidenceChecks(t *testing.T, file, archive string, pki testpki.Files) {
	t.Helper()
	pdf, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	d, err := pdfio.ReadBytes(pdf, file, pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, s := range d.Seals {
		kinds = append(kinds, s.Type)
		if !verifies(t, pdf, s, s.ByteRange, pki) {
			t.Errorf("openssl does not verify the %s seal %q over its /ByteRange", s.Type, s.Field)
		}
		if s.Type != pdfio.SealSig {
			continue
		}
		token, value, err := sealoracle.SignatureTimestamp(s.Contents)
		if err != nil || token == nil {
			t.Errorf("the signature has no signature timestamp (PAdES B-T): %v", err)
			continue
		}
		if v, err := sealoracle.Token(value, token, pki.CA, pki.TSA); err != nil || !v.OK {
			t.Errorf("openssl ts -verify of the signature timestamp over the signature value: %v\n%s", err, v.Out)
		}
	}
	if strings.Join(kinds, " ") != "Sig DocTimeStamp" {
		t.Errorf("seals %q, want a signature then a document timestamp (PAdES B-LTA)", kinds)
	}
	ios, _, stdout, stderr := Test()
	code := Main(context.Background(), []string{"audit", "--in-process", "--trust", pki.CA, file}, ios)
	report := stdout.String() + stderr.String()
	if code != 0 || strings.Count(report, "WC-SEAL-VERIFIED") != 2 || strings.Count(report, "; trusted") != 2 || strings.Contains(report, "WC-SEAL-UNTRUSTED") {
		t.Errorf("audit --trust: exit %d, want 0 and both seals verified and trusted:\n%s", code, report)
	}

	// Every URLS key has a response record (its target URI, canonical).
	c, err := canon.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	responses := map[string]bool{}
	r := warc.NewReader(f)
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if rec.Type() == "response" {
			if u, err := c.String(rec.TargetURI()); err == nil {
				responses[u] = true
			}
		}
	}
	if d.URLS == nil || len(d.URLS.Entries) == 0 {
		t.Fatal("the capture has no URLS tree")
	}
	for _, e := range d.URLS.Entries {
		if !responses[e.Key] {
			t.Errorf("URLS key %s: no response record in the WARC", e.Key)
		}
	}
	t.Logf("%d seals verified by openssl; %d URLS keys, each with a response record", len(d.Seals), len(d.URLS.Entries))
}
