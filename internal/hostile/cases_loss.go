package hostile

import (
	"fmt"
	"path/filepath"

	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/pdfio"
)

// loss is a Setup writing pdfbuild's named loss sample to file and running
// webcap with args.
func loss(sampleName, file string, args ...string) func(dir string) ([]string, func(), error) {
	return Built(pdfbuild.LossSample, sampleName, file, args...)
}

// urlsKeys is a Check that the PDF name inside dir has a URLS tree of
// want keys, as webcap's reader reads it, with no node it cannot read.
func urlsKeys(name string, want int) func(dir string) error {
	return func(dir string) error {
		doc, err := pdfio.Open(filepath.Join(dir, name), pdfio.Options{})
		if err != nil {
			return err
		}
		switch {
		case doc.URLS == nil:
			return fmt.Errorf("%s has no URLS tree", name)
		case len(doc.URLS.Entries) != want || len(doc.URLS.Unreadable) != 0:
			return fmt.Errorf("%s: URLS has %d keys and %d nodes that cannot be read, want %d keys", name, len(doc.URLS.Entries), len(doc.URLS.Unreadable), want)
		}
		return nil
	}
}

func init() {
	misplaced, _ := pdfbuild.LossSample("misplaced")
	unreadable, _ := pdfbuild.LossSample("unreadable")
	Register(
		Case{
			Name:      "misplaced-leaf-fix",
			Part:      Loss,
			Setup:     loss("misplaced", "in.pdf", "fix", "in.pdf", "-o", "out.pdf"),
			Exit:      1,
			Stdout:    []string{`the URLS tree is rebuilt: 8 keys`},
			NotStdout: []string{`^loss:`},
			Check:     All(Unchanged("in.pdf", misplaced), urlsKeys("out.pdf", 8)),
			Before:    "exit 0, wrote /URLS <</Names []>>: all 8 keys lost, \"audits with no error\"",
		},
		Case{
			Name:   "unreadable-leaf-fix",
			Part:   Loss,
			Setup:  loss("unreadable", "in.pdf", "fix", "in.pdf", "-o", "out.pdf"),
			Exit:   1,
			Stdout: []string{`^in\.pdf: nothing written: a tree would lose what cannot be read$`},
			Stderr: []string{`^webcap: fix: in\.pdf: the URLS tree holds what cannot be read \(object 20 0 R\): .*--allow-loss`},
			Check:  All(Unchanged("in.pdf", unreadable), Absent("out.pdf")),
			Before: "exit 0, dropped the leaf and its keys, said the object \"does not exist\"",
		},
		Case{
			Name:   "unreadable-leaf-fix-allow-loss",
			Part:   Loss,
			Setup:  loss("unreadable", "in.pdf", "fix", "--allow-loss", "in.pdf", "-o", "out.pdf"),
			Exit:   1,
			Stdout: []string{`^loss: WC-DANGLING: the URLS tree holds what cannot be read \(object 20 0 R\): rebuilt, it keeps 4 of the 4 keys read`},
			Check:  All(Unchanged("in.pdf", unreadable), urlsKeys("out.pdf", 4)),
			Before: "(no flag: the loss was silent)",
		},
	)
}
