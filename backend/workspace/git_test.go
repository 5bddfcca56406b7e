package workspace

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tack-agent/tack/snapshots/testkit"
)

func TestBranchReadsHEAD(t *testing.T) {
	main, wt, plain := t.TempDir(), t.TempDir(), t.TempDir()
	testkit.WriteTree(t, main, map[string]string{
		".git/HEAD": "ref: refs/heads/feature/walker\n", "src/x.go": "",
		".git/worktrees/wt/HEAD": "0123456789abcdef0123456789abcdef01234567\n", ".git/worktrees/wt/commondir": "../..\n",
	})
	testkit.WriteTree(t, wt, map[string]string{".git": "gitdir: " + filepath.Join(main, ".git", "worktrees", "wt") + "\n"})
	sub := t.TempDir()
	testkit.WriteTree(t, sub, map[string]string{".git": "gitdir: ../modules/sub\n"})
	testkit.WriteTree(t, filepath.Dir(sub), map[string]string{"modules/sub/HEAD": "ref: refs/heads/main\n"})
	tests := []struct{ name, dir, want string }{
		{"a branch", main, "feature/walker"},
		{"from a subdirectory", filepath.Join(main, "src"), "feature/walker"},
		{"a detached linked worktree", wt, "0123456"},
		{"a submodule's .git file, relative", sub, "main"},
		{"outside a repository", plain, ""},
	}
	for _, tt := range tests {
		if got := Branch(tt.dir); got != tt.want {
			t.Errorf("%s: want %q, got %q", tt.name, tt.want, got)
		}
	}
}

func TestBranchOfARealWorktree(t *testing.T) {
	git := gitOrSkip(t)
	root := t.TempDir()
	main, wt := filepath.Join(root, "main"), filepath.Join(root, "wt")
	if err := os.Mkdir(main, 0o755); err != nil {
		t.Fatal(err)
	}
	git.run(t, main, "init", "-q", "-b", "trunk")
	git.run(t, main, "commit", "-q", "--allow-empty", "-m", "first")
	git.run(t, main, "worktree", "add", "-q", "-b", "side", wt)
	if got := Branch(main); got != "trunk" {
		t.Errorf("main work tree: want trunk, got %q", got)
	}
	if got := Branch(wt); got != "side" {
		t.Errorf("linked worktree: want side, got %q", got)
	}
	git.run(t, wt, "checkout", "-q", "--detach")
	head := git.output(t, wt, "rev-parse", "--short=7", "HEAD")
	if got := Branch(wt); got != head {
		t.Errorf("detached worktree: want %q, got %q", head, got)
	}
}
