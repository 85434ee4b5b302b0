package sharedtest

import (
	"path/filepath"
	"testing"
)

// RealWorldPasswords is the user password of each encrypted file of the
// realworld corpus, from its README.
var RealWorldPasswords = map[string]string{
	"pdfium__encrypted.pdf": "1234",
}

// RealWorldUnreadable names the files of the realworld corpus that no
// reader opens, with why: a test skips these alone, saying so, and must
// process every other file.
var RealWorldUnreadable = map[string]string{
	"pikepdf__378014596.pdf": "its startxref is not an offset and its cross-reference data cannot be rebuilt: qpdf cannot open it either",
}

// RealWorld returns the PDF files of the shared realworld corpus (skipping
// t when it is absent, failing it when it holds none) and how many of them
// are readable: every file but those of RealWorldUnreadable.
func RealWorld(t testing.TB) (files []string, readable int) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(Dir(t, "realworld"), "*.pdf"))
	if err != nil || len(files) == 0 {
		t.Fatalf("the realworld corpus holds no PDF file (%v)", err)
	}
	readable = len(files)
	for _, f := range files {
		if RealWorldUnreadable[filepath.Base(f)] != "" {
			readable--
		}
	}
	return files, readable
}

// Unreadable skips t when file is one of RealWorldUnreadable, with why.
func Unreadable(t testing.TB, file string) {
	t.Helper()
	if why := RealWorldUnreadable[filepath.Base(file)]; why != "" {
		t.Skipf("unreadable: %s", why)
	}
}
