package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/tack-agent/tack/backend/session"
)

// repo is the shadow git repository of a workspace, as one session uses
// it.
type repo struct {
	gitRunner
	opts Options
	lock string

	mu       sync.Mutex
	ready    bool   // initialised and its exclude rules written, by this process
	last     string // the session's latest checkpoint (a commit)
	lastTree string // its tree, once known
}

func newRepo(bin, dir, work string, o Options) *repo {
	return &repo{
		gitRunner: gitRunner{bin: bin, dir: dir, work: work, env: gitEnv(dir, work, o.Getenv)},
		opts:      o,
		lock:      filepath.Join(filepath.Dir(dir), "lock"),
		last:      o.Last,
	}
}

// refPrefix holds one ref per kept checkpoint, so gc keeps their objects.
const refPrefix = "refs/tack/"

func (r *repo) sessionRef(commit string) string {
	return refPrefix + r.opts.Session + "/" + commit
}

// fork gives the session a ref to each checkpoint of session from.
func (r *repo) fork(ctx context.Context, from string) error {
	if !fileExists(filepath.Join(r.dir, "HEAD")) {
		return nil
	}
	out, err := r.run(ctx, nil, "for-each-ref", "--format=%(objectname)", refPrefix+from+"/")
	if err != nil {
		return err
	}
	var updates bytes.Buffer
	for _, id := range strings.Fields(string(out)) {
		updates.WriteString("update " + r.sessionRef(id) + " " + id + "\n")
	}
	if updates.Len() == 0 {
		return nil
	}
	return r.updateRefs(ctx, updates.Bytes())
}

// ensure creates the repository when it is missing and writes its ignore
// and attribute rules. The caller holds the store lock.
func (r *repo) ensure(ctx context.Context) error {
	if r.ready && fileExists(filepath.Join(r.dir, "HEAD")) {
		return nil
	}
	if !fileExists(filepath.Join(r.dir, "HEAD")) {
		if err := os.MkdirAll(r.dir, 0o700); err != nil {
			return fmt.Errorf("%w: make the checkpoint store %s: %v; make $TACK_HOME writable", ErrUnavailable, r.dir, err)
		}
		// No template: the shadow repository needs no sample hooks (nor
		// hooks of a user's init.templateDir), and copying them was half
		// of git init's 12 ms of CPU.
		if _, err := r.run(ctx, nil, "init", "--quiet", "--template="); err != nil {
			return err
		}
	}
	info := filepath.Join(r.dir, "info")
	if err := os.MkdirAll(info, 0o700); err != nil {
		return err
	}
	if err := writeIfChanged(filepath.Join(info, "attributes"), []byte(attributes)); err != nil {
		return err
	}
	if err := writeIfChanged(filepath.Join(info, "exclude"), excludeRules(r.work)); err != nil {
		return err
	}
	r.ready = true
	return nil
}

// writeIfChanged writes data to path unless it already holds it.
func writeIfChanged(path string, data []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	return os.WriteFile(path, data, 0o600)
}

// removeStaleLocks deletes the lock files a git killed mid-command leaves;
// under the store lock no other git of tack's can be holding them.
func (r *repo) removeStaleLocks() {
	for _, name := range []string{"index.lock", "HEAD.lock"} {
		_ = os.Remove(filepath.Join(r.dir, name))
	}
}

// take snapshots the workspace. A repository git fails on is repaired:
// first its index (a cache) is dropped, then, if git still fails, the
// repository is moved aside for a new one; notice says so.
func (r *repo) take(ctx context.Context) (snap Snapshot, notice string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	unlock, err := lockStore(ctx, r.lock)
	if err != nil {
		return Snapshot{}, "", err
	}
	defer unlock()
	if snap, err = r.takeLocked(ctx); err == nil || !isGitError(err) {
		return snap, "", err
	}
	_ = os.Remove(filepath.Join(r.dir, "index"))
	if snap, err = r.takeLocked(ctx); err == nil || !isGitError(err) {
		return snap, "", err
	}
	if notice, err = r.moveAside(err); err != nil {
		return Snapshot{}, "", err
	}
	snap, err = r.takeLocked(ctx)
	return snap, notice, err
}

// prime brings the index up to the workspace and writes the objects of
// its files, without a checkpoint: the next take then has only the
// changes made since to do. It leaves the session's last checkpoint be,
// so that take still lists what changed since it.
func (r *repo) prime(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	unlock, err := lockStore(ctx, r.lock)
	if err != nil {
		return err
	}
	defer unlock()
	_, _, err = r.index(inBackground(ctx))
	return err
}

