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

// A remote's URL names the repository in any of git's forms; a local
// path names none.
func TestParseRemote(t *testing.T) {
	cc := Repo{Host: "github.com", Owner: "anthropics", Name: "claude-code"}
	for _, tt := range []struct {
		url  string
		want Repo
		ok   bool
	}{
		{"git@github.com:anthropics/claude-code.git", cc, true},
		{"github.com:anthropics/claude-code", cc, true},
		{"https://github.com/anthropics/claude-code.git", cc, true},
		{"https://user:token@github.com:443/anthropics/claude-code/", cc, true},
		{"ssh://git@gitlab.example.com:2222/group/sub/proj.git", Repo{Host: "gitlab.example.com", Owner: "group/sub", Name: "proj"}, true},
		{"/srv/git/proj.git", Repo{}, false},
		{"file:///srv/git/owner/proj.git", Repo{}, false},
		{"../proj", Repo{}, false},
		{"C:/repos/owner/proj", Repo{}, false},
		{"https://github.com/proj.git", Repo{}, false},
	} {
		if got, ok := parseRemote(tt.url); got != tt.want || ok != tt.ok {
			t.Errorf("%s: got %+v %v, want %+v %v", tt.url, got, ok, tt.want, tt.ok)
		}
	}
}

// Real git writes the config and names the worktrees: the origin is read
// from any work tree of the repository, and a linked worktree's name is
// the one git gave its directory under .git/worktrees, also where two
// worktrees' directories share a name.
func TestOriginAndWorktreeNameOfARealRepository(t *testing.T) {
	git := gitOrSkip(t)
	root := t.TempDir()
	main := filepath.Join(root, "main")
	if err := os.MkdirAll(filepath.Join(main, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	git.run(t, main, "init", "-q", "-b", "trunk")
	git.run(t, main, "commit", "-q", "--allow-empty", "-m", "first")
	if _, ok := Origin(main); ok {
		t.Error("a repository without an origin has one")
	}
	git.run(t, main, "remote", "add", "origin", "git@github.com:anthropics/claude-code.git")
	git.run(t, main, "remote", "add", "upstream", "https://example.com/other/fork.git")
	wt, other := filepath.Join(root, "feature-xyz"), filepath.Join(root, "elsewhere", "feature-xyz")
	git.run(t, main, "worktree", "add", "-q", "-b", "side", wt)
	git.run(t, main, "worktree", "add", "-q", "-b", "more", other)
	want := Repo{Host: "github.com", Owner: "anthropics", Name: "claude-code"}
	for _, dir := range []string{filepath.Join(main, "src"), wt, other} {
		if got, ok := Origin(dir); !ok || got != want {
			t.Errorf("%s: origin %+v %v, want %+v", dir, got, ok, want)
		}
		name := ""
		if dir != filepath.Join(main, "src") {
			name = filepath.Base(git.output(t, dir, "rev-parse", "--absolute-git-dir"))
		}
		if got := WorktreeName(dir); got != name {
			t.Errorf("%s: worktree %q, want git's %q", dir, got, name)
		}
	}
	if WorktreeName(other) == WorktreeName(wt) {
		t.Errorf("two worktrees named %q", WorktreeName(wt))
	}
}
