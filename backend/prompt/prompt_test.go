package prompt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tack-agent/tack/snapshots/testkit"
)

func TestInstructionsComeFromHomeThenRepoRootDownToCwd(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	repo := filepath.Join(root, "repo")
	cwd := filepath.Join(repo, "pkg", "sub")
	testkit.WriteFile(t, filepath.Join(home, "AGENTS.md"), "home rules")
	testkit.WriteFile(t, filepath.Join(repo, ".git", "HEAD"), "ref")
	testkit.WriteFile(t, filepath.Join(repo, "AGENTS.md"), "repo rules")
	testkit.WriteFile(t, filepath.Join(repo, "CLAUDE.md"), "ignored: AGENTS.md wins")
	testkit.WriteFile(t, filepath.Join(repo, "pkg", "CLAUDE.md"), "pkg rules")
	testkit.WriteFile(t, filepath.Join(repo, "pkg", "sub", ".claude", "CLAUDE.md"), "sub rules")
	if err := os.MkdirAll(cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := FindInstructions(Homes{Tack: home}, cwd)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, in := range got {
		texts = append(texts, in.Text)
	}
	want := "home rules|repo rules|pkg rules|sub rules"
	if strings.Join(texts, "|") != want {
		t.Fatalf("want %q, got %q", want, strings.Join(texts, "|"))
	}
}

func TestInstructionsAreCappedWithANotice(t *testing.T) {
	root := t.TempDir()
	testkit.WriteFile(t, filepath.Join(root, "AGENTS.md"), strings.Repeat("x", MaxInstructions+100))
	got, err := FindInstructions(Homes{}, root)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !strings.Contains(got[0].Text, "[instructions cut") {
		t.Fatalf("want one cut instruction with a notice, got %d", len(got))
	}
	if len(got[0].Text) > MaxInstructions+200 {
		t.Fatalf("instructions not capped: %d bytes", len(got[0].Text))
	}
}

func TestBuildIsByteStable(t *testing.T) {
	ins := []Instruction{{Path: "/r/AGENTS.md", Text: "rules\n"}}
	a := Build("", "/r", nil, ins)
	b := Build("", "/r", nil, ins)
	if a != b {
		t.Fatal("the same inputs must give the same prompt")
	}
	if !strings.Contains(a, `<instructions path="/r/AGENTS.md">`) || !strings.Contains(a, "Paths prefixed with @") {
		t.Fatalf("prompt misses its parts:\n%s", a)
	}
}

func TestUnreadableInstructionsNameTheFileAndTheFix(t *testing.T) {
	root := t.TempDir()
	bad := filepath.Join(root, "AGENTS.md")
	if err := os.Mkdir(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := FindInstructions(Homes{}, root)
	if err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "make it a readable file or remove it") {
		t.Fatalf("want an error naming %s and the fix, got %v", bad, err)
	}
}

// The user's own instructions come from TACK_HOME, else from where codex or
// Claude Code keeps them, so a user's rules come along when they switch:
// the first folder that has a file is the only one read.
func TestUserInstructionsFallBackToCodexThenClaudeCode(t *testing.T) {
	user, repo := t.TempDir(), t.TempDir()
	home := filepath.Join(user, ".tack")
	testkit.WriteTree(t, user, map[string]string{".claude/CLAUDE.md": "claude rules", ".codex/AGENTS.md": "codex rules",
		".claude/style.md": "style", "notes.md": "outside ~/.claude"})
	only := func(want string) {
		t.Helper()
		got, err := FindInstructions(Homes{Tack: home, Codex: filepath.Join(user, ".codex"), User: user}, repo)
		if err != nil || len(got) != 1 || got[0].Text != want {
			t.Errorf("want only %q, got %+v (%v)", want, got, err)
		}
	}
	only("codex rules")
	os.Remove(filepath.Join(user, ".codex", "AGENTS.md"))
	only("claude rules")
	testkit.WriteFile(t, filepath.Join(user, ".claude", "CLAUDE.md"), "claude rules @~/.claude/style.md @~/notes.md")
	if got, _ := FindInstructions(Homes{Tack: home, Codex: filepath.Join(user, ".codex"), User: user}, repo); len(got) != 2 || got[1].Text != "style" {
		t.Errorf("want ~/.claude/CLAUDE.md and the file it imports from ~/.claude, got %+v", got)
	}
	testkit.WriteFile(t, filepath.Join(user, ".claude", "CLAUDE.md"), "claude rules")
	testkit.WriteFile(t, filepath.Join(home, "AGENTS.md"), "tack rules")
	only("tack rules")
}

// codex's AGENTS.override.md takes AGENTS.md's place in its directory, and
// Claude Code's CLAUDE.local.md joins the directory's instructions, with
// its imports, as each tool reads them.
func TestOverrideAndLocalInstructionsAreRead(t *testing.T) {
	repo := t.TempDir()
	testkit.WriteFile(t, filepath.Join(repo, ".git", "HEAD"), "ref")
	testkit.WriteFile(t, filepath.Join(repo, "AGENTS.md"), "shared rules")
	testkit.WriteFile(t, filepath.Join(repo, "AGENTS.override.md"), "my override")
	testkit.WriteFile(t, filepath.Join(repo, "CLAUDE.local.md"), "my local notes, see @notes/more.md")
	testkit.WriteFile(t, filepath.Join(repo, "notes", "more.md"), "more notes")
	got, err := FindInstructions(Homes{Tack: t.TempDir()}, repo)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, in := range got {
		texts = append(texts, in.Text)
	}
	if want := "my override|my local notes, see @notes/more.md|more notes"; strings.Join(texts, "|") != want {
		t.Errorf("want %q, got %q", want, strings.Join(texts, "|"))
	}
}
