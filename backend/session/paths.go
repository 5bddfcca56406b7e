package session

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// logExt is the file extension of session logs.
const logExt = ".jsonl"

// maxSlugPath bounds the readable part of a workspace directory name.
const maxSlugPath = 48

// ErrNotFound is matched (errors.Is) by Find and Latest when there is no
// such session.
var ErrNotFound = errors.New("session not found")

// sessionsRoot is the directory holding one directory per workspace.
func sessionsRoot(home string) string { return filepath.Join(home, "sessions") }

// Dir is the directory of the sessions started in workspace cwd:
// <home>/sessions/<slug>, where the slug is the path made readable (the
// tail of it, letters, digits, '.', '_' and '-') plus a short hash of the
// exact path, so distinct workspaces never share a directory.
func Dir(home, cwd string) string {
	return filepath.Join(sessionsRoot(home), slug(cwd))
}

func slug(cwd string) string {
	var b strings.Builder
	dash := true
	for _, r := range cwd {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-'
		switch {
		case ok:
			b.WriteRune(r)
			dash = false
		case !dash:
			b.WriteByte('-')
			dash = true
		}
	}
	readable := strings.Trim(b.String(), "-.")
	if len(readable) > maxSlugPath {
		readable = strings.TrimLeft(readable[len(readable)-maxSlugPath:], "-.")
	}
	sum := sha256.Sum256([]byte(cwd))
	hash := hex.EncodeToString(sum[:4])
	if readable == "" {
		return hash
	}
	return readable + "-" + hash
}

// NewID returns a session id that sorts by creation time, e.g.
// "20261130-071502-3f9a2c": UTC date and time, then random hex.
func NewID(now time.Time, rand io.Reader) string {
	var b [3]byte
	// A short read leaves zeros; the time part still orders the ids.
	_, _ = io.ReadFull(rand, b[:])
	return now.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// PathFor is the log file of session id in workspace cwd.
func PathFor(home, cwd, id string) string {
	return filepath.Join(Dir(home, cwd), id+logExt)
}

// Find locates session id in any workspace under home.
func Find(home, id string) (string, error) {
	if id == "" || strings.ContainsAny(id, `/\*?[`) || id == "." || id == ".." {
		return "", fmt.Errorf("%q is not a session id; run `tack --resume` with no id to pick one", id)
	}
	matches, err := filepath.Glob(filepath.Join(sessionsRoot(home), "*", id+logExt))
	if err != nil {
		return "", fmt.Errorf("find session %s: %w", id, err)
	}
	if len(matches) == 0 {
		return "", notFoundError(fmt.Sprintf("no session %s under %s; run `tack --resume` with no id to pick one",
			id, sessionsRoot(home)))
	}
	return matches[0], nil
}

// Latest is the log of the most recently active session of workspace cwd,
// for continuing it.
func Latest(home, cwd string) (string, error) {
	sessions, err := listSessions(home, cwd, false, false)
	if err != nil {
		return "", err
	}
	for _, s := range sessions {
		if s.Err == nil {
			return s.Path, nil
		}
	}
	return "", notFoundError(fmt.Sprintf("no session to continue in %s (looked in %s); start one without -c",
		cwd, Dir(home, cwd)))
}

// notFoundError is a user-facing message that matches ErrNotFound.
type notFoundError string

func (e notFoundError) Error() string { return string(e) }

// Is makes errors.Is(err, ErrNotFound) true.
func (e notFoundError) Is(target error) bool { return target == ErrNotFound }

// isNotExist reports a missing directory, which listing treats as empty.
func isNotExist(err error) bool { return errors.Is(err, os.ErrNotExist) }
