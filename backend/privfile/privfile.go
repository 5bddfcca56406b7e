// Package privfile writes the files tack keeps for the user alone (keys,
// approvals, sign-in tokens): readable by their owner only, in a folder
// only the owner may enter, and replaced whole, so that a crash or a
// second tack writing at once leaves the old file or a new one, never a
// torn mix.
package privfile

import (
	"crypto/rand"
	"os"
	"path/filepath"
)

// Write replaces the file at path with content, mode 0600, creating its
// folder (0700) when missing. The content goes to a temporary file of
// its own in the same folder, is flushed to disk and renamed over path.
func Write(path string, content []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp := filepath.Join(dir, "."+filepath.Base(path)+"-"+rand.Text()[:8]+".tmp")
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(content)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
