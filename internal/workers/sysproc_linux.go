package workers

import (
	"os/exec"
	"syscall"
)

// detach puts a worker in a process group of its own: a Ctrl-C on the
// terminal goes to the parent alone, which stops its workers itself (a
// worker killed by the terminal's signal would look like a crash on its
// file). A worker dies with its parent, even one stuck in a task (a worker
// that is not reads the end of its stdin and exits).
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
