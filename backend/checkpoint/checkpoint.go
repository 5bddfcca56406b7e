// Package checkpoint keeps the states of a workspace that a session can
// return to. Its store lives outside the workspace, in
// $TACK_HOME/checkpoints/<workspace>/: a shadow git repository that uses the
// workspace as its work tree with its own GIT_DIR, index and configuration,
// so every file the workspace's ignore rules keep (changes made through bash
// included) is covered and the user's own .git is never written. Where git
// is not installed, the store falls back to keeping the content each file
// had before tack's own tools changed it; changes made by shell commands are
// then not covered.
//
// A restore writes only inside the workspace (through os.Root, never into
// a .git directory) and journals what it does first, so a restore cut short
// by a crash is completed or rolled back when the workspace is next opened.
package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tack-agent/tack/backend/session"
)

// Kind is how a store keeps checkpoints.
type Kind string

const (
	// KindGit is the shadow git repository: whole snapshots.
	KindGit Kind = "git"
	// KindFiles keeps the before-images of the files tack's tools change.
	KindFiles Kind = "files"
)

// Defaults of Options.
const (
	DefaultMaxFileBytes = 10 << 20
	DefaultMaxFiles     = 250_000
	// maxSkippedListed bounds the skipped files one snapshot lists.
	maxSkippedListed = 50
)

// Options configures a Store.
type Options struct {
	// Home is $TACK_HOME; the store is under Home/checkpoints.
	Home string
	// Workspace is the absolute path of the directory checkpoints cover.
	Workspace string
	// Session is the id of the session taking checkpoints.
	Session string
	// Last is the ID of the session's latest checkpoint, from its log, so
	// the next snapshot lists what changed since.
	Last string
	// Git is the git binary: a path, or a name looked up in PATH; "" is
	// "git". When it cannot be found the store keeps files instead.
	Git string
	// Getenv reads PATH (to find git) and the temporary directory
	// variables git may need; os.Getenv when nil. Nothing else of the
	// environment reaches git.
	Getenv func(string) string
	// MaxFileBytes is the size above which a file is left out of
	// checkpoints, and listed (DefaultMaxFileBytes when zero).
	MaxFileBytes int64
	// MaxFiles is the most files a workspace may have for checkpoints to
	// be taken (DefaultMaxFiles when zero).
	MaxFiles int
	Now      func() time.Time
}

// Snapshot is one checkpoint just taken.
type Snapshot struct {
	ID   string
	Kind Kind
	// Changed are the workspace paths (slash-separated, relative) that
	// changed since the session's previous snapshot, sorted.
	Changed []string
	// Skipped are files the snapshot does not hold.
	Skipped []session.SkippedFile
	// Notice is for the user: something about the store they should know
	// (a damaged store was replaced).
	Notice string
}

// Store keeps the checkpoints of one session's workspace. Its methods are
// safe for concurrent use; different processes share a store through a
// file lock.
type Store struct {
	opts  Options
	dir   string
	kind  Kind
	git   *repo   // set for KindGit
	files *images // set for KindFiles
}

// ErrUnavailable wraps why checkpoints cannot be taken at all.
var ErrUnavailable = errors.New("checkpoints are unavailable")

// Open makes the store of o.Workspace. Nothing is written until the first
// Take. It fails when the workspace is not a directory.
func Open(o Options) (*Store, error) {
	if o.MaxFileBytes <= 0 {
		o.MaxFileBytes = DefaultMaxFileBytes
	}
	if o.MaxFiles <= 0 {
		o.MaxFiles = DefaultMaxFiles
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	ws, err := filepath.Abs(o.Workspace)
	if err != nil {
		return nil, fmt.Errorf("%w: workspace %s: %v", ErrUnavailable, o.Workspace, err)
	}
	o.Workspace = ws
	if fi, err := os.Stat(ws); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%w: the workspace %s is not a directory tack can read", ErrUnavailable, ws)
	}
	s := &Store{opts: o, dir: Dir(o.Home, ws)}
	if bin, ok := findGit(o.Git, o.Getenv); ok {
		s.kind = KindGit
		s.git = newRepo(bin, filepath.Join(s.dir, "git"), ws, o)
	} else {
		s.kind = KindFiles
		s.files = newImages(filepath.Join(s.dir, "files"), ws, o)
	}
	return s, nil
}

// Dir is the store of workspace under home.
func Dir(home, workspace string) string {
	return filepath.Join(home, "checkpoints", filepath.Base(session.Dir(home, workspace)))
}

// Kind is how this store keeps checkpoints.
func (s *Store) Kind() Kind { return s.kind }

// Workspace is the directory the store covers.
func (s *Store) Workspace() string { return s.opts.Workspace }

// Path is the store's directory.
func (s *Store) Path() string { return s.dir }

// Take records the workspace as it is now.
func (s *Store) Take(ctx context.Context) (Snapshot, error) {
	if s.kind == KindFiles {
		return s.files.take()
	}
	snap, notice, err := s.git.take(ctx)
	snap.Notice = notice
	return snap, err
}

// Prime readies the store for the next Take without taking a checkpoint:
// the first checkpoint of a workspace writes every file into the store,
// which at 100,000 files takes tens of seconds, so a session primes it
// while the user types. The files store has nothing to ready.
func (s *Store) Prime(ctx context.Context) error {
	if s.kind == KindFiles {
		return nil
	}
	return s.git.prime(ctx)
}

// Fork gives the store's session the checkpoints of session from, whose
// log its own was copied from (--fork-session): its rewinds restore the
// files of turns taken before the fork, and its checkpoints stay when the
// original's are pruned.
func (s *Store) Fork(ctx context.Context, from string) error {
	if s.kind == KindFiles {
		return s.files.fork(from)
	}
	return s.git.fork(ctx, from)
}

// Preserve keeps the content of files tack's own tools are about to
// change (absolute paths, or relative to the workspace). Only the files
// store needs it; the git store sees every change at its next snapshot.
func (s *Store) Preserve(paths []string) error {
	if s.kind != KindFiles {
		return nil
	}
	return s.files.preserve(paths)
}

// Plan says what restoring checkpoint target would do to the workspace,
// which checkpoint before has just recorded.
func (s *Store) Plan(ctx context.Context, target, before string) (Plan, error) {
	if s.kind == KindFiles {
		return s.files.plan(target, before)
	}
	if strings.HasPrefix(target, filesPrefix) {
		return Plan{}, fmt.Errorf("%w: checkpoint %s was taken without git; tack cannot restore it from the git store, "+
			"rewind the conversation only", ErrMissing, target)
	}
	return s.git.plan(ctx, target, before)
}

// blobs opens the reader of the contents a plan of kind refers to.
func (s *Store) blobs(kind Kind) (blobSource, error) {
	switch {
	case kind == KindFiles && s.files != nil:
		return objects{s.files}, nil
	case kind == KindGit && s.git != nil:
		return s.git.blobs(context.Background())
	}
	return nil, fmt.Errorf("%w: a restore of the %s store cannot run where the store is %s", ErrMissing, kind, s.kind)
}