// index stages the workspace as it is and writes its tree. The caller
// holds the store lock.
func (r *repo) index(ctx context.Context) (string, staging, error) {
	if err := r.ensure(ctx); err != nil {
		return "", staging{}, err
	}
	r.removeStaleLocks()
	st, err := r.status(ctx)
	if err != nil {
		return "", staging{}, err
	}
	work := r.classify(st)
	if len(work.add) > r.opts.MaxFiles {
		return "", staging{}, fmt.Errorf("%w: the workspace has more than %d files that its ignore rules keep; "+
			"add ignore rules (.gitignore) for generated files, or raise [checkpoints] max_files",
			ErrUnavailable, r.opts.MaxFiles)
	}
	if err := r.stage(ctx, work); err != nil {
		return "", staging{}, err
	}
	tree, err := r.line(ctx, nil, "write-tree")
	return tree, work, err
}

func (r *repo) takeLocked(ctx context.Context) (Snapshot, error) {
	tree, work, err := r.index(ctx)
	if err != nil {
		return Snapshot{}, err
	}
	snap := Snapshot{Kind: KindGit, Skipped: work.skipped}
	prevTree := r.treeOf(ctx, r.last)
	if prevTree == tree {
		snap.ID = r.last
		return snap, nil
	}
	// Status compared the work tree with HEAD; when HEAD is still the
	// session's last checkpoint, what it found is what changed since.
	headIsLast := r.last != "" && r.head() == r.last
	if snap.ID, err = r.commit(ctx, tree); err != nil {
		return Snapshot{}, err
	}
	switch {
	case headIsLast:
		snap.Changed = work.changed()
	case prevTree != "":
		if snap.Changed, err = r.changedPaths(ctx, prevTree, tree); err != nil {
			return Snapshot{}, err
		}
	}
	r.last, r.lastTree = snap.ID, tree
	return snap, nil
}

// head is the commit HEAD names (tack keeps it detached), "" when unknown.
func (r *repo) head() string {
	data, err := os.ReadFile(filepath.Join(r.dir, "HEAD"))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}

// treeOf is the tree of commit, "" when there is none or git cannot find
// it (a store deleted since).
func (r *repo) treeOf(ctx context.Context, commit string) string {
	if commit == "" {
		return ""
	}
	if commit == r.last && r.lastTree != "" {
		return r.lastTree
	}
	tree, err := r.line(ctx, nil, "rev-parse", "--verify", "--quiet", commit+"^{tree}")
	if err != nil {
		return ""
	}
	if commit == r.last {
		r.lastTree = tree
	}
	return tree
}

// statusEntry is one line of git status: X the index against HEAD, Y the
// work tree against the index.
type statusEntry struct {
	x, y byte
	path string
}

func (r *repo) status(ctx context.Context) ([]statusEntry, error) {
	out, err := r.run(ctx, nil, "status", "--porcelain=v1", "-z", "--untracked-files=all",
		"--no-renames", "--ignore-submodules=all")
	if err != nil {
		return nil, err
	}
	var st []statusEntry
	for rec := range bytes.SplitSeq(out, []byte{0}) {
		if len(rec) < 4 {
			continue
		}
		st = append(st, statusEntry{x: rec[0], y: rec[1], path: string(rec[3:])})
	}
	return st, nil
}

// staging is what a snapshot must change in the index.
type staging struct {
	add, remove, drop []string // drop: tracked files now left out
	staged            []string // in the index but not in HEAD yet
	skipped           []session.SkippedFile
	skippedMore       int
}

// changed is every path whose entry differs from HEAD once staged.
func (s staging) changed() []string {
	out := slices.Concat(s.add, s.remove, s.drop, s.staged)
	slices.Sort(out)
	return slices.Compact(out)
}

func (s *staging) skip(path string, size int64, reason string) {
	if len(s.skipped) < maxSkippedListed {
		s.skipped = append(s.skipped, session.SkippedFile{Path: path, Size: size, Reason: reason})
		return
	}
	s.skippedMore++
}

// classify turns status into index work, leaving out what a checkpoint
// cannot hold: files over the size limit, unreadable ones, nested git
// repositories.
func (r *repo) classify(st []statusEntry) staging {
	var w staging
	for _, e := range st {
		tracked := e.x != '?'
		if tracked && e.x != ' ' {
			w.staged = append(w.staged, e.path)
		}
		switch {
		case e.x == '?' || e.y == 'M' || e.y == 'T' || e.y == 'A':
		case e.y == 'D':
			w.remove = append(w.remove, e.path)
			continue
		default:
			continue // staged already, by a snapshot cut short
		}
		if strings.HasSuffix(e.path, "/") {
			w.skip(e.path, 0, "nested git repository")
			continue
		}
		reason, size := r.admit(e.path)
		if reason == "" {
			w.add = append(w.add, e.path)
			continue
		}
		if reason != "gone" {
			w.skip(e.path, size, reason)
		}
		if tracked {
			w.drop = append(w.drop, e.path)
		}
	}
	if w.skippedMore > 0 {
		w.skipped = append(w.skipped, session.SkippedFile{Reason: "and " + strconv.Itoa(w.skippedMore) + " more files left out"})
	}
	return w
}

