package fs

import (
	"crypto/rand"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// writeAtomic replaces the file at path with content so that a crash or a
// kill at any moment leaves either the old file or the new one, never a
// torn mix: the content goes to a temporary file in the same directory,
// is flushed to disk, and is renamed over the old one. A symlink is not
// replaced but followed, as a plain write would: the file it points to
// changes (the permission gate decided on that file, symlinks resolved).
// The new file keeps the old one's mode and, where this process may,
// its owner; a new file gets 0644 less the umask.
func writeAtomic(path string, content []byte) error {
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	old, err := os.Stat(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	dir := filepath.Dir(path)
	tmp := filepath.Join(dir, "."+filepath.Base(path)+".tack-"+rand.Text()[:8]+".tmp")
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	committed := false
	defer func() {
		if !committed {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if old != nil {
		keepOwner(f, old) // first: a change of owner clears set-id bits
		if err := f.Chmod(old.Mode().Perm() | old.Mode()&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky)); err != nil {
			return err
		}
	}
	if _, err := f.Write(content); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	committed = true
	syncDir(dir)
	return nil
}

// syncDir flushes dir's entries, so that the rename survives a crash of
// the machine too. A directory that cannot be synced (some file systems,
// Windows) loses nothing but that guarantee.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
