//go:build unix

package sandbox

import (
	"path/filepath"

	"golang.org/x/sys/unix"
)

// writableOutside reports whether tack itself may write path (or create it
// in its directory): a write the sandbox refused that tack could do.
func writableOutside(path string) bool {
	if unix.Access(path, unix.W_OK) == nil {
		return true
	}
	return unix.Access(filepath.Dir(path), unix.W_OK|unix.X_OK) == nil && unix.Access(path, unix.F_OK) != nil
}
