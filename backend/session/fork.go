package session

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Fork copies the session whose log is at path to a new session id, as
// claude's --resume ID --fork-session does: the copy has the same events
// and images under a header of its own, in the same workspace, and the
// original stays as it was; the copy's header names it. It returns the
// copy's path, for Open. The checkpoint store gives the copy the
// original's checkpoints (checkpoint.Store.Fork).
func Fork(path, id string, now time.Time) (string, error) {
	h, _, err := Read(path)
	if err != nil {
		return "", err
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("fork session %s: %w", h.ID, err)
	}
	_, events, _ := bytes.Cut(src, []byte("\n"))
	from := h.ID
	h.ID, h.Created, h.ForkedFrom = id, time.UnixMilli(now.UnixMilli()), from
	line, err := encodeHeader(h)
	if err != nil {
		return "", err
	}
	dst := filepath.Join(filepath.Dir(path), id+logExt)
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", fmt.Errorf("fork session %s: %w", from, err)
	}
	_, err = f.Write(append(line, events...))
	if err = errors.Join(err, f.Sync(), f.Close()); err != nil {
		os.Remove(dst)
		return "", fmt.Errorf("fork session %s: %w", from, err)
	}
	if images := ImageDir(path); !isNotExist(statErr(images)) {
		if err := os.CopyFS(ImageDir(dst), os.DirFS(images)); err != nil {
			os.RemoveAll(ImageDir(dst))
			os.Remove(dst)
			return "", fmt.Errorf("fork session %s: copy its images: %w", from, err)
		}
	}
	return dst, nil
}

func statErr(path string) error {
	_, err := os.Stat(path)
	return err
}

// Remove deletes the closed log at path and what lives beside it: its
// lock, its index and the directory named after it (its images, its
// Claude Code transcript).
func Remove(path string) {
	os.Remove(path)
	os.Remove(lockPath(path))
	os.Remove(indexPath(path))
	os.RemoveAll(trimLogExt(path))
}
