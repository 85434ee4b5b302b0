//go:build !unix

package workers

import "os/exec"

func detach(*exec.Cmd) {}
