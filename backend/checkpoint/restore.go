package checkpoint

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// State is one path's content in a checkpoint: a blob of the store and a
// git file mode, or absent.
type State struct {
	Blob string `json:"blob,omitempty"`
	Mode uint32 `json:"mode,omitempty"`
}

// Absent reports whether the path does not exist in this state.
func (s State) Absent() bool { return s.Blob == "" }

// Git file modes a checkpoint holds.
const (
	modeFile       = 0o100644
	modeExecutable = 0o100755
	modeSymlink    = 0o120000
	modeGitlink    = 0o160000
)

// Change is what a restore does to one workspace path (slash-separated,
// relative to the workspace).
type Change struct {
	Path string `json:"path"`
	From State  `json:"from"` // as it is now
	To   State  `json:"to"`   // as the checkpoint holds it
}

// Plan is what restoring a checkpoint would do to the workspace.
type Plan struct {
	Kind Kind `json:"kind"`
	// Target is the checkpoint restored to; Before the one just taken of
	// the workspace as it is.
	Target  string   `json:"target"`
	Before  string   `json:"before"`
	Changes []Change `json:"changes"`
	// Kept are paths the target holds that exist in the workspace but not
	// in Before (ignored or too large to keep): a restore leaves them be.
	Kept []string `json:"kept,omitempty"`
	// Outside are paths whose changes since the target were not made by
	// tack and which the restore would undo. Only the files store knows
	// them; for the git store the session log does.
	Outside []string `json:"outside,omitempty"`
}

// Paths are the paths the plan changes, sorted.
func (p Plan) Paths() []string {
	out := make([]string, len(p.Changes))
	for i, c := range p.Changes {
		out[i] = c.Path
	}
	slices.Sort(out)
	return out
}

// Restored is what a restore did.
type Restored struct {
	Written, Deleted []string
}

// blobSource reads the content of a store's blobs.
type blobSource interface {
	read(ctx context.Context, blob string) ([]byte, error)
	close()
}

// journal is the record of a restore in progress, written before the
// first file changes and removed once the session log holds the rewind.
type journal struct {
	Token   string `json:"token"`
	Session string `json:"session"`
	Plan    Plan   `json:"plan"`
}

func (s *Store) journalPath() string { return filepath.Join(s.dir, "restore.json") }

// NewToken makes the token that ties a restore's journal to the rewind
// event the session log records for it.
func NewToken() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Restore makes the workspace what plan's target holds, under a journal
// named token. On an error it puts back what it had changed and says so.
// The journal stays until Finish: if tack dies first, Recover completes or
// rolls back the restore, as the session log says.
func (s *Store) Restore(ctx context.Context, plan Plan, token string) (Restored, error) {
	unlock, err := lockStore(ctx, filepath.Join(s.dir, "lock"))
	if err != nil {
		return Restored{}, err
	}
	defer unlock()
	// The files store keeps what the restore overwrites as tack's own
	// change, so that the snapshot after it lists those paths and an undo
	// can put them back. Planning the restore recorded nothing.
	if plan.Kind == KindFiles && s.files != nil {
		if err := s.files.preserve(plan.Paths()); err != nil {
			return Restored{}, fmt.Errorf("restore: %w", err)
		}
	}
	j := journal{Token: token, Session: s.opts.Session, Plan: plan}
	if err := writeJournal(s.journalPath(), j); err != nil {
		return Restored{}, fmt.Errorf("restore: write its journal in %s: %w; make $TACK_HOME writable", s.dir, err)
	}
	done, err := s.apply(ctx, plan, true)
	if err == nil {
		return done, nil
	}
	if _, rerr := s.apply(context.WithoutCancel(ctx), plan, false); rerr != nil {
		return Restored{}, fmt.Errorf("restore failed (%w), and putting back what it had changed failed too (%v); "+
			"tack will try again when this workspace is next opened", err, rerr)
	}
	_ = os.Remove(s.journalPath())
	return Restored{}, fmt.Errorf("restore failed, and the workspace was left as it was: %w", err)
}

// Finish removes the journal of the restore token, once the session log
// records the rewind.
func (s *Store) Finish(token string) error {
	j, err := readJournal(s.journalPath())
	if err != nil || j.Token != token {
		return err
	}
	return os.Remove(s.journalPath())
}

// Recovery says what Recover did.
type Recovery struct {
	// Completed is set when the restore was finished, else it was rolled
	// back.
	Completed bool
	Session   string
	Paths     int
}

// Recover finishes the job of a restore that tack did not live to end:
// completed when committed reports that the session log of the journal's
// session holds its token, else rolled back. ok is false when there was
// nothing to recover.
func (s *Store) Recover(ctx context.Context, committed func(session, token string) bool) (Recovery, bool, error) {
	if _, err := os.Stat(s.journalPath()); err != nil {
		return Recovery{}, false, nil
	}
	unlock, err := lockStore(ctx, filepath.Join(s.dir, "lock"))
	if err != nil {
		return Recovery{}, false, err
	}
	defer unlock()
	j, err := readJournal(s.journalPath())
	if errors.Is(err, fs.ErrNotExist) {
		return Recovery{}, false, nil // its restore ended while we waited
	}
	if err != nil {
		return Recovery{}, false, fmt.Errorf("read the journal of an interrupted restore, %s: %w; "+
			"check the workspace, then remove the journal", s.journalPath(), err)
	}
	r := Recovery{Completed: committed(j.Session, j.Token), Session: j.Session, Paths: len(j.Plan.Changes)}
	if _, err := s.apply(ctx, j.Plan, r.Completed); err != nil {
		return r, true, fmt.Errorf("finish an interrupted restore of %d files: %w; tack tries again next time", r.Paths, err)
	}
	s.removeStrays(j.Plan)
	return r, true, os.Remove(s.journalPath())
}

