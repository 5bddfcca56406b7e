package checkpoint

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Retention says which checkpoints a prune keeps.
type Retention struct {
	// Keep are the IDs of this session's checkpoints to keep (those of its
	// newest turns); its other checkpoints go.
	Keep map[string]bool
	// Before drops the checkpoints of every session taken before it.
	Before time.Time
}

// PruneEvery is how often Due lets a prune run.
const PruneEvery = 24 * time.Hour

// pruneStamp is the file whose time says when the store was last pruned.
const pruneStamp = "pruned"

// Due reports whether the store has not been pruned for PruneEvery.
func (s *Store) Due() bool {
	fi, err := os.Stat(filepath.Join(s.dir, pruneStamp))
	return err != nil || s.opts.Now().Sub(fi.ModTime()) >= PruneEvery
}

// Prune drops the checkpoints r does not keep and collects their space
// (git gc, in the caller's goroutine: run it in the background). It
// returns how many checkpoints went.
func (s *Store) Prune(ctx context.Context, r Retention) (int, error) {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return 0, err
	}
	now, stamp := s.opts.Now(), filepath.Join(s.dir, pruneStamp)
	if err := os.WriteFile(stamp, nil, 0o600); err == nil {
		_ = os.Chtimes(stamp, now, now)
	}
	s.removeDamaged(r.Before)
	if s.kind == KindFiles {
		return s.files.prune(r)
	}
	return s.git.prune(ctx, r)
}

// removeDamaged deletes stores moved aside as damaged before cutoff.
func (s *Store) removeDamaged(cutoff time.Time) {
	matches, _ := filepath.Glob(filepath.Join(s.dir, "git.damaged-*"))
	for _, m := range matches {
		if fi, err := os.Stat(m); err == nil && fi.ModTime().Before(cutoff) {
			_ = os.RemoveAll(m)
		}
	}
}

func (r *repo) prune(ctx context.Context, ret Retention) (int, error) {
	if !fileExists(filepath.Join(r.dir, "HEAD")) {
		return 0, nil
	}
	out, err := r.run(ctx, nil, "for-each-ref", "--format=%(refname) %(objectname) %(committerdate:unix)", refPrefix)
	if err != nil {
		return 0, err
	}
	r.mu.Lock()
	last := r.last
	r.mu.Unlock()
	var del bytes.Buffer
	n := 0
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 {
			continue
		}
		ref, id := f[0], f[1]
		unix, _ := strconv.ParseInt(f[2], 10, 64)
		mine := strings.HasPrefix(ref, refPrefix+r.opts.Session+"/")
		old := time.Unix(unix, 0).Before(ret.Before)
		if id == last || (!old && (!mine || ret.Keep[id])) {
			continue
		}
		del.WriteString("delete " + ref + " " + id + "\n")
		n++
	}
	if n == 0 {
		return 0, nil
	}
	if last != "" {
		// HEAD only keeps status fast; it must not keep a pruned commit.
		del.WriteString("option no-deref\nupdate HEAD " + last + "\n")
	}
	if err := r.updateRefs(ctx, del.Bytes()); err != nil {
		return 0, err
	}
	// Objects a snapshot of another process wrote a moment ago are not yet
	// referenced; an hour's grace keeps them.
	grace := r.opts.Now().Add(-time.Hour).UTC().Format("2006-01-02T15:04:05Z")
	_, err = r.run(ctx, nil, "gc", "--quiet", "--prune="+grace)
	return n, err
}

// updateRefs applies ref updates under the store lock, which orders them
// with snapshots.
func (r *repo) updateRefs(ctx context.Context, updates []byte) error {
	unlock, err := lockStore(ctx, r.lock)
	if err != nil {
		return err
	}
	defer unlock()
	_, err = r.run(ctx, updates, "update-ref", "--stdin")
	return err
}

// prune drops the manifest records of intervals older than the oldest
// kept snapshot and the manifests of sessions idle since ret.Before, then
// the contents no manifest names.
func (m *images) prune(ret Retention) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.load(); err != nil {
		return 0, err
	}
	oldest := m.n
	for id := range ret.Keep {
		if k, ok := parseFilesID(id); ok && k < oldest {
			oldest = k
		}
	}
	var kept []imageRecord
	for _, rec := range m.records {
		if rec.N >= oldest {
			kept = append(kept, rec)
		}
	}
	n := len(m.records) - len(kept)
	if n > 0 {
		if err := m.rewrite(kept); err != nil {
			return 0, err
		}
	}
	manifests, _ := filepath.Glob(filepath.Join(m.dir, "*.jsonl"))
	used := map[string]bool{}
	for _, p := range manifests {
		if fi, err := os.Stat(p); err == nil && p != m.manifest && fi.ModTime().Before(ret.Before) {
			_ = os.Remove(p)
			continue
		}
		for _, blob := range manifestBlobs(p) {
			used[blob] = true
		}
	}
	_ = filepath.WalkDir(filepath.Join(m.dir, "objects"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			blob := filepath.Base(filepath.Dir(p)) + d.Name()
			if !used[blob] {
				_ = os.Remove(p)
			}
		}
		return nil
	})
	return n, nil
}

// rewrite replaces the session's manifest with records.
func (m *images) rewrite(records []imageRecord) error {
	var buf []byte
	for _, rec := range records {
		line, _ := json.Marshal(rec)
		buf = append(append(buf, line...), '\n')
	}
	tmp := m.manifest + ".tmp"
	if err := os.WriteFile(tmp, buf, 0o600); err != nil {
		return err
	}
	if err := os.Rename(tmp, m.manifest); err != nil {
		return err
	}
	m.records = records
	return nil
}

// manifestBlobs are the contents a manifest names.
func manifestBlobs(p string) []string {
	f, err := os.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var rec imageRecord
		if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.Blob != "" {
			out = append(out, rec.Blob)
		}
	}
	return out
}

// Size is the space the store takes on disk, in bytes.
func (s *Store) Size() (int64, error) {
	var n int64
	err := filepath.WalkDir(s.dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n, err
}
