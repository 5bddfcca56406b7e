package fs

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"sync"
	"time"
)

// Version identifies one state of a file's content.
type Version struct {
	Size    int64
	ModTime time.Time
	Sum     [sha256.Size]byte
}

// Tracker remembers, for one session, the version of every file the tools
// read or wrote, so that write and edit refuse to overwrite a file the
// model has not seen or that changed on disk since it saw it. It is safe
// for concurrent use.
type Tracker struct {
	mu   sync.Mutex
	seen map[string]Version
}

// NewTracker makes an empty tracker: nothing has been read yet.
func NewTracker() *Tracker { return &Tracker{seen: map[string]Version{}} }

// Observe records v as the version of path the session knows.
func (t *Tracker) Observe(path string, v Version) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.seen[path] = v
}

// Errors returned by Check; their texts are what the model reads.
var (
	errNotRead = errors.New("has not been read in this session — read the file, then retry")
	errStale   = errors.New("changed on disk since it was read — re-read the file, then retry")
)

// Check reports whether the session may overwrite path, whose content on
// disk is now current: it must have been observed, with the same content.
// A touched file whose bytes are unchanged passes.
func (t *Tracker) Check(path string, current Version) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	known, ok := t.seen[path]
	switch {
	case !ok:
		return fmt.Errorf("%s %w", path, errNotRead)
	case known.Size != current.Size || known.Sum != current.Sum:
		return fmt.Errorf("%s %w", path, errStale)
	}
	return nil
}

// versionOf makes the Version of content held in memory.
func versionOf(content []byte, info os.FileInfo) Version {
	return Version{Size: int64(len(content)), ModTime: info.ModTime(), Sum: sha256.Sum256(content)}
}

// hashingReader counts and hashes what is read through it.
type hashingReader struct {
	r    io.Reader
	h    hash.Hash
	size int64
}

func newHashingReader(r io.Reader) *hashingReader {
	return &hashingReader{r: r, h: sha256.New()}
}

func (h *hashingReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	h.h.Write(p[:n])
	h.size += int64(n)
	return n, err
}

// version drains the rest of the reader and returns the Version of
// everything read.
func (h *hashingReader) version(info os.FileInfo) (Version, error) {
	if _, err := io.Copy(io.Discard, h); err != nil {
		return Version{}, err
	}
	v := Version{Size: h.size, ModTime: info.ModTime()}
	copy(v.Sum[:], h.h.Sum(nil))
	return v, nil
}
