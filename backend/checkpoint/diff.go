package checkpoint

import (
	"context"
	"slices"
	"strings"
)

// FileChange is one file that differs between two checkpoints. Before or
// After is nil where the file is absent.
type FileChange struct {
	Path          string
	Before, After []byte
	// Symlink says the contents are link targets.
	Symlink bool
}

// Diff lists the files that differ from checkpoint from to checkpoint to,
// sorted by path. Files neither checkpoint holds (ignored, too large) are
// not among them.
func (s *Store) Diff(ctx context.Context, from, to string) ([]FileChange, error) {
	plan, err := s.Plan(ctx, from, to)
	if err != nil {
		return nil, err
	}
	src, err := s.blobs(plan.Kind)
	if err != nil {
		return nil, err
	}
	defer src.close()
	read := func(st State) ([]byte, error) {
		if st.Absent() {
			return nil, nil
		}
		return src.read(ctx, st.Blob)
	}
	out := make([]FileChange, 0, len(plan.Changes))
	for _, c := range plan.Changes {
		// The plan turns to into from: its To is from's content.
		fc := FileChange{Path: c.Path, Symlink: c.To.Mode == modeSymlink || c.From.Mode == modeSymlink}
		if fc.Before, err = read(c.To); err != nil {
			return nil, err
		}
		if fc.After, err = read(c.From); err != nil {
			return nil, err
		}
		out = append(out, fc)
	}
	slices.SortFunc(out, func(a, b FileChange) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}
