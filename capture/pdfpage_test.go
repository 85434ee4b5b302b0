package capture

import (
	"context"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/fetch"
	"github.com/webcap/webcap/internal/pdfbuild"
)

// encrypted is report encrypted by qpdf (AES-256, an empty user
// password), or the test is skipped without qpdf.
func encrypted(t *testing.T, report []byte) []byte {
	t.Helper()
	qpdf, err := exec.LookPath("qpdf")
	if err != nil {
		t.Skip("qpdf is not installed")
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.pdf"), filepath.Join(dir, "enc.pdf")
	if err := os.WriteFile(in, report, 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command(qpdf, "--encrypt", "", "owner", "256", "--", in, out).CombinedOutput(); err != nil {
		t.Fatalf("qpdf --encrypt: %v %s", err, b)
	}
	enc, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return enc
}

func docPage(u, ct string, body []byte) *Page {
	h := http.Header{}
	if ct != "" {
		h.Set("Content-Type", ct)
	}
	doc := &Response{URL: u, Status: http.StatusOK, Header: h, Body: body, MainDoc: true}
	return &Page{Requested: u, URL: u, Document: doc, Responses: []*Response{doc}, Title: "", Links: []string{"http://h/x"}, PDF: []byte("printed")}
}

// A page whose document is a PDF file gets the file's own pages (its
// bytes, the pages a merger then copies); a PDF file that cannot be
// copied is a *PDFError that says why; any other page is left as it is.
func TestPDFPage(t *testing.T) {
	report := pdfbuild.Report(2, "Annual report")
	const u = "http://127.0.0.1:8080/files/annual-report.pdf"
	for _, tc := range []struct {
		name, ct string
		body     func(t *testing.T) []byte
		want     string // in the error; "" for none
		pages    int    // the file's pages, when it is a PDF copied
	}{
		{"report", "application/pdf", func(*testing.T) []byte { return report }, "", 2},
		{"report sniffed", "application/octet-stream", func(*testing.T) []byte { return report }, "", 2},
		{"report undeclared", "", func(*testing.T) []byte { return report }, "", 2},
		{"a page", "text/html", func(*testing.T) []byte { return []byte("<!DOCTYPE html><p>x") }, "", 0},
		{"encrypted", "application/pdf", func(t *testing.T) []byte { return encrypted(t, report) }, "an encrypted PDF file", 0},
		{"garbage", "application/pdf", func(*testing.T) []byte { return []byte("%PDF-1.7\nnot a PDF file at all\n%%EOF\n") }, "cannot be copied", 0},
		{"deep page tree", "application/pdf", func(*testing.T) []byte { return pdfbuild.DeepPages(100_000) }, "deeper than", 0},
		{"page in a flate bomb", "application/pdf", func(*testing.T) []byte { return pdfbuild.PageBomb(100 << 20) }, "cannot be copied", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := tc.body(t)
			p := docPage(u, tc.ct, body)
			err := pdfPage(context.Background(), p)
			if tc.want != "" {
				var pe *PDFError
				if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("pdfPage = %v, want a *PDFError saying %q", err, tc.want)
				}
				if s := (&crawler{}).skipOf(context.Background(), u, err); s.Kind != SkipPDF {
					t.Errorf("skip kind %q, want %q (%s)", s.Kind, SkipPDF, s.Reason)
				}
				t.Logf("skipped: %s", err)
				return
			}
			if err != nil {
				t.Fatalf("pdfPage = %v", err)
			}
			if tc.pages == 0 {
				if string(p.PDF) != "printed" || len(p.Links) != 1 {
					t.Errorf("pdfPage changed a page that is not a PDF file: %q %v", p.PDF, p.Links)
				}
				return
			}
			if string(p.PDF) != string(body) || p.Links != nil || p.Title != "annual-report.pdf" {
				t.Errorf("pdfPage: PDF of %d bytes (want the file's %d), links %v, title %q", len(p.PDF), len(body), p.Links, p.Title)
			}
			if ct := setContentType(p.Document); ct != "application/pdf" {
				t.Errorf("setContentType = %q, want application/pdf", ct)
			}
			mg := &merger{name: "capture.pdf", page: 1}
			mg.add(p)
			if mg.err != nil || len(mg.printed) != 1 || mg.printed[0].Pages != tc.pages {
				t.Fatalf("merger: %v, printed %+v, want %d pages", mg.err, mg.printed, tc.pages)
			}
			got, err := mg.u.Pages()
			if err != nil || len(got) != tc.pages {
				t.Errorf("the capture's pages: %v %v, want %d", got, err, tc.pages)
			}
			out, err := mg.u.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			if a, b := pdfText(t, out), pdfText(t, body); a != b {
				t.Errorf("the capture's text %q, the file's %q", a, b)
			}
		})
	}
}

// The browser is given an empty page in place of a PDF file, and
// everything else as fetched.
func TestServePDF(t *testing.T) {
	report := pdfbuild.Report(1, "r")
	params := &fetch.FulfillRequestParams{RequestID: "1", ResponseCode: 200, Body: report}
	pdf := docPage("http://h/r.pdf", "application/pdf", report).Document
	if got := servePDF(pdf, params); string(got.Body) != blankPage || got.RequestID != "1" {
		t.Errorf("servePDF(a PDF file) = %q", got.Body)
	}
	html := docPage("http://h/", "text/html", []byte("<p>x")).Document
	if got := servePDF(html, params); got != params {
		t.Errorf("servePDF(a page) = %v, want the page as fetched", got)
	}
	redirect := &Response{URL: "http://h/r.pdf", Status: 302, Redirect: true, Header: http.Header{"Content-Type": {"application/pdf"}}}
	if got := servePDF(redirect, params); got != params {
		t.Errorf("servePDF(a redirect) = %v", got)
	}
	if got := servePDF(pdf, nil); got != nil {
		t.Errorf("servePDF(a failed request) = %v, want nil", got)
	}
}

// pdfText is pdftotext's text of pdf, after qpdf --check found it clean
// (each skipped when not installed).
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "f.pdf")
	if err := os.WriteFile(f, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	if qpdf, err := exec.LookPath("qpdf"); err == nil {
		if b, err := exec.Command(qpdf, "--check", f).CombinedOutput(); err != nil {
			t.Errorf("qpdf --check: %v\n%s", err, b)
		}
	}
	tool, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("pdftotext is not installed")
	}
	b, err := exec.Command(tool, f, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(b)
}
