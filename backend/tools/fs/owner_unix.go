//go:build unix

package fs

import (
	"io/fs"
	"os"
	"syscall"
)

// keepOwner gives f the owner and group of old, when this process may
// (root editing a user's file); otherwise the file is the writer's, as
// with any editor that saves by rename.
func keepOwner(f *os.File, old fs.FileInfo) {
	if st, ok := old.Sys().(*syscall.Stat_t); ok {
		_ = f.Chown(int(st.Uid), int(st.Gid))
	}
}
