// Package trust remembers which of a project's extension files the user
// approved: a repository's .mcp.json starts programs and its
// .tack/settings.toml runs hooks, so they run only once the user said yes.
// An approval is of the file's content: a changed file asks again.
package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/tack-agent/tack/backend/privfile"
)

// Store is the approvals file under $TACK_HOME. Its methods are safe for
// concurrent use within a process; across processes the last write wins.
type Store struct {
	path string
	mu   sync.Mutex
}

// Open returns the store of home. Nothing is read until it is used.
func Open(home string) *Store {
	return &Store{path: filepath.Join(home, "trusted-projects.json")}
}

// approvals maps a project directory to its approved files and their
// digests.
type approvals map[string]map[string]string

// Digest is the digest an approval of content is kept as.
func Digest(content []byte) string {
	sum := sha256.Sum256(content)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Trusted reports whether the user approved file of project with this
// digest.
func (s *Store) Trusted(project, file, digest string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, err := s.read()
	return err == nil && a[project][file] == digest
}

// Trust records the user's approval of file of project at digest.
func (s *Store) Trust(project, file, digest string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, err := s.read()
	if err != nil {
		return err
	}
	if a[project] == nil {
		a[project] = map[string]string{}
	}
	a[project][file] = digest
	b, _ := json.MarshalIndent(a, "", "  ")
	if err := privfile.Write(s.path, append(b, '\n')); err != nil {
		return fmt.Errorf("remember approval: %w", err)
	}
	return nil
}

// read loads the approvals; a missing file is none, a damaged one is an
// error (so it is not overwritten with less than it held).
func (s *Store) read() (approvals, error) {
	b, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return approvals{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read approvals %s: %w", s.path, err)
	}
	a := approvals{}
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, fmt.Errorf("approvals file %s is damaged (%v); remove it to approve projects again", s.path, err)
	}
	return a, nil
}
