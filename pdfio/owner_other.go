//go:build !unix

package pdfio

import "io/fs"

// fileOwner is an existing file's owner, which the file that replaces it
// keeps: where files have no Unix owner, nothing is kept.
type fileOwner struct{}

func ownerOf(fs.FileInfo) fileOwner { return fileOwner{} }
func (fileOwner) canKeep() error    { return nil }
func (fileOwner) keep(string) error { return nil }