// tempPrefix starts the names of the files a restore writes before it
// renames them into place.
const tempPrefix = ".tack-restore-"

// removeStrays deletes the temporary files a restore that died left in
// the directories of plan.
func (s *Store) removeStrays(plan Plan) {
	root, err := os.OpenRoot(s.opts.Workspace)
	if err != nil {
		return
	}
	defer root.Close()
	dirs := map[string]bool{}
	for _, c := range plan.Changes {
		dirs[filepath.Dir(filepath.FromSlash(c.Path))] = true
	}
	for dir := range dirs {
		f, err := root.Open(dir)
		if err != nil {
			continue
		}
		names, _ := f.Readdirnames(-1)
		f.Close()
		for _, n := range names {
			if strings.HasPrefix(n, tempPrefix) {
				_ = root.Remove(filepath.Join(dir, n))
			}
		}
	}
}

func writeJournal(p string, j journal) error {
	data, err := json.Marshal(j)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	tmp := p + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := errors.Join(f.Sync(), f.Close()); err != nil {
		return err
	}
	if err := os.Rename(tmp, p); err != nil {
		return err
	}
	return syncDir(filepath.Dir(p))
}

func readJournal(p string) (journal, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return journal{}, err
	}
	var j journal
	return j, json.Unmarshal(data, &j)
}

func syncDir(p string) error {
	d, err := os.Open(p)
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}

// apply makes every path of plan its To state (forward) or its From state
// (back). Each step is idempotent, so an apply cut short can be run again.
// It writes only inside the workspace and never into a .git directory.
func (s *Store) apply(ctx context.Context, plan Plan, forward bool) (Restored, error) {
	root, err := os.OpenRoot(s.opts.Workspace)
	if err != nil {
		return Restored{}, fmt.Errorf("open the workspace %s: %w", s.opts.Workspace, err)
	}
	defer root.Close()
	src, err := s.blobs(plan.Kind)
	if err != nil {
		return Restored{}, err
	}
	defer src.close()
	var done Restored
	changes := slices.Clone(plan.Changes)
	// Deepest paths first, so directories empty before files need them.
	slices.SortFunc(changes, func(a, b Change) int { return strings.Compare(b.Path, a.Path) })
	for _, c := range changes {
		if want := pick(c, forward); want.Absent() && safePath(c.Path) {
			if err := removePath(root, c.Path); err != nil {
				return done, err
			}
			done.Deleted = append(done.Deleted, c.Path)
		}
	}
	slices.Reverse(changes)
	for _, c := range changes {
		if err := ctx.Err(); err != nil {
			return done, err
		}
		want := pick(c, forward)
		if want.Absent() || !safePath(c.Path) || want.Mode == modeGitlink {
			continue
		}
		data, err := src.read(ctx, want.Blob)
		if err != nil {
			return done, fmt.Errorf("read %s from the checkpoint store: %w", c.Path, err)
		}
		if err := writePath(root, c.Path, data, want.Mode); err != nil {
			return done, err
		}
		done.Written = append(done.Written, c.Path)
	}
	slices.Sort(done.Written)
	slices.Sort(done.Deleted)
	return done, nil
}

func pick(c Change, forward bool) State {
	if forward {
		return c.To
	}
	return c.From
}

// safePath reports whether a store path may be written: relative, clean,
// and not inside any .git directory.
func safePath(p string) bool {
	if p == "" || path.IsAbs(p) || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../") {
		return false
	}
	for part := range strings.SplitSeq(p, "/") {
		if strings.EqualFold(part, ".git") {
			return false
		}
	}
	return true
}

// removePath deletes the file at p, then the directories above it that it
// leaves empty.
func removePath(root *os.Root, p string) error {
	name := filepath.FromSlash(p)
	if _, err := root.Lstat(name); err != nil {
		return nil // nothing there (a parent may not even be a directory)
	}
	if err := root.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("delete %s: %w", p, unwrapPath(err))
	}
	for dir := path.Dir(p); dir != "."; dir = path.Dir(dir) {
		if root.Remove(filepath.FromSlash(dir)) != nil {
			break // not empty, or not ours to remove
		}
	}
	return nil
}

// writePath puts data at p with the git mode mode: through a temporary
// file renamed into place, so a crash leaves the old content or the new.
func writePath(root *os.Root, p string, data []byte, mode uint32) error {
	name := filepath.FromSlash(p)
	if dir := filepath.Dir(name); dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("write %s: %w", p, unwrapPath(err))
		}
	}
	tmp := filepath.Join(filepath.Dir(name), tempPrefix+NewToken()[:8])
	if mode == modeSymlink {
		if err := root.Symlink(string(data), tmp); err != nil {
			return fmt.Errorf("write %s: %w", p, unwrapPath(err))
		}
	} else if err := writeTemp(root, tmp, data, mode); err != nil {
		return fmt.Errorf("write %s: %w", p, unwrapPath(err))
	}
	if err := root.Rename(tmp, name); err != nil {
		_ = root.Remove(tmp)
		return fmt.Errorf("write %s: %w", p, unwrapPath(err))
	}
	return nil
}

func writeTemp(root *os.Root, tmp string, data []byte, mode uint32) error {
	perm := os.FileMode(0o644)
	if mode == modeExecutable {
		perm = 0o755
	}
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		_ = root.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		_ = root.Remove(tmp)
		return err
	}
	return nil
}

// unwrapPath drops the path an *fs.PathError repeats, for messages that
// name the workspace path themselves.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
