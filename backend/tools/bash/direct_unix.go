//go:build unix && !linux

package bash

import "syscall"

// directAttr starts an unconfined shell as the leader of its own process
// group, so the terminal's Ctrl+C is tack's, not the command's.
func directAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
