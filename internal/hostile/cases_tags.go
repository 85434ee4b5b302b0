package hostile

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"

	pb "github.com/webcap/webcap/internal/pdfbuild"
)

// Tags and bookmarks of a file appended to (issue 20): a file whose
// /ParentTree loops and whose outline's /Next chain loops cannot be
// extended. append must still add the pages, write no tags rather than
// keys colliding with the file's, add no bookmarks, say both, and never
// change the input.

// qpdfClean is a Check that qpdf finds no damage in a file.
func qpdfClean(name string) func(dir string) error {
	return func(dir string) error {
		out, err := exec.Command("qpdf", "--check", filepath.Join(dir, name)).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "No syntax or stream encoding errors") {
			return fmt.Errorf("qpdf --check %s: %v\n%s", name, err, out)
		}
		return nil
	}
}

func init() {
	in := pb.Untaggable()
	Register(Case{
		Name:    "append-untaggable",
		Part:    Inputs,
		Browser: true,
		Setup: func(dir string) ([]string, func(), error) {
			if err := Write(dir, "in.pdf", in); err != nil {
				return nil, nil, err
			}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprint(w, "<!doctype html><title>New</title><h1>New page</h1>")
			}))
			return []string{"append", "in.pdf", srv.URL + "/", "-o", "out.pdf"}, srv.Close, nil
		},
		Exit: 1, // the file's own loops stay errors (WC-CYCLE, WC-PARENTTREE-KEY)
		Stdout: []string{`^note .*the file's structure tree cannot be extended \(its /ParentTree: the number tree reaches object \d+ twice\): the new pages are not tagged$`,
			`^note +no bookmarks added: .*the outline reaches object \d+ twice`},
		Check:  All(Unchanged("in.pdf", in), qpdfClean("out.pdf")),
		Before: "exit 1 (the file's own errors), the page appended with Chromium's /StructParents 0, the key the file's page has, its structure left out of the tree, and nothing said",
	})
}
