package hostile

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// The HTML report's thumbnails (audit --html): the renderer, poppler's
// pdftoppm, reads the untrusted file in a child process of its own under
// a wall time-out, a CPU limit, an address-space limit and an output cap
// (htmlreport.Renderer), so that a page that takes forever to draw costs
// 20 seconds, and the report says why it has no thumbnail.

func init() {
	Register(Case{
		Name: "html-thumbnail-render-bomb",
		Part: Bounds,
		Setup: func(dir string) ([]string, func(), error) {
			if _, err := exec.LookPath("pdftoppm"); err != nil {
				return nil, nil, errors.New("pdftoppm (Debian's poppler-utils) is not on PATH: this case needs it")
			}
			// A 131,072 x 131,072 gray image (16 GiB once inflated) drawn
			// on the page set's page.
			if err := Write(dir, "bomb.pdf", pdfbuild.RenderBomb(1<<17)); err != nil {
				return nil, nil, err
			}
			return []string{"audit", "--in-process", "--html", "r.html", "bomb.pdf"}, nil, nil
		},
		Exit:   0,
		Stderr: []string{`--html: wrote r\.html: .*0 thumbnails`, `1 thumbnail could not be drawn`},
		Check: func(dir string) error {
			b, err := os.ReadFile(filepath.Join(dir, "r.html"))
			if err != nil {
				return err
			}
			if !bytes.Contains(b, []byte("not drawn: pdftoppm")) {
				return errors.New("the report does not say why the page has no thumbnail")
			}
			return nil
		},
		MaxCPU: 30 * time.Second, MaxRSS: 256 << 20,
		Slow:   true,
		Before: "pdftoppm unbounded drew a 65,536-pixel square in 23 s (10 MB), and its time grows with the area: four times that here",
	})
}
