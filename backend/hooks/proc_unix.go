//go:build unix

package hooks

import (
	"os/exec"
	"syscall"
)

// ownGroup runs the hook in a process group of its own, so a timeout ends
// what it started too.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
