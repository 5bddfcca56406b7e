package checkpoint

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// noGit opens the store as where git is not installed.
func noGit(o *Options) { o.Git = filepath.Join(os.TempDir(), "no-such-git-binary") }

func TestWithoutGitTheStoreKeepsBeforeImagesOfToolEdits(t *testing.T) {
	s, ws := newStore(t, map[string]string{"a.txt": "one\n", "keep.txt": "k"}, noGit)
	if s.Kind() != KindFiles {
		t.Fatalf("want the files store without git, got %s", s.Kind())
	}
	t1 := take(t, s)

	// Turn 1's tools: edit a.txt, create b.txt (tack's tools preserve
	// first); a shell command makes c.txt, which the store cannot see.
	if err := s.Preserve([]string{filepath.Join(ws, "a.txt"), "b.txt"}); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, ws, map[string]string{"a.txt": "two\n", "b.txt": "bee", "c.txt": "by bash"})
	done := take(t, s)
	if !slices.Equal(done.Changed, []string{"a.txt", "b.txt"}) {
		t.Errorf("want the files tack's tools changed listed, got %v", done.Changed)
	}
	plan, restored := restoreTo(t, s, t1.ID)
	if len(plan.Outside) != 0 {
		t.Errorf("want no outside changes, got %v", plan.Outside)
	}
	wantTree(t, ws, map[string]string{"a.txt": "one\n", "keep.txt": "k", "c.txt": "by bash"})
	if !slices.Equal(restored.Deleted, []string{"b.txt"}) || !slices.Equal(restored.Written, []string{"a.txt"}) {
		t.Errorf("want b.txt deleted and a.txt written, got %+v", restored)
	}
}

func TestWithoutGitARestoreCanBeUndone(t *testing.T) {
	s, ws := newStore(t, map[string]string{"a": "1"}, noGit)
	t1 := take(t, s)
	s.Preserve([]string{"a"})
	writeFiles(t, ws, map[string]string{"a": "2"})
	take(t, s)
	plan, _ := restoreTo(t, s, t1.ID)
	take(t, s) // after the restore
	wantTree(t, ws, map[string]string{"a": "1"})
	restoreTo(t, s, plan.Before)
	wantTree(t, ws, map[string]string{"a": "2"})
}

