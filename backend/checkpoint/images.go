package checkpoint

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// images is the store without git: before tack's own tools change a file,
// its content is kept (content-addressed, under objects/), and a manifest
// per session (<session>.jsonl) records, for each interval between two
// snapshots, the first content each changed path had in it and, at the
// next snapshot, the content tack left. A snapshot is the start of an
// interval; restoring one puts back, for every path changed since, its
// first kept content.
type images struct {
	dir, work string
	opts      Options
	manifest  string

	mu       sync.Mutex
	loaded   bool
	n        int             // the latest snapshot's number
	captured map[string]bool // paths kept since snapshot n
	records  []imageRecord
}

// imageRecord is one line of a manifest.
type imageRecord struct {
	N    int    `json:"n"`
	Op   string `json:"op"` // recTake, recImage or recAfter
	Path string `json:"path,omitempty"`
	State
	Skipped string `json:"skipped,omitempty"` // why no content was kept
}

const (
	recTake  = "take"  // snapshot N starts
	recImage = "image" // Path's content when first changed after snapshot N
	recAfter = "after" // Path's content when snapshot N was taken
)

// filesPrefix starts the ID of a files-store snapshot.
const filesPrefix = "files:"

func newImages(dir, work string, o Options) *images {
	return &images{dir: dir, work: work, opts: o, manifest: filepath.Join(dir, o.Session+".jsonl")}
}

func filesID(n int) string { return filesPrefix + strconv.Itoa(n) }

func parseFilesID(id string) (int, bool) {
	s, ok := strings.CutPrefix(id, filesPrefix)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n > 0
}

// load reads the session's manifest once; a torn last line is dropped.
func (m *images) load() error {
	if m.loaded {
		return nil
	}
	m.captured = map[string]bool{}
	f, err := os.Open(m.manifest)
	if errors.Is(err, fs.ErrNotExist) {
		m.loaded = true
		return nil
	}
	if err != nil {
		return fmt.Errorf("%w: read %s: %v; make $TACK_HOME readable and writable", ErrUnavailable, m.manifest, unwrapPath(err))
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var r imageRecord
		if json.Unmarshal(sc.Bytes(), &r) != nil {
			continue
		}
		m.records = append(m.records, r)
		switch r.Op {
		case recTake:
			m.n, m.captured = r.N, map[string]bool{}
		case recImage:
			if r.N == m.n {
				m.captured[r.Path] = true
			}
		}
	}
	m.loaded = true
	return sc.Err()
}

// fork starts the session's manifest as a copy of session from's; a
// session that has a manifest keeps it.
func (m *images) fork(from string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	src, err := os.ReadFile(filepath.Join(m.dir, from+".jsonl"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%w: read %s: %v; make $TACK_HOME readable", ErrUnavailable, from+".jsonl", unwrapPath(err))
	}
	f, err := os.OpenFile(m.manifest, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%w: write %s: %v; make $TACK_HOME writable", ErrUnavailable, m.manifest, unwrapPath(err))
	}
	_, err = f.Write(src)
	if err = errors.Join(err, f.Sync(), f.Close()); err != nil {
		os.Remove(m.manifest)
		return fmt.Errorf("%w: write %s: %v", ErrUnavailable, m.manifest, err)
	}
	m.loaded, m.records = false, nil
	return nil
}

// appendRecords adds records to the manifest, synced.
func (m *images) appendRecords(rs ...imageRecord) error {
	if err := os.MkdirAll(m.dir, 0o700); err != nil {
		return fmt.Errorf("%w: make the checkpoint store %s: %v; make $TACK_HOME writable", ErrUnavailable, m.dir, err)
	}
	f, err := os.OpenFile(m.manifest, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("%w: write %s: %v; make $TACK_HOME writable", ErrUnavailable, m.manifest, unwrapPath(err))
	}
	var buf []byte
	for _, r := range rs {
		line, _ := json.Marshal(r)
		buf = append(append(buf, line...), '\n')
	}
	_, err = f.Write(buf)
	err = errors.Join(err, f.Sync(), f.Close())
	if err != nil {
		return fmt.Errorf("%w: write %s: %v", ErrUnavailable, m.manifest, err)
	}
	m.records = append(m.records, rs...)
	return nil
}

// take starts a new interval. It notes what tack left in each path it
// changed in the last one; those paths are the snapshot's Changed.
func (m *images) take() (Snapshot, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.load(); err != nil {
		return Snapshot{}, err
	}
	changed := slices.Sorted(mapKeys(m.captured))
	var rs []imageRecord
	for _, p := range changed {
		st, _, _ := m.current(p, false)
		rs = append(rs, imageRecord{N: m.n, Op: recAfter, Path: p, State: st})
	}
	rs = append(rs, imageRecord{N: m.n + 1, Op: recTake})
	if err := m.appendRecords(rs...); err != nil {
		return Snapshot{}, err
	}
	m.n++
	m.captured = map[string]bool{}
	return Snapshot{ID: filesID(m.n), Kind: KindFiles, Changed: changed}, nil
}

func mapKeys(m map[string]bool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// preserve keeps the content of each path (absolute, or relative to the
// workspace) that has not been kept since the latest snapshot.
func (m *images) preserve(paths []string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.load(); err != nil {
		return err
	}
	var rs []imageRecord
	for _, p := range paths {
		rel, ok := m.relative(p)
		if !ok || m.captured[rel] {
			continue
		}
		st, skipped, err := m.current(rel, true)
		if err != nil {
			return err
		}
		rs = append(rs, imageRecord{N: m.n, Op: recImage, Path: rel, State: st, Skipped: skipped})
		m.captured[rel] = true
	}
	if len(rs) == 0 {
		return nil
	}
	return m.appendRecords(rs...)
}

// relative turns p into a slash path inside the workspace.
func (m *images) relative(p string) (string, bool) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(m.work, p)
	}
	rel, err := filepath.Rel(m.work, p)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	return rel, safePath(rel)
}

