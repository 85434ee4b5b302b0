package hostile

import (
	"fmt"
	"net/http"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// linkedPDFs is a site whose index links to a 2-page report and to
// hostile "PDF" files, each served as application/pdf: a page whose
// dictionary is in an object stream that inflates to 500 MiB (a flate
// bomb of half a megabyte), and a page under a page tree 100,000 nodes
// deep.
func linkedPDFs() http.Handler {
	files := map[string][]byte{
		"/report.pdf": pdfbuild.Report(2, "Annual report"),
		"/bomb.pdf":   pdfbuild.PageBomb(500 << 20),
		"/deep.pdf":   pdfbuild.DeepPages(100_000),
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!DOCTYPE html><html><head><title>Reports</title></head><body>`+
				`<a href="report.pdf">report</a> <a href="bomb.pdf">bomb</a> <a href="deep.pdf">deep</a></body></html>`)
			return
		}
		body, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/pdf")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	})
}

// pdfTextHas is a Check that pages first to last of the PDF name hold text.
func pdfTextHas(name string, first, last int, text string) func(dir string) error {
	return func(dir string) error {
		b, err := exec.Command("pdftotext", "-f", strconv.Itoa(first), "-l", strconv.Itoa(last), filepath.Join(dir, name), "-").Output()
		if err != nil {
			return fmt.Errorf("pdftotext %s: %v", name, err)
		}
		if !strings.Contains(string(b), text) {
			return fmt.Errorf("%s pages %d-%d: text %q, want %q in it", name, first, last, b, text)
		}
		return nil
	}
}

func init() {
	Register(Case{
		Name:    "capture-linked-pdf-bomb-deep",
		Part:    Bounds,
		Browser: true,
		Needs:   []string{"qpdf", "pdftotext"},
		// The index (1 page) and the report's own 2 pages are captured;
		// the two hostile files are skips of kind pdf, within pdfio's
		// bounds (a stream inflating past 64 MiB is not read, a page
		// tree deeper than 256 levels not walked).
		Setup: serveMade(linkedPDFs, "capture", "--levels", "2", "--json", "-o", "out.pdf", "{url}/"),
		Exit:  0,
		Stdout: []string{`"kind": ?"pdf"[^}]*more than 67108864 bytes|more than 67108864 bytes[^}]*"kind": ?"pdf"`,
			`"kind": ?"pdf"[^}]*deeper than 256 levels|deeper than 256 levels[^}]*"kind": ?"pdf"`},
		Check: func(dir string) error {
			if err := pagesIn("out.pdf", 3, 3)(dir); err != nil {
				return err
			}
			return pdfTextHas("out.pdf", 2, 3, "Annual report, page 2 of 2")(dir)
		},
		MaxRSS:  1 << 30,
		MaxTree: 3 << 30,
		MaxCPU:  60 * time.Second,
		Before: "exit 0, 2.74 s CPU, 292 MB (tree 449 MB): report.pdf, bomb.pdf and deep.pdf each captured as one page of " +
			"Chromium's PDF viewer, without text (pdftotext of pages 2-4 empty), no skip; the report's 2 pages lost",
	})
}