func TestWithoutGitChangesOutsideTackAreReported(t *testing.T) {
	s, ws := newStore(t, map[string]string{"a": "1", "b": "1"}, noGit)
	t1 := take(t, s)
	s.Preserve([]string{"a", "b"})
	writeFiles(t, ws, map[string]string{"a": "2", "b": "2"})
	take(t, s)
	writeFiles(t, ws, map[string]string{"b": "edited by the user"})
	before := take(t, s)
	plan, err := s.Plan(context.Background(), t1.ID, before.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(plan.Outside, []string{"b"}) {
		t.Errorf("want b, changed after tack left it, reported, got %v", plan.Outside)
	}
}

// betweenTwoEdits is a files store where tack's tools edit a.txt and
// b.txt in turn 1 and again in turn 2, and the user edits a.txt by hand
// between the turns. It returns the checkpoints taken before each turn.
func betweenTwoEdits(t *testing.T) (s *Store, ws string, turn1, turn2 Snapshot) {
	s, ws = newStore(t, map[string]string{"a.txt": "1", "b.txt": "1"}, noGit)
	turn1 = take(t, s)
	tackEdits := func(content string) {
		if err := s.Preserve([]string{"a.txt", "b.txt"}); err != nil {
			t.Fatal(err)
		}
		writeFiles(t, ws, map[string]string{"a.txt": content, "b.txt": content})
		take(t, s) // after the tools
	}
	tackEdits("by tack in turn 1")
	writeFiles(t, ws, map[string]string{"a.txt": "by the user"})
	turn2 = take(t, s)
	tackEdits("by tack in turn 2")
	return s, ws, turn1, turn2
}

// The git store sees the user's edit in the checkpoint taken before turn
// 2; the files store must see it in the content turn 2's tools found,
// which is not what turn 1's left. Tack's own edits of b.txt, and the
// user's edit before the checkpoint restored to, are not reported.
func TestWithoutGitAChangeOutsideTackBetweenTwoOfItsEditsIsReported(t *testing.T) {
	s, _, turn1, turn2 := betweenTwoEdits(t)
	before := take(t, s)
	for _, c := range []struct {
		target string
		want   []string
	}{{turn1.ID, []string{"a.txt"}}, {turn2.ID, nil}} {
		plan, err := s.Plan(context.Background(), c.target, before.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(plan.Outside, c.want) || !slices.Equal(plan.Paths(), []string{"a.txt", "b.txt"}) {
			t.Errorf("restore to %s: want a.txt and b.txt restored, %v reported changed outside tack, got %+v", c.target, c.want, plan)
		}
	}
}

// A restore forced over the user's edit can be undone, and the undo does
// not count the user's edit, which it puts back, as one it would lose.
func TestWithoutGitAnUndoOfAForcedRestoreReportsNothingOutside(t *testing.T) {
	s, ws, turn1, _ := betweenTwoEdits(t)
	forced, _ := restoreTo(t, s, turn1.ID)
	take(t, s) // after the restore
	wantTree(t, ws, map[string]string{"a.txt": "1", "b.txt": "1"})
	undo, _ := restoreTo(t, s, forced.Before)
	if len(undo.Outside) != 0 {
		t.Errorf("want the undo to lose nothing, got %v reported", undo.Outside)
	}
	wantTree(t, ws, map[string]string{"a.txt": "by tack in turn 2", "b.txt": "by tack in turn 2"})
}

func TestWithoutGitTheManifestSurvivesANewProcess(t *testing.T) {
	ws, home := t.TempDir(), t.TempDir()
	writeFiles(t, ws, map[string]string{"a": "1"})
	s := openStore(t, home, ws, "s1", noGit)
	t1 := take(t, s)
	s.Preserve([]string{"a"})
	writeFiles(t, ws, map[string]string{"a": "2"})
	// The manifest's last line torn by a crash is dropped.
	f, _ := os.OpenFile(s.files.manifest, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"n":1,"op":"ima`)
	f.Close()
	again := openStore(t, home, ws, "s1", noGit)
	restoreTo(t, again, t1.ID)
	wantTree(t, ws, map[string]string{"a": "1"})
}

func TestWithoutGitAGitCheckpointIsReportedUnrestorable(t *testing.T) {
	ws, home := t.TempDir(), t.TempDir()
	s := openStore(t, home, ws, "s1", noGit)
	now := take(t, s)
	_, err := s.Plan(context.Background(), "0123456789abcdef0123456789abcdef01234567", now.ID)
	if err == nil {
		t.Fatal("want a git checkpoint refused by the files store, got a plan")
	}
}

// A checkpoint the session's manifest has no record of (pruned, or taken
// by another session, whose numbers are its own) is missing, not a
// restore that changes nothing.
func TestWithoutGitACheckpointNotInTheManifestIsMissing(t *testing.T) {
	s, _ := newStore(t, map[string]string{"a": "1"}, noGit)
	now := take(t, s)
	_, err := s.Plan(context.Background(), filesID(7), now.ID)
	if !errors.Is(err, ErrMissing) {
		t.Errorf("want ErrMissing for a checkpoint the manifest does not hold, got %v", err)
	}
}

// A diff reads the store; it does not record anything. The checkpoint
// taken next (the rewind's) must not list the files a diff compared as
// changed since, nor hide that the user changed one after tack left it.
func TestWithoutGitADiffLeavesWhatTheNextCheckpointReportsAsItWas(t *testing.T) {
	s, ws := newStore(t, map[string]string{"a": "1", "b": "1"}, noGit)
	t1 := take(t, s)
	s.Preserve([]string{"a", "b"})
	writeFiles(t, ws, map[string]string{"a": "2", "b": "2"})
	take(t, s) // after the tools
	writeFiles(t, ws, map[string]string{"b": "edited by the user"})
	diffed := take(t, s)
	changes, err := s.Diff(context.Background(), t1.ID, diffed.ID)
	if err != nil || len(changes) != 2 || string(changes[1].After) != "edited by the user" {
		t.Fatalf("want a and b diffed, b as the user left it, got %+v, %v", changes, err)
	}
	before := take(t, s)
	if len(before.Changed) != 0 {
		t.Errorf("want nothing changed since the diff's checkpoint, got %v", before.Changed)
	}
	plan, err := s.Plan(context.Background(), t1.ID, before.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(plan.Outside, []string{"b"}) {
		t.Errorf("want only b, changed after tack left it, reported, got %v", plan.Outside)
	}
}
