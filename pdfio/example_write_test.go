package pdfio_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/webcap/webcap/pdfio"
)

// Replace a file through a symbolic link: the file the link names gets the
// new bytes, and the link stays a link.
func ExampleWriteFile() {
	dir, err := os.MkdirTemp("", "webcap-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	file, link := filepath.Join(dir, "capture.pdf"), filepath.Join(dir, "latest.pdf")
	os.WriteFile(file, []byte("%PDF-1.7 old"), 0o600)
	os.Symlink("capture.pdf", link)

	if err := pdfio.WriteFile(link, []byte("%PDF-1.7 new"), pdfio.WriteOptions{Replace: true}); err != nil {
		fmt.Println(err)
		return
	}
	b, _ := os.ReadFile(file)
	fi, _ := os.Lstat(link)
	st, _ := os.Stat(file)
	fmt.Printf("%s; link kept: %t; mode %v\n", b, fi.Mode()&os.ModeSymlink != 0, st.Mode().Perm())
	// Output: %PDF-1.7 new; link kept: true; mode -rw-------
}
