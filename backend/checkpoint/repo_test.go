package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tack-agent/tack/snapshots/testkit"
)

func TestRestoreReturnsTheWorkspaceToTheCheckpoint(t *testing.T) {
	needGit(t)
	ws, home := t.TempDir(), t.TempDir()
	first := map[string]string{
		"a.txt": "one\n", "dir/b.txt": "bee\n", "run.sh": "x:echo hi\n", "link": "->a.txt", "gone/deep/c.txt": "see\n",
	}
	writeFiles(t, ws, first)
	s := openStore(t, home, ws, "s1")
	t1 := take(t, s)
	if t1.ID == "" || t1.Kind != KindGit {
		t.Fatalf("want a git checkpoint, got %+v", t1)
	}

	writeFiles(t, ws, map[string]string{"a.txt": "two\n", "new/d.txt": "dee\n", "link": "->dir/b.txt", "run.sh": "plain\n"})
	if err := os.RemoveAll(filepath.Join(ws, "gone")); err != nil {
		t.Fatal(err)
	}
	_, done := restoreTo(t, s, t1.ID)
	wantTree(t, ws, first)
	if fi, err := os.Stat(filepath.Join(ws, "run.sh")); err != nil || fi.Mode()&0o111 == 0 {
		t.Errorf("want run.sh executable again, got %v %v", fi.Mode(), err)
	}
	if _, err := os.Stat(filepath.Join(ws, "new")); !os.IsNotExist(err) {
		t.Errorf("want the directory the restore emptied removed, got %v", err)
	}
	if want := []string{"new/d.txt"}; !slices.Equal(done.Deleted, want) {
		t.Errorf("want deleted %v, got %v", want, done.Deleted)
	}
	if want := []string{"a.txt", "gone/deep/c.txt", "link", "run.sh"}; !slices.Equal(done.Written, want) {
		t.Errorf("want written %v, got %v", want, done.Written)
	}
}

func TestSnapshotsListWhatChangedSinceTheSessionsLast(t *testing.T) {
	needGit(t)
	ws, home := t.TempDir(), t.TempDir()
	writeFiles(t, ws, map[string]string{"a": "1", "b": "1"})
	s := openStore(t, home, ws, "s1")
	first := take(t, s)
	if len(first.Changed) != 0 {
		t.Errorf("want no changes listed by a session's first checkpoint, got %v", first.Changed)
	}
	same := take(t, s)
	if same.ID != first.ID || len(same.Changed) != 0 {
		t.Errorf("want an unchanged workspace to give the same checkpoint, got %+v after %+v", same, first)
	}
	writeFiles(t, ws, map[string]string{"b": "2", "c/d": "new"})
	os.Remove(filepath.Join(ws, "a"))
	next := take(t, s)
	if want := []string{"a", "b", "c/d"}; !slices.Equal(next.Changed, want) {
		t.Errorf("want changed %v, got %v", want, next.Changed)
	}

	// A second session sees changes against its own last checkpoint,
	// though the first session moved the shared index on since.
	other := openStore(t, home, ws, "s2", func(o *Options) { o.Last = first.ID })
	if got := take(t, other).Changed; !slices.Equal(got, []string{"a", "b", "c/d"}) {
		t.Errorf("want session s2 to list changes since its own last checkpoint, got %v", got)
	}
}

func TestTheUsersGitDirectoryIsByteIdenticalAfterCheckpointsAndRestores(t *testing.T) {
	needGit(t)
	ws, home := t.TempDir(), t.TempDir()
	userGit(t, ws, "init", "-q")
	writeFiles(t, ws, map[string]string{"a.txt": "one\n", ".gitignore": "*.log\n", "src/m.go": "package m\n"})
	userGit(t, ws, "add", "-A")
	userGit(t, ws, "commit", "-q", "-m", "first")
	userGit(t, ws, "config", "user.name", "someone")
	writeFiles(t, ws, map[string]string{".git/info/exclude": "secret.txt\n", "staged.txt": "s"})
	userGit(t, ws, "add", "staged.txt")
	// The user's shell environment points git at their repository; none
	// of it may reach the shadow repository.
	t.Setenv("GIT_DIR", filepath.Join(ws, ".git"))
	t.Setenv("GIT_INDEX_FILE", filepath.Join(ws, ".git", "index"))
	t.Setenv("GIT_WORK_TREE", ws)
	before := testkit.HashTree(t, filepath.Join(ws, ".git"))

	s := openStore(t, home, ws, "s1")
	t1 := take(t, s)
	writeFiles(t, ws, map[string]string{"a.txt": "two\n", "b.txt": "bee", "secret.txt": "pw", "x.log": "log"})
	take(t, s)
	restoreTo(t, s, t1.ID)
	if got := testkit.HashTree(t, filepath.Join(ws, ".git")); got != before {
		t.Fatalf("want the user's .git byte-identical (HEAD, index, refs, config, objects), it changed")
	}
	files := s.git.lsTree(t, t1.ID)
	for _, f := range files {
		if strings.HasPrefix(f, ".git/") || f == ".git" {
			t.Errorf("want no path of the user's .git in the checkpoint, got %s", f)
		}
	}
	if !slices.Contains(files, "staged.txt") || !slices.Contains(files, "a.txt") {
		t.Errorf("want the workspace's files in the checkpoint, got %v", files)
	}
	got := testkit.ReadTree(t, ws)
	if got["a.txt"] != "one\n" || got["secret.txt"] != "pw" || got["x.log"] != "log" {
		t.Errorf("want a.txt restored and the ignored secret.txt and x.log left alone, got %v", sorted(got))
	}
	if _, ok := got["b.txt"]; ok {
		t.Errorf("want b.txt, made after the checkpoint, removed")
	}
}

