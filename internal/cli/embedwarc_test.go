package cli

import (
	"bytes"
	"context"
	"fmt"
	"mime"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/webcap/webcap/internal/testpki"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/warc"
)

// builtCapture builds testdata/build's manifest (identifiers computed from
// its site directory) and returns the PDF, and a WARC (gzip members when
// gz) of the site's files as the responses to their URLs: what capture
// --warc would have written for it.
func builtCapture(t *testing.T, dir string, gz bool, changed map[string]string) (pdf, archive []byte) {
	t.Helper()
	out := filepath.Join(dir, "built.pdf")
	ios, _, stdout, stderr := Test()
	if code := Main(context.Background(), []string{"build", filepath.Join("..", "..", "testdata", "build", "manifest.json"), "-o", out}, ios); code != 0 {
		t.Fatalf("build: exit %d\n%s%s", code, stdout, stderr)
	}
	pdf, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	site := filepath.Join("..", "..", "testdata", "build", "site", "www.example.com")
	var buf bytes.Buffer
	w := warc.NewWriter(&buf, gz)
	date := time.Date(2026, 11, 21, 10, 30, 0, 0, time.UTC)
	for _, name := range []string{"index.html", "logo.gif", "style.css", "results.html", "docs/notes.txt"} {
		body, err := os.ReadFile(filepath.Join(site, name))
		if err != nil {
			t.Fatal(err)
		}
		if c, ok := changed[name]; ok {
			body = []byte(c)
		}
		url := "http://www.example.com/" + strings.TrimSuffix(name, "index.html")
		ct := mime.TypeByExtension(filepath.Ext(name))
		http := fmt.Appendf(nil, "HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s", ct, len(body), body)
		if err := w.Write(warc.NewResponse(url, date, http)); err != nil {
			t.Fatal(err)
		}
	}
	return pdf, buf.Bytes()
}

// embedWARC writes pdf with the WARC archive embedded to out (or stdout
// for "-"), as capture --warc W --embed-warc writes its result.
func embedWARC(t *testing.T, ios *IOStreams, pdf []byte, archive []byte, warcPath, out string) *pdfio.Document {
	t.Helper()
	return embedSealed(t, ios, &sealFlags{}, pdf, archive, warcPath, out)
}

