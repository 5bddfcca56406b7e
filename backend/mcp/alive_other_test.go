//go:build !unix

package mcp

import "os"

// processAlive reports whether pid is a process the system still has.
func processAlive(pid int) bool {
	_, err := os.FindProcess(pid)
	return err == nil
}
