package checkpoint

import (
	"context"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/snapshots/testkit"
)

// t0 is the frozen clock of the tests.
var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func needGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed; the shadow repository tests need it (the files store has its own tests)")
	}
}

// openStore opens the store of ws under home for session id.
func openStore(t testing.TB, home, ws, id string, mod ...func(*Options)) *Store {
	t.Helper()
	o := Options{Home: home, Workspace: ws, Session: id, Now: func() time.Time { return t0 }}
	for _, f := range mod {
		f(&o)
	}
	s, err := Open(o)
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	return s
}

func take(t testing.TB, s *Store) Snapshot {
	t.Helper()
	snap, err := s.Take(context.Background())
	if err != nil {
		t.Fatalf("take a checkpoint: %v", err)
	}
	return snap
}

// restoreTo takes a checkpoint of the workspace now and restores target.
func restoreTo(t testing.TB, s *Store, target string) (Plan, Restored) {
	t.Helper()
	before := take(t, s)
	plan, err := s.Plan(context.Background(), target, before.ID)
	if err != nil {
		t.Fatalf("plan a restore of %s: %v", target, err)
	}
	token := NewToken()
	done, err := s.Restore(context.Background(), plan, token)
	if err != nil {
		t.Fatalf("restore %s: %v", target, err)
	}
	if err := s.Finish(token); err != nil {
		t.Fatalf("finish the restore: %v", err)
	}
	return plan, done
}

// writeFiles writes path → content into dir; a content starting with
// "->" makes a symlink, "x:" an executable.
func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		_ = os.Remove(full)
		var err error
		switch {
		case strings.HasPrefix(content, "->"):
			err = os.Symlink(strings.TrimPrefix(content, "->"), full)
		case strings.HasPrefix(content, "x:"):
			err = os.WriteFile(full, []byte(content), 0o755)
		default:
			err = os.WriteFile(full, []byte(content), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func wantTree(t testing.TB, dir string, want map[string]string) {
	t.Helper()
	got := testkit.ReadTree(t, dir)
	if !maps.Equal(got, want) {
		t.Fatalf("want the workspace to hold\n%v\ngot\n%v", sorted(want), sorted(got))
	}
}

func sorted(m map[string]string) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, k+"="+m[k])
	}
	return out
}

// userGit runs the user's own git in dir, with a clean environment.
func userGit(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=u", "GIT_AUTHOR_EMAIL=u@x", "GIT_COMMITTER_NAME=u", "GIT_COMMITTER_EMAIL=u@x"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func removeFile(t testing.TB, dir, p string) {
	t.Helper()
	if err := os.Remove(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
		t.Fatal(err)
	}
}

// storeKind is one of the two ways a store keeps checkpoints: the shadow
// git repository, or files when git is missing.
type storeKind struct {
	name string
	mod  []func(*Options)
}

// eachStoreKind runs test as a subtest for either kind of store; the git
// one skips where git is not installed.
func eachStoreKind(t *testing.T, test func(t *testing.T, kind storeKind)) {
	for _, kind := range []storeKind{{"git", nil}, {"files", []func(*Options){noGit}}} {
		t.Run(kind.name, func(t *testing.T) {
			if kind.name == "git" {
				needGit(t)
			}
			test(t, kind)
		})
	}
}

// newStore opens session s1's store of a new workspace holding files and
// returns it with the workspace.
func newStore(t testing.TB, files map[string]string, mod ...func(*Options)) (*Store, string) {
	t.Helper()
	ws := t.TempDir()
	writeFiles(t, ws, files)
	return openStore(t, t.TempDir(), ws, "s1", mod...), ws
}
