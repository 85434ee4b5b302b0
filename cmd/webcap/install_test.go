package main

import (
	"testing"

	"golang.org/x/mod/zip"
)

// "go install github.com/webcap/webcap/cmd/webcap@version" downloads the
// module as a zip, which cannot hold every file a checkout can: a file
// named for a Windows device (aux.go), paths that differ only in case, a
// file over the size limits. The module's files as they are here would all
// go in.
func TestModuleZip(t *testing.T) {
	files, err := zip.CheckDir("../..")
	if err != nil {
		t.Fatal(err)
	}
	if err := files.Err(); err != nil {
		t.Errorf("the module cannot be downloaded with go install ...@version: %v", err)
	}
	if len(files.Valid) == 0 {
		t.Error("no file of the module checked")
	}
	for _, f := range files.Omitted {
		t.Logf("left out of the module zip: %s: %v", f.Path, f.Err)
	}
}
