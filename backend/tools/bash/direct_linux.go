package bash

import "syscall"

// directAttr starts an unconfined shell as the leader of its own process
// group (the terminal's Ctrl+C is tack's, not the command's), killed when
// tack dies. The parent-death signal survives exec, so a command the shell
// execs in its place (bash -c "sleep 30") dies with tack too; processes the
// shell forks do not, which is why this is only the fallback: commands run
// in the sandbox, whose PID namespace takes all of them down, or unconfined
// under the sandbox's supervisor, which kills what they leave behind.
func directAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
