//go:build !unix

package mcp

import "os/exec"

// ownGroup does nothing where process groups are not POSIX ones.
func ownGroup(*exec.Cmd) {}

// signalGroup ends the server process itself.
func signalGroup(cmd *exec.Cmd, _ bool) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
