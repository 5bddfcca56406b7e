package checkpoint

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

func TestPruneDropsCheckpointsOutsideTheRetention(t *testing.T) {
	needGit(t)
	ws, home := t.TempDir(), t.TempDir()
	// The clock runs two hours ahead, so the objects written now are past
	// gc's grace.
	start := time.Now().Add(2 * time.Hour)
	clock := start
	now := func(o *Options) { o.Now = func() time.Time { return clock } }
	writeFiles(t, ws, map[string]string{"a": "0"})
	s := openStore(t, home, ws, "s1", now)
	var ids []string
	for i := range 4 {
		writeFiles(t, ws, map[string]string{"a": string(rune('a' + i))})
		ids = append(ids, take(t, s).ID)
		clock = clock.Add(time.Hour)
	}
	// A month-old checkpoint of another session.
	clock = start.AddDate(0, 0, -40)
	other := openStore(t, home, ws, "s0", now)
	writeFiles(t, ws, map[string]string{"a": "old"})
	stale := take(t, other).ID
	clock = start.Add(5 * time.Hour)

	if !s.Due() {
		t.Fatal("want a prune due in a store never pruned")
	}
	n, err := s.Prune(context.Background(), Retention{Keep: map[string]bool{ids[2]: true}, Before: start.AddDate(0, 0, -30)})
	if err != nil || n != 3 {
		t.Fatalf("want 3 checkpoints pruned (s1's first two, s0's stale one), got %d, %v", n, err)
	}
	if s.Due() {
		t.Error("want no prune due right after one")
	}
	for _, id := range []string{ids[0], ids[1], stale} {
		if s.git.exists(context.Background(), id) {
			t.Errorf("want checkpoint %s gone after gc, it is still there", short(id))
		}
	}
	for _, id := range ids[2:] {
		if !s.git.exists(context.Background(), id) {
			t.Errorf("want kept checkpoint %s (retained, or the latest) still there", short(id))
		}
	}
	if _, err := s.Plan(context.Background(), ids[0], ids[3]); !errors.Is(err, ErrMissing) {
		t.Errorf("want a pruned checkpoint reported missing, got %v", err)
	}
}

func TestSizeCountsTheStore(t *testing.T) {
	needGit(t)
	ws, home := t.TempDir(), t.TempDir()
	s := openStore(t, home, ws, "s1")
	if n, err := s.Size(); err != nil || n != 0 {
		t.Errorf("want an untouched store to take 0 bytes, got %d, %v", n, err)
	}
	writeFiles(t, ws, map[string]string{"a": "some content"})
	take(t, s)
	if n, err := s.Size(); err != nil || n == 0 {
		t.Errorf("want the store's size after a checkpoint, got %d, %v", n, err)
	}
}

func TestDiffListsWhatChangedBetweenCheckpoints(t *testing.T) {
	eachStoreKind(t, func(t *testing.T, kind storeKind) {
		s, ws := newStore(t, map[string]string{"a": "one\n", "gone": "g\n"}, kind.mod...)
		first := take(t, s)
		s.Preserve([]string{"a", "gone", "new"})
		writeFiles(t, ws, map[string]string{"a": "two\n", "new": "n\n"})
		removeFile(t, ws, "gone")
		now := take(t, s)
		got, err := s.Diff(context.Background(), first.ID, now.ID)
		if err != nil {
			t.Fatal(err)
		}
		var summary []string
		for _, c := range got {
			summary = append(summary, c.Path+":"+string(c.Before)+">"+string(c.After))
		}
		want := []string{"a:one\n>two\n", "gone:g\n>", "new:>n\n"}
		if !slices.Equal(summary, want) {
			t.Errorf("want %q, got %q", want, summary)
		}
	})
}
