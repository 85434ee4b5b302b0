package audit

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/webcap/webcap/internal/sharedtest"
	"github.com/webcap/webcap/pdfio"
)

// The real Acrobat files raise no error; the two damaged ones raise the
// errors their damage is (realworld/README.md).
func TestRealWorldNoFalseErrors(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(sharedtest.Dir(t, "realworld"), "*.pdf"))
	if len(files) == 0 {
		t.Fatal("no files")
	}
	damaged := map[string][]string{
		"OpenPDF__indirect_object_in_rectangle.pdf": {"WC-TYPE", "WC-TREE-NODE"}, // /AU is a number; URLS /Names has an odd length
		// Fuzzed: startxref is garbage (the table is rebuilt, 27 objects
		// recovered from object streams), object 94's dictionary is broken,
		// and page 36 is in no object stream left.
		"pikepdf__378014596.pdf": {"WC-PDF-XREF", "WC-PDF-UNREADABLE", "WC-DANGLING"},
		// Signed (revision 3), then a text field filled (TestField2, 46 0 R,
		// and its appearance 76 0 R) beside the /DSS in the last update:
		// a change no seal covers, which is what WC-SEAL-AFTER names.
		"dss__test-with-vri.pdf": {"WC-SEAL-AFTER"},
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			opts := pdfio.Options{}
			if name == "pdfium__encrypted.pdf" {
				opts.Password = "1234"
			}
			d, err := pdfio.Open(f, opts)
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			errs := map[string]bool{}
			for _, fd := range Check(d, Options{File: bytes.NewReader(b), FileSize: int64(len(b))}) { // the seals verified too
				if fd.Severity == Serious {
					errs[fd.Rule] = true
				}
			}
			want := damaged[name]
			for _, r := range want {
				if !errs[r] {
					t.Errorf("no %s error", r)
				}
				delete(errs, r)
			}
			for r := range errs {
				t.Errorf("false error %s", r)
			}
		})
	}
}