// embedSealed is embedWARC sealed as s says.
func embedSealed(t *testing.T, ios *IOStreams, s *sealFlags, pdf []byte, archive []byte, warcPath, out string) *pdfio.Document {
	t.Helper()
	e := &embedFlags{EmbedWARC: true}
	o := &outputFlags{Out: out}
	read := func(name string) (*pdfio.Document, error) { return pdfio.ReadBytes(pdf, name, pdfio.Options{}) }
	d, err := e.writeRead(context.Background(), "capture", o, s, ios, "", pdf, read, warcPath, func([]byte) error {
		if err := os.WriteFile(warcPath, archive, 0o644); err != nil {
			return err
		}
		mod := time.Date(2026, 11, 21, 10, 31, 0, 0, time.UTC) // (the same /ModDate each time)
		return os.Chtimes(warcPath, mod, mod)
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// audited runs webcap audit (no --sources) on file.
func audited(t *testing.T, file string) (int, string) {
	t.Helper()
	ios, _, stdout, stderr := Test()
	code := Main(context.Background(), []string{"audit", "--in-process", file}, ios)
	return code, stdout.String() + stderr.String()
}

// A capture with its WARC embedded: pdfdetach lists it and saves the bytes
// of the --warc file, qpdf finds the file sound, info shows it, and audit,
// with no --sources (no network: the sources are in the file), recomputes
// every set's identifier from it and says so; to stdout too.
func TestEmbedWARC(t *testing.T) {
	dir := t.TempDir()
	pdf, archive := builtCapture(t, dir, true, nil)
	warcPath, out := filepath.Join(dir, "site.warc.gz"), filepath.Join(dir, "site.pdf")
	ios, _, _, _ := Test()
	embedWARC(t, ios, pdf, archive, warcPath, out)
	file, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(file, pdf) {
		t.Error("the PDF written is not an update of the capture")
	}
	t.Logf("PDF %d bytes, WARC %d bytes, with the WARC embedded %d bytes (+%d)", len(pdf), len(archive), len(file), len(file)-len(pdf))
	code, report := audited(t, out)
	if code != 0 || !strings.Contains(report, "info WC-EMBED-VERIFIED") || !strings.Contains(report, "3 of 3 content sets verified against the embedded WARC site.warc.gz (5 records)") {
		t.Errorf("audit: exit %d, want 0 and 3 of 3 sets verified:\n%s", code, report)
	}
	checkQPDFFile(t, out)
	checkDetachFile(t, out, "site.warc.gz", warcPath)

	// Rewritten by qpdf, which compresses the embedded stream
	// (/FlateDecode) and moves the objects into object streams: the
	// archive still verifies every set.
	if qpdf, err := exec.LookPath("qpdf"); err == nil {
		rewritten := filepath.Join(dir, "qpdf.pdf")
		if out, err := exec.Command(qpdf, "--compress-streams=y", "--recompress-flate", "--object-streams=generate", out, rewritten).CombinedOutput(); err != nil {
			t.Fatalf("qpdf: %v\n%s", err, out)
		}
		d, err := pdfio.Open(rewritten, pdfio.Options{})
		if err != nil || len(d.Attachments) != 1 || len(d.Attachments[0].Filters) == 0 {
			t.Fatalf("qpdf's rewrite: %v, %+v", err, d)
		}
		if code, report := audited(t, rewritten); code != 0 || !strings.Contains(report, "3 of 3 content sets verified against the embedded WARC site.warc.gz") {
			t.Errorf("audit of qpdf's rewrite: exit %d\n%s", code, report)
		}
	}

	ios, _, stdout, _ := Test()
	if code := Main(context.Background(), []string{"info", out}, ios); code != 0 || !regexp.MustCompile(`(?m)^embedded files: 1\n  site\.warc\.gz \(\d+ 0 R\): \d+ bytes, application/warc, Source, associated \(/AF\)$`).MatchString(stdout.String()) {
		t.Errorf("info: exit %d\n%s", code, stdout)
	}
	var info struct {
		EmbeddedFiles []embeddedFileJSON `json:"embeddedFiles"`
	}
	if code := runJSON(t, &info, "info", "--json", out); code != 0 || len(info.EmbeddedFiles) != 1 {
		t.Fatalf("info --json: exit %d, %+v", code, info)
	}
	if f := info.EmbeddedFiles[0]; f.Name != "site.warc.gz" || f.Relationship != "Source" || f.MediaType != "application/warc" || f.Size == nil || *f.Size != int64(len(archive)) || !f.InAF || len(f.MD5) != 32 {
		t.Errorf("info --json: %+v", f)
	}

	// -o -: the same bytes, to stdout.
	ios, _, stdout, _ = Test()
	os.Mkdir(filepath.Join(dir, "again"), 0o755)
	embedWARC(t, ios, pdf, archive, filepath.Join(dir, "again", "site.warc.gz"), stdoutName)
	if !bytes.Equal(stdout.Bytes(), file) {
		t.Errorf("-o -: %d bytes, not the %d written to a file", stdout.Len(), len(file))
	}
}

// One byte changed inside the embedded WARC's payload: audit fails (exit
// 1), naming the embedded file, the set whose identifier no longer holds
// and the record whose digest does not.
func TestEmbedWARCTampered(t *testing.T) {
	dir := t.TempDir()
	pdf, archive := builtCapture(t, dir, false, nil)
	warcPath, out := filepath.Join(dir, "site.warc"), filepath.Join(dir, "site.pdf")
	ios, _, _, _ := Test()
	embedWARC(t, ios, pdf, archive, warcPath, out)
	file, _ := os.ReadFile(out)
	i := len(pdf) + bytes.Index(file[len(pdf):], []byte("notes")) // in the home page's link to notes.txt
	file[i] = 'N'
	os.WriteFile(out, file, 0o644)
	code, report := audited(t, out)
	if code != 1 {
		t.Errorf("audit: exit %d, want 1\n%s", code, report)
	}
	for _, want := range []string{
		`error WC-EMBED-CHECKSUM object \d+ 0 R /Params: the embedded file site.warc: /Params /CheckSum is <`,
		`error WC-EMBED-MISMATCH object \d+ 0 R /ID: /ID is <[0-9A-F]{32}>, but http://www.example.com/ now has the page-set identifier <[0-9A-F]{32}> \(with any form of its auxiliary identifiers; WARC record <urn:uuid:[-0-9a-f]+> of the embedded WARC site.warc, WARC-Payload-Digest sha256:`,
		`error WC-EMBED-DIGEST object \d+ 0 R /SI: the embedded WARC site.warc: the response record <urn:uuid:[-0-9a-f]+> for http://www.example.com/ \(this content set's source\) does not match its bytes`,
		`info WC-EMBED-VERIFIED .*: 2 of 3 content sets verified`,
	} {
		if !regexp.MustCompile(want).MatchString(report) {
			t.Errorf("audit: no line matching %q:\n%s", want, report)
		}
	}
}

// checkQPDFFile runs qpdf --check on path: no error, no warning.
func checkQPDFFile(t *testing.T, path string) {
	t.Helper()
	qpdf, err := exec.LookPath("qpdf")
	if err != nil {
		return
	}
	out, err := exec.Command(qpdf, "--check", path).CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte("No syntax or stream encoding errors")) || bytes.Contains(out, []byte("WARNING")) {
		t.Errorf("qpdf --check: %v\n%s", err, out)
	}
}

// checkDetachFile lists path's embedded files with pdfdetach and saves
// the first: its bytes are those of the file want. It returns the file
// saved ("" without pdfdetach).
func checkDetachFile(t *testing.T, path, name, want string) string {
	t.Helper()
	pdfdetach, err := exec.LookPath("pdfdetach")
	if err != nil {
		return ""
	}
	out, err := exec.Command(pdfdetach, "-list", path).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "1: "+name) {
		t.Errorf("pdfdetach -list: %v\n%s", err, out)
	}
	x := filepath.Join(t.TempDir(), "x")
	if out, err := exec.Command(pdfdetach, "-save", "1", "-o", x, path).CombinedOutput(); err != nil {
		t.Fatalf("pdfdetach -save: %v\n%s", err, out)
	}
	if out, err := exec.Command("cmp", x, want).CombinedOutput(); err != nil {
		t.Errorf("cmp (pdfdetach -save) %s: %v\n%s", want, err, out)
	}
	return x
}

// A capture whose WARC holds another payload than the one captured,
// written with its digests (the archive is consistent): the PDF alone
// shows it, the set's identifier disagreeing with the archive it carries.
func TestEmbedWARCChangedPayload(t *testing.T) {
	dir := t.TempDir()
	pdf, archive := builtCapture(t, dir, true, map[string]string{"docs/notes.txt": "Notes, rewritten after the capture.\n"})
	out := filepath.Join(dir, "site.pdf")
	ios, _, _, _ := Test()
	embedWARC(t, ios, pdf, archive, filepath.Join(dir, "site.warc.gz"), out)
	code, report := audited(t, out)
	want := regexp.MustCompile(`error WC-EMBED-MISMATCH object \d+ 0 R /ID: /ID is <[0-9A-F]{32}>, but http://www.example.com/docs/notes.txt now has the identifier <[0-9A-F]{32}> \(MD5 of its 36 bytes; WARC record <urn:uuid:[-0-9a-f]+> of the embedded WARC site.warc.gz`)
	if code != 1 || !want.MatchString(report) || strings.Contains(report, "WC-EMBED-DIGEST") || strings.Contains(report, "WC-EMBED-CHECKSUM") {
		t.Errorf("audit: exit %d, want 1 and one WC-EMBED-MISMATCH for notes.txt (no digest or checksum finding):\n%s", code, report)
	}
}

// --embed-warc with a signature and a timestamp (the test PKI, on
// loopback): the WARC is embedded before the seal, which covers it
// (pdfsig: the signature is valid and covers the whole file); pdfdetach
// still saves the --warc file's bytes, and audit verifies every set.
func TestEmbedWARCSealed(t *testing.T) {
	dir := t.TempDir()
	p, f := testpki.Start(t, dir)
	s := &sealFlags{SignCert: f.Chain, SignKey: f.Key, TimestampURL: p.TSAURL()}
	ios, _, _, _ := Test()
	if err := s.prepare("capture", ios, nil); err != nil {
		t.Fatal(err)
	}
	pdf, archive := builtCapture(t, dir, true, nil)
	warcPath, out := filepath.Join(dir, "site.warc.gz"), filepath.Join(dir, "site.pdf")
	embedSealed(t, ios, s, pdf, archive, warcPath, out)
	file, _ := os.ReadFile(out)
	if i, j := bytes.Index(file, []byte("/Type /EmbeddedFile")), bytes.LastIndex(file, []byte("/ByteRange")); i < 0 || j < i {
		t.Errorf("the embedded file (at %d) is not before the signature (at %d)", i, j)
	}
	checkDetachFile(t, out, "site.warc.gz", warcPath)
	checkQPDFFile(t, out)
	if code, report := audited(t, out); code != 0 || !strings.Contains(report, "3 of 3 content sets verified against the embedded WARC site.warc.gz") {
		t.Errorf("audit: exit %d\n%s", code, report)
	}
	if pdfsig, err := exec.LookPath("pdfsig"); err == nil {
		got, _ := exec.Command(pdfsig, out).CombinedOutput()
		if !strings.Contains(string(got), "Signature Validation: Signature is Valid.") || !strings.Contains(string(got), "Total document signed") {
			t.Errorf("pdfsig: want a valid signature over the whole file:\n%s", got)
		}
	}
}