// lsTree lists the files of a checkpoint.
func (r *repo) lsTree(t testing.TB, commit string) []string {
	t.Helper()
	out, err := r.run(context.Background(), nil, "ls-tree", "-r", "--name-only", "-z", commit)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for f := range strings.SplitSeq(string(out), "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	return files
}

func TestIgnoreRulesOfTheEnclosingRepositoryApplyInASubdirectory(t *testing.T) {
	needGit(t)
	root, home := t.TempDir(), t.TempDir()
	userGit(t, root, "init", "-q")
	writeFiles(t, root, map[string]string{
		".gitignore":        "node_modules/\n/sub/build/\n/other/\n*.tmp\n!keep.tmp\n",
		".git/info/exclude": "private.txt\n",
		"sub/.gitignore":    "local.txt\n",
		"sub/a.go":          "a", "sub/x.tmp": "t", "sub/keep.tmp": "k", "sub/private.txt": "p",
		"sub/build/out": "o", "sub/node_modules/m/i.js": "m", "sub/local.txt": "l", "sub/lib/build/src.go": "s",
	})
	s := openStore(t, home, filepath.Join(root, "sub"), "s1")
	got := s.git.lsTree(t, take(t, s).ID)
	want := []string{".gitignore", "a.go", "keep.tmp", "lib/build/src.go"}
	if !slices.Equal(got, want) {
		t.Errorf("want the checkpoint to hold %v, got %v", want, got)
	}
}

func TestLargeFilesAreLeftOutListedAndNotOverwritten(t *testing.T) {
	needGit(t)
	s, ws := newStore(t, map[string]string{"small": "s", "data.bin": "tiny at first"}, func(o *Options) { o.MaxFileBytes = 64 })
	t1 := take(t, s)
	big := strings.Repeat("x", 100)
	writeFiles(t, ws, map[string]string{"data.bin": big, "huge.bin": big})
	t2 := take(t, s)
	var skipped []string
	for _, f := range t2.Skipped {
		skipped = append(skipped, f.Path)
		if f.Size != 100 || !strings.Contains(f.Reason, "larger than 64 B") {
			t.Errorf("want %s listed with its size and why, got %+v", f.Path, f)
		}
	}
	if !slices.Equal(skipped, []string{"data.bin", "huge.bin"}) {
		t.Errorf("want both large files listed as skipped, got %v", skipped)
	}
	plan, _ := restoreTo(t, s, t1.ID)
	if !slices.Equal(plan.Kept, []string{"data.bin"}) {
		t.Errorf("want data.bin, which no checkpoint holds as it is now, kept, got %v", plan.Kept)
	}
	if got := testkit.ReadTree(t, ws); got["data.bin"] != big || got["huge.bin"] != big {
		t.Errorf("want the large files left as they are, got %v", sorted(got))
	}
}

func TestCheckpointsHoldTheBytesOnDiskWhateverTheAttributes(t *testing.T) {
	needGit(t)
	ws, home := t.TempDir(), t.TempDir()
	content := map[string]string{".gitattributes": "* text eol=crlf\n*.txt filter=lfs ident\n", "a.txt": "lf\nand crlf\r\n$Id$\n"}
	writeFiles(t, ws, content)
	s := openStore(t, home, ws, "s1")
	t1 := take(t, s)
	writeFiles(t, ws, map[string]string{"a.txt": "changed"})
	restoreTo(t, s, t1.ID)
	wantTree(t, ws, content)
}

func TestATakeAfterAKilledGitRemovesItsStaleLock(t *testing.T) {
	needGit(t)
	s, ws := newStore(t, map[string]string{"a": "1"})
	take(t, s)
	if err := os.WriteFile(filepath.Join(s.git.dir, "index.lock"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, ws, map[string]string{"a": "2"})
	if got := take(t, s).Changed; !slices.Equal(got, []string{"a"}) {
		t.Errorf("want the change seen despite the stale index.lock, got %v", got)
	}
}

func TestADamagedStoreIsMovedAsideAndReplaced(t *testing.T) {
	needGit(t)
	s, ws := newStore(t, map[string]string{"a": "1"})
	old := take(t, s)
	// Objects and HEAD overwritten with garbage: git cannot read the
	// repository.
	if err := os.RemoveAll(filepath.Join(s.git.dir, "objects")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(s.git.dir, "objects"), []byte("garbage"), 0o600)
	os.WriteFile(filepath.Join(s.git.dir, "HEAD"), []byte("garbage"), 0o600)
	writeFiles(t, ws, map[string]string{"a": "2"})
	snap, err := s.Take(context.Background())
	if err != nil {
		t.Fatalf("want a new store started, got %v", err)
	}
	if snap.ID == "" || !strings.Contains(snap.Notice, "damaged") || !strings.Contains(snap.Notice, "moved it to") {
		t.Errorf("want a checkpoint and a notice saying the damaged store was moved aside, got %+v", snap)
	}
	if _, err := s.Plan(context.Background(), old.ID, snap.ID); !errors.Is(err, ErrMissing) {
		t.Errorf("want the old checkpoint reported missing, got %v", err)
	}
}

func TestADeletedStoreStartsAgainAndReportsOldCheckpointsMissing(t *testing.T) {
	needGit(t)
	s, _ := newStore(t, map[string]string{"a": "1"})
	old := take(t, s)
	if err := os.RemoveAll(s.Path()); err != nil {
		t.Fatal(err)
	}
	now := take(t, s)
	_, err := s.Plan(context.Background(), old.ID, now.ID)
	if !errors.Is(err, ErrMissing) || !strings.Contains(err.Error(), "pruned, or the store was removed") {
		t.Errorf("want a clear missing-checkpoint error, got %v", err)
	}
}

func TestRestoreNeverWritesOutsideTheWorkspaceOrIntoGit(t *testing.T) {
	needGit(t)
	ws, home, outside := t.TempDir(), t.TempDir(), t.TempDir()
	writeFiles(t, ws, map[string]string{"a": "1"})
	s := openStore(t, home, ws, "s1")
	t1 := take(t, s)
	blob := strings.TrimSpace(s.git.mustRun(t, "rev-parse", t1.ID+":a"))
	// A link in the workspace to a directory outside it.
	if err := os.Symlink(outside, filepath.Join(ws, "out")); err != nil {
		t.Fatal(err)
	}
	plan := Plan{Kind: KindGit, Target: t1.ID, Before: t1.ID, Changes: []Change{
		{Path: ".git/config", To: State{Blob: blob, Mode: modeFile}},
		{Path: "../escape", To: State{Blob: blob, Mode: modeFile}},
		{Path: "out/planted", To: State{Blob: blob, Mode: modeFile}},
	}}
	_, err := s.Restore(context.Background(), plan, NewToken())
	if err == nil {
		t.Fatal("want a restore through a link out of the workspace refused, got success")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("want nothing written outside the workspace, found %v", entries)
	}
	if _, err := os.Stat(filepath.Join(ws, ".git")); !os.IsNotExist(err) {
		t.Errorf("want no .git written by a restore, got %v", err)
	}
}

func TestAFailedRestorePutsBackWhatItChanged(t *testing.T) {
	needGit(t)
	s, ws := newStore(t, map[string]string{"a": "old", "z/f": "zf"})
	t1 := take(t, s)
	writeFiles(t, ws, map[string]string{"a": "new"})
	os.RemoveAll(filepath.Join(ws, "z"))
	before := take(t, s)
	plan, err := s.Plan(context.Background(), t1.ID, before.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Something not in any checkpoint (a file the user made) now sits
	// where the restore needs a directory, so writing z/f fails after a
	// was written.
	writeFiles(t, ws, map[string]string{"z": "in the way"})
	_, err = s.Restore(context.Background(), plan, NewToken())
	if err == nil || !strings.Contains(err.Error(), "left as it was") || !strings.Contains(err.Error(), "z/f") {
		t.Fatalf("want the failure named and the workspace left as it was, got %v", err)
	}
	wantTree(t, ws, map[string]string{"a": "new", "z": "in the way"})
	if _, err := os.Stat(s.journalPath()); !os.IsNotExist(err) {
		t.Errorf("want no journal left after a restore that was put back, got %v", err)
	}
}

func (r *repo) mustRun(t testing.TB, args ...string) string {
	t.Helper()
	out, err := r.run(context.Background(), nil, args...)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// Git's untracked cache skips directories whose stat data it trusts; a
// file made at once after a checkpoint, in the same directory, must still
// be in the next one.
func TestAFileMadeRightAfterACheckpointIsInTheNext(t *testing.T) {
	needGit(t)
	s, ws := newStore(t, map[string]string{"d/keep": "1"})
	take(t, s)
	for i := range 100 {
		name := fmt.Sprintf("d/new%03d", i)
		writeFiles(t, ws, map[string]string{name: "x"})
		if got := take(t, s).Changed; !slices.Equal(got, []string{name}) {
			t.Fatalf("round %d: want %s listed as changed, got %v", i, name, got)
		}
	}
}

func TestAWorkspaceThatIsNotADirectoryIsRefusedWithWhy(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	writeFiles(t, filepath.Dir(file), map[string]string{"file": "x"})
	for _, ws := range []string{file, filepath.Join(t.TempDir(), "missing")} {
		_, err := Open(Options{Home: t.TempDir(), Workspace: ws, Session: "s1"})
		if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "is not a directory tack can read") {
			t.Errorf("want %s refused as not a directory, got %v", ws, err)
		}
	}
}

func TestAStoreThatCannotBeWrittenSaysToMakeTackHomeWritable(t *testing.T) {
	eachStoreKind(t, func(t *testing.T, kind storeKind) {
		ws, home := t.TempDir(), t.TempDir()
		writeFiles(t, ws, map[string]string{"a": "1"})
		// A file where the checkpoints directory would go: no
		// permission bits stop root, this stops everyone.
		writeFiles(t, home, map[string]string{"checkpoints": "in the way"})
		s := openStore(t, home, ws, "s1", kind.mod...)
		if kind.name == "files" {
			if err := s.Preserve([]string{"a"}); !errors.Is(err, ErrUnavailable) {
				t.Errorf("want keeping a's content refused, got %v", err)
			}
		}
		_, err := s.Take(context.Background())
		if msg := fmt.Sprint(err); !errors.Is(err, ErrUnavailable) || !strings.Contains(msg, "make $TACK_HOME") || !strings.Contains(msg, "writable") {
			t.Errorf("want a checkpoint refused with what to do, got %v", err)
		}
		wantTree(t, ws, map[string]string{"a": "1"})
	})
}

// A new process primes the store while the user types; its first
// checkpoint must still list what changed since the session's last one
// (made outside tack while it was closed), and prime takes none itself.
func TestPrimingKeepsWhatChangedSinceTheSessionsLastCheckpoint(t *testing.T) {
	needGit(t)
	ws, home := t.TempDir(), t.TempDir()
	writeFiles(t, ws, map[string]string{"a": "1", "b": "1"})
	last := take(t, openStore(t, home, ws, "s1"))
	writeFiles(t, ws, map[string]string{"a": "changed while tack was closed", "c/new": "x"})
	s := openStore(t, home, ws, "s1", func(o *Options) { o.Last = last.ID })
	if err := s.Prime(context.Background()); err != nil {
		t.Fatal(err)
	}
	if refs := s.git.mustRun(t, "for-each-ref", refPrefix); strings.Count(refs, "\n") != 1 {
		t.Errorf("want priming to add no checkpoint, the refs are\n%s", refs)
	}
	if got := take(t, s).Changed; !slices.Equal(got, []string{"a", "c/new"}) {
		t.Errorf("want the first checkpoint after priming to list a and c/new, got %v", got)
	}
}

// The shadow repository is made without git's template: no sample hooks,
// and none of a user's init.templateDir, which could run in it.
func TestTheStoreIsMadeWithoutGitsTemplate(t *testing.T) {
	needGit(t)
	ws, home := t.TempDir(), t.TempDir()
	writeFiles(t, ws, map[string]string{"a": "1"})
	s := openStore(t, home, ws, "s1")
	if err := s.Prime(context.Background()); err != nil {
		t.Fatal(err)
	}
	if hooks, _ := os.ReadDir(filepath.Join(s.git.dir, "hooks")); len(hooks) > 0 {
		t.Errorf("want no hooks in the shadow repository, got %d (the first is %s)", len(hooks), hooks[0].Name())
	}
}
