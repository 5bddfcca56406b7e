package prompt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tack-agent/tack/snapshots/testkit"
)

// A CLAUDE.md's @imports follow it, as Claude Code reads them: relative to
// the importing file, depth first, each once, never from code, up to five
// hops, and never from outside the repository, however they are named.
func TestClaudeMDImportsFollowItFromInsideTheRepository(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	testkit.WriteTree(t, root, map[string]string{
		"outside.md":     "secret outside the repository",
		"repo/.git/HEAD": "ref",
		"repo/CLAUDE.md": "# Project\nSee @README.md. for an overview and @docs/style.md\n" +
			"Ask @alice; mail bob@example.com.\n`@code/span.md`\n```\n@code/fence.md\n```\n" +
			"Not these: @../outside.md @~/.ssh/id_rsa @" + filepath.Join(root, "outside.md") + " @docs/link.md @docs\n",
		"repo/README.md":     "readme",
		"repo/docs/style.md": "style, which names @../README.md again and @hop/1.md",
		"repo/docs/hop/1.md": "hop 1 @2.md",
		"repo/docs/hop/2.md": "hop 2 @3.md",
		"repo/docs/hop/3.md": "hop 3 @4.md",
		"repo/docs/hop/4.md": "hop 4 @5.md",
		"repo/docs/hop/5.md": "hop 5, one too deep",
		"repo/code/span.md":  "in a code span",
		"repo/code/fence.md": "in a fence",
	})
	if err := os.Symlink(filepath.Join(root, "outside.md"), filepath.Join(repo, "docs", "link.md")); err != nil {
		t.Fatal(err)
	}
	got, err := FindInstructions(Homes{}, repo)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, in := range got {
		rel, _ := filepath.Rel(repo, in.Path)
		paths = append(paths, rel)
	}
	want := "CLAUDE.md README.md docs/style.md docs/hop/1.md docs/hop/2.md docs/hop/3.md docs/hop/4.md"
	if strings.Join(paths, " ") != want {
		t.Errorf("want the instructions %s, got %s", want, strings.Join(paths, " "))
	}
	for _, in := range got {
		if strings.Contains(in.Text, "secret") && !strings.HasSuffix(in.Path, "CLAUDE.md") {
			t.Errorf("a file outside the repository was imported: %s", in.Path)
		}
	}
}

// AGENTS.md is codex's format, which has no imports: its @names stay text.
func TestAgentsMDHasNoImports(t *testing.T) {
	repo := t.TempDir()
	testkit.WriteTree(t, repo, map[string]string{".git/HEAD": "ref", "AGENTS.md": "See @README.md", "README.md": "readme"})
	got, err := FindInstructions(Homes{}, repo)
	if err != nil || len(got) != 1 {
		t.Fatalf("want AGENTS.md alone, got %+v (%v)", got, err)
	}
}
