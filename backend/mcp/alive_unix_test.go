//go:build unix

package mcp

import "syscall"

// processAlive reports whether pid is a process the system still has, a
// zombie not yet reaped among them.
func processAlive(pid int) bool { return syscall.Kill(pid, 0) == nil }
