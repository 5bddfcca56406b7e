//go:build !unix

package fs

import (
	"io/fs"
	"os"
)

// keepOwner has nothing to keep where files have no unix owner.
func keepOwner(*os.File, fs.FileInfo) {}