// current is the state of path now; keep writes its content to objects.
// skipped says why a present file has no state (too large, unreadable).
func (m *images) current(rel string, keep bool) (State, string, error) {
	full := filepath.Join(m.work, filepath.FromSlash(rel))
	fi, err := os.Lstat(full)
	if errors.Is(err, fs.ErrNotExist) {
		return State{}, "", nil
	}
	if err != nil {
		return State{}, "unreadable: " + unwrapPath(err).Error(), nil
	}
	var data []byte
	mode := uint32(modeFile)
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(full)
		if err != nil {
			return State{}, "unreadable: " + unwrapPath(err).Error(), nil
		}
		data, mode = []byte(target), modeSymlink
	case !fi.Mode().IsRegular():
		return State{}, "not a regular file", nil
	case fi.Size() > m.opts.MaxFileBytes:
		return State{}, "larger than " + FormatBytes(m.opts.MaxFileBytes), nil
	default:
		if data, err = os.ReadFile(full); err != nil {
			return State{}, "unreadable: " + unwrapPath(err).Error(), nil
		}
		if fi.Mode()&0o111 != 0 {
			mode = modeExecutable
		}
	}
	sum := sha256.Sum256(data)
	st := State{Blob: hex.EncodeToString(sum[:]), Mode: mode}
	if keep {
		if err := m.writeObject(st.Blob, data); err != nil {
			return State{}, "", err
		}
	}
	return st, "", nil
}

func (m *images) objectPath(blob string) string {
	return filepath.Join(m.dir, "objects", blob[:2], blob[2:])
}

func (m *images) writeObject(blob string, data []byte) error {
	p := m.objectPath(blob)
	if fileExists(p) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("%w: keep a file's content in %s: %v", ErrUnavailable, m.dir, err)
	}
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return fmt.Errorf("%w: keep a file's content in %s: %v", ErrUnavailable, m.dir, err)
	}
	return os.Rename(tmp, p)
}

// plan restores snapshot target from before, the snapshot just taken: the
// first content kept of each path changed since target, against the
// content it has now. Paths changed outside tack after that first content
// (between two of tack's changes, or since tack last left them) are
// Outside. It keeps the current content as an object, for a diff to read,
// but records nothing in the manifest: a plan that is only looked at (a
// diff, a refused rewind) must not make the next snapshot list its paths
// as changed. Store.Restore records them.
func (m *images) plan(target, before string) (Plan, error) {
	k, ok1 := parseFilesID(target)
	b, ok2 := parseFilesID(before)
	if !ok1 || !ok2 {
		return Plan{}, fmt.Errorf("%w: checkpoint %s was taken with git, which is not available now; "+
			"install git to restore it, or rewind the conversation only", ErrMissing, short(target))
	}
	m.mu.Lock()
	if err := m.load(); err != nil {
		m.mu.Unlock()
		return Plan{}, err
	}
	if !slices.ContainsFunc(m.records, func(r imageRecord) bool { return r.Op == recTake && r.N == k }) {
		m.mu.Unlock()
		return Plan{}, fmt.Errorf("%w: checkpoint %s is not in %s (pruned, or the store was removed)", ErrMissing, target, m.manifest)
	}
	changed := m.changedSince(k, b)
	m.mu.Unlock()
	paths := slices.Sorted(maps.Keys(changed))
	p := Plan{Kind: KindFiles, Target: target, Before: before}
	for _, path := range paths {
		h := changed[path]
		img := h.first
		if img.Skipped != "" {
			p.Kept = append(p.Kept, path)
			continue
		}
		now, skipped, err := m.current(path, true)
		if err != nil {
			return Plan{}, err
		}
		if skipped != "" {
			p.Kept = append(p.Kept, path)
			continue
		}
		if now == img.State {
			continue
		}
		if h.outside || h.tackLeft && h.left != now {
			p.Outside = append(p.Outside, path)
		}
		p.Changes = append(p.Changes, Change{Path: path, From: now, To: img.State})
	}
	return p, nil
}

// pathHistory is what the manifest says of one path tack's tools changed
// between two snapshots.
type pathHistory struct {
	// first is its first kept content, which a restore puts back.
	first imageRecord
	// left is what tack left in it at the latest snapshot, if tackLeft.
	left     State
	tackLeft bool
	// outside says that tack found, when it next changed the path, other
	// content than it had left there: it was changed outside tack.
	outside bool
}

// changedSince is the history of every path tack's tools changed from
// snapshot k up to snapshot b. A change outside tack before the path's
// first kept content is not lost by a restore, which puts that content
// back; one between two of tack's changes is, and the git store sees it
// in the snapshot taken before the second. The caller holds m.mu.
func (m *images) changedSince(k, b int) map[string]*pathHistory {
	changed := map[string]*pathHistory{}
	for _, r := range m.records {
		h := changed[r.Path]
		switch {
		case r.N >= b:
		case r.Op == recImage && h == nil && r.N >= k:
			changed[r.Path] = &pathHistory{first: r}
		case r.Op == recImage && h != nil && h.tackLeft && r.Skipped == "" && r.State != h.left:
			h.outside = true
		case r.Op == recAfter && h != nil:
			h.left, h.tackLeft = r.State, true
		}
	}
	return changed
}

// objects reads kept contents.
type objects struct{ m *images }

func (o objects) read(_ context.Context, blob string) ([]byte, error) {
	data, err := os.ReadFile(o.m.objectPath(blob))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: content %s was removed from %s", ErrMissing, short(blob), o.m.dir)
	}
	return data, err
}

func (objects) close() {}
