//go:build unix && !linux

package workers

import (
	"os/exec"
	"syscall"
)

// detach puts a worker in a process group of its own: a Ctrl-C on the
// terminal goes to the parent alone, which stops its workers itself (a
// worker killed by the terminal's signal would look like a crash on its
// file).
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
