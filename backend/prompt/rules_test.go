package prompt

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tack-agent/tack/snapshots/testkit"
)

// Claude Code's rules, laid out as its documentation lays them out: the
// user's ~/.claude/rules and the project's .claude/rules, every .md file
// below them. Rules for every file join the instructions of their folder;
// rules scoped by paths come last, with the globs the prompt names.
func TestClaudeCodeRulesJoinTheInstructions(t *testing.T) {
	root := t.TempDir()
	home, repo := filepath.Join(root, "home"), filepath.Join(root, "repo")
	testkit.WriteTree(t, root, map[string]string{
		"home/.claude/CLAUDE.md":           "user memory",
		"home/.claude/rules/prefs.md":      "user rule",
		"home/.claude/rules/go.md":         "---\npaths: \"**/*.go\"\n---\nuser go rule",
		"repo/.git/HEAD":                   "ref",
		"repo/CLAUDE.md":                   "project memory",
		"repo/CLAUDE.local.md":             "local memory",
		"repo/.claude/rules/testing.md":    "---\ndescription: no paths here\n---\ntesting rule",
		"repo/.claude/rules/api/design.md": "---\npaths:\n  - \"src/api/**/*.ts\"\n  - \"tests/**/*.test.ts\"\n---\napi rule",
		"repo/.claude/rules/front.md":      "---\npaths: src/**/*.{ts,tsx}\n---\nfront rule",
		"repo/.claude/rules/broken.md":     "---\npaths:\n\t- x\n---\nbroken rule",
		"repo/.claude/rules/notes.txt":     "not a rule",
	})
	got, err := FindInstructions(Homes{User: home}, repo)
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	for _, in := range got {
		seen = append(seen, fmt.Sprintf("%s%q", strings.TrimSpace(in.Text[strings.LastIndex(in.Text, "\n")+1:]), in.Paths))
	}
	want := []string{`user memory[]`, `user rule[]`, `project memory[]`, `local memory[]`, `broken rule[]`, `testing rule[]`,
		`user go rule["**/*.go"]`, `api rule["src/api/**/*.ts" "tests/**/*.test.ts"]`, `front rule["src/**/*.{ts,tsx}"]`}
	if !slices.Equal(seen, want) {
		t.Errorf("instructions\n got  %q\n want %q", seen, want)
	}
	p := Build("", repo, nil, got)
	if !strings.Contains(p, `path="`+filepath.Join(repo, ".claude", "rules", "front.md")+`" applies_to="src/**/*.{ts,tsx}">`) {
		t.Errorf("the prompt does not scope the rule:\n%s", p)
	}
}

// Without a rules folder nothing changes; run from the home folder, the
// user's rules come once.
func TestRulesOnceFromTheHomeFolder(t *testing.T) {
	home := t.TempDir()
	testkit.WriteFile(t, filepath.Join(home, ".claude", "rules", "a.md"), "only once")
	got, err := FindInstructions(Homes{User: home}, home)
	if err != nil || len(got) != 1 || got[0].Text != "only once" {
		t.Errorf("got %+v (%v)", got, err)
	}
	if got, err := FindInstructions(Homes{}, t.TempDir()); err != nil || len(got) != 0 {
		t.Errorf("without rules: %+v (%v)", got, err)
	}
	if err := os.Chmod(filepath.Join(home, ".claude", "rules", "a.md"), 0); err == nil && os.Getuid() != 0 {
		if _, err := FindInstructions(Homes{User: home}, t.TempDir()); err == nil || !strings.Contains(err.Error(), "make them readable") {
			t.Errorf("an unreadable rule: %v", err)
		}
	}
}
