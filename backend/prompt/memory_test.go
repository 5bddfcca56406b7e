package prompt

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tack-agent/tack/snapshots/testkit"
)

// Project folders are named as Claude Code names them; the expectations
// are folder names seen under ~/.claude/projects, as tools that read
// Claude Code's files (claude-code-plus's ProjectPathUtils, hapi's
// getProjectPath) record them.
func TestProjectNameIsClaudeCodes(t *testing.T) {
	for path, want := range map[string]string{
		"/home/erio/codes/claude-code-plus": "-home-erio-codes-claude-code-plus",
		"/Users/erio/.claude-code-router":   "-Users-erio--claude-code-router",
		`C:\Users\user\project`:             "C--Users-user-project",
		"/home/u/my_project v2":             "-home-u-my-project-v2",
		"/home/josé/🙂":                      "-home-jos----",
	} {
		if got := projectName(path); got != want {
			t.Errorf("projectName(%q) = %q, want %q", path, got, want)
		}
	}
}

// The memory of a repository is its main work tree's, from a subfolder
// and from a linked worktree alike; real git makes the worktree.
func TestClaudeMemoryDirIsTheMainWorkTrees(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed; the worktree case needs it")
	}
	home, repo := t.TempDir(), t.TempDir()
	linked := filepath.Join(t.TempDir(), "linked")
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "first"},
		{"worktree", "add", "-q", linked}} {
		if out, err := exec.Command(git, append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	testkit.WriteFile(t, filepath.Join(linked, "sub", "x.go"), "package x")
	want := filepath.Join(home, ".claude", "projects", projectName(repo), "memory")
	for _, cwd := range []string{repo, filepath.Join(linked, "sub")} {
		if got := ClaudeMemoryDir(home, cwd); got != want {
			t.Errorf("ClaudeMemoryDir(%s) = %s, want %s", cwd, got, want)
		}
	}
	outside := t.TempDir()
	if got, want := ClaudeMemoryDir(home, outside), filepath.Join(home, ".claude", "projects", projectName(outside), "memory"); got != want {
		t.Errorf("outside a repository: %s, want %s", got, want)
	}
}

// A path too long for a folder name is cut, and Claude Code adds a hash
// of its own: the one folder that starts with the cut name is taken.
func TestClaudeMemoryDirOfALongPath(t *testing.T) {
	home := t.TempDir()
	cwd := filepath.Join(t.TempDir(), strings.Repeat("deep/", 50))
	name := projectName(cwd)[:maxProjectName] + "-1a2b3c"
	testkit.WriteFile(t, filepath.Join(home, ".claude", "projects", name, "memory", "MEMORY.md"), "notes")
	if got, want := ClaudeMemoryDir(home, cwd), filepath.Join(home, ".claude", "projects", name, "memory"); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// MEMORY.md loads as far as Claude Code loads it, its first 200 lines,
// and says where the rest is.
func TestAutoMemoryLoadsTheFirstLines(t *testing.T) {
	dir := t.TempDir()
	if _, ok, err := AutoMemory(dir); ok || err != nil {
		t.Fatalf("no MEMORY.md: ok %v, err %v", ok, err)
	}
	var lines []string
	for i := range 250 {
		lines = append(lines, "- note "+strings.Repeat("x", i%7))
	}
	testkit.WriteFile(t, filepath.Join(dir, "MEMORY.md"), strings.Join(lines, "\n")+"\n")
	in, ok, err := AutoMemory(dir)
	if !ok || err != nil {
		t.Fatalf("ok %v, err %v", ok, err)
	}
	got := strings.Split(in.Text, "\n")
	if len(got) != 201 || got[199] != lines[199] || !strings.Contains(got[200], "the rest of "+filepath.Join(dir, "MEMORY.md")+" is not loaded") {
		t.Errorf("loaded %d lines, ending %q", len(got), got[len(got)-2:])
	}
	testkit.WriteFile(t, filepath.Join(dir, "MEMORY.md"), strings.Join(lines[:200], "\n")+"\n")
	if in, _, _ := AutoMemory(dir); strings.Contains(in.Text, "not loaded") {
		t.Errorf("200 lines were cut: %q", in.Text[len(in.Text)-80:])
	}
}