// admit says why the file at path cannot go into a checkpoint, "" when it
// can, "gone" when it vanished since status saw it.
func (r *repo) admit(path string) (reason string, size int64) {
	full := filepath.Join(r.work, filepath.FromSlash(path))
	fi, err := os.Lstat(full)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "gone", 0
	case err != nil:
		return "unreadable: " + errors.Unwrap(err).Error(), 0
	case fi.Mode()&fs.ModeSymlink != 0:
		return "", fi.Size()
	case !fi.Mode().IsRegular():
		return "not a regular file", 0
	case fi.Size() > r.opts.MaxFileBytes:
		return "larger than " + FormatBytes(r.opts.MaxFileBytes), fi.Size()
	}
	f, err := os.Open(full)
	if err != nil {
		return "unreadable: " + errors.Unwrap(err).Error(), fi.Size()
	}
	f.Close()
	return "", fi.Size()
}

// stage applies w to the index.
func (r *repo) stage(ctx context.Context, w staging) error {
	if paths := append(slices.Clip(w.add), w.remove...); len(paths) > 0 {
		if _, err := r.run(ctx, nulList(paths), "update-index", "--add", "--remove", "-z", "--stdin"); err != nil {
			return err
		}
	}
	if len(w.drop) > 0 {
		if _, err := r.run(ctx, nulList(w.drop), "update-index", "--force-remove", "-z", "--stdin"); err != nil {
			return err
		}
	}
	return nil
}

func nulList(paths []string) []byte {
	var b bytes.Buffer
	for _, p := range paths {
		b.WriteString(p)
		b.WriteByte(0)
	}
	return b.Bytes()
}

// commit makes a parentless commit of tree, so that dropping its ref lets
// gc prune it, and points HEAD (which keeps status fast) and the session's
// ref at it.
func (r *repo) commit(ctx context.Context, tree string) (string, error) {
	now := r.opts.Now().Unix()
	date := strconv.FormatInt(now, 10) + " +0000"
	commit, err := r.runEnv(ctx, nil, []string{"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date},
		"commit-tree", tree, "-m", "tack checkpoint of session "+r.opts.Session)
	if err != nil {
		return "", err
	}
	id := strings.TrimSpace(string(commit))
	refs := "option no-deref\nupdate HEAD " + id + "\nupdate " + r.sessionRef(id) + " " + id + "\n"
	if _, err := r.run(ctx, []byte(refs), "update-ref", "--stdin"); err != nil {
		return "", err
	}
	return id, nil
}

// changedPaths lists the paths that differ between two trees.
func (r *repo) changedPaths(ctx context.Context, from, to string) ([]string, error) {
	out, err := r.run(ctx, nil, "diff-tree", "-r", "-z", "--name-only", "--no-renames", from, to)
	if err != nil {
		return nil, err
	}
	var paths []string
	for p := range bytes.SplitSeq(out, []byte{0}) {
		if len(p) > 0 {
			paths = append(paths, string(p))
		}
	}
	slices.Sort(paths)
	return paths, nil
}

// moveAside puts a repository git cannot use out of the way, so the next
// snapshot starts a new one, and returns what the user should be told.
func (r *repo) moveAside(cause error) (string, error) {
	aside := r.dir + ".damaged-" + strconv.FormatInt(r.opts.Now().Unix(), 10)
	if err := os.Rename(r.dir, aside); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%w: the checkpoint store %s is damaged (%v) and could not be moved aside: %v; "+
			"remove it and tack will start a new one", ErrUnavailable, r.dir, cause, err)
	}
	r.last, r.lastTree, r.ready = "", "", false
	return fmt.Sprintf("The checkpoint store was damaged (%v); tack moved it to %s and started a new one. "+
		"Checkpoints taken before now cannot be restored.", cause, aside), nil
}

// FormatBytes formats n bytes for messages: "10 MiB", "512 KiB", "100 B".
func FormatBytes(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + " GiB"
	case n >= 1<<20:
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', -1, 64) + " MiB"
	case n >= 1<<10:
		return strconv.FormatFloat(float64(n)/(1<<10), 'f', 0, 64) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " B"
}
