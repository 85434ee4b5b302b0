//go:build unix

package pdfio

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// fileOwner is an existing file's owner and group, which the file that
// replaces it keeps.
type fileOwner struct {
	uid, gid int
	known    bool
}

func ownerOf(fi fs.FileInfo) fileOwner {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileOwner{}
	}
	return fileOwner{uid: int(st.Uid), gid: int(st.Gid), known: true}
}

// canKeep refuses, before anything is written, a file of another user
// when this process cannot give the new file that owner (only root can).
func (o fileOwner) canKeep() error {
	if euid := os.Geteuid(); o.known && euid != 0 && o.uid != euid {
		return fmt.Errorf("owned by user %d: its replacement could not keep its owner", o.uid)
	}
	return nil
}

// keep gives the file at name the owner and group (a group this process
// is not in cannot be kept, and fails).
func (o fileOwner) keep(name string) error {
	if !o.known {
		return nil
	}
	fi, err := os.Stat(name)
	if err != nil {
		return err
	}
	if now := ownerOf(fi); now.uid == o.uid && now.gid == o.gid {
		return nil
	}
	if err := os.Chown(name, o.uid, o.gid); err != nil {
		return fmt.Errorf("keeping the owner %d:%d: %w", o.uid, o.gid, err)
	}
	return nil
}
