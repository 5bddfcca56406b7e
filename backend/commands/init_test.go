package commands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// /init names AGENTS.md unless the repository keeps its instructions in
// CLAUDE.md alone, says which exist so the model improves rather than
// replaces them, and ends with what the user asked to stress.
func TestInitTaskNamesTheFileToWrite(t *testing.T) {
	for _, c := range []struct {
		name     string
		files    []string
		file     string
		now      string
		notAFile string
	}{
		{"none", nil, "Write AGENTS.md at the root", "There is none yet.", ""},
		{"AGENTS.md", []string{"AGENTS.md"}, "Write AGENTS.md at the root", "AGENTS.md exists already", "CLAUDE.md exists"},
		{"CLAUDE.md alone", []string{"CLAUDE.md"}, "Write CLAUDE.md at the root", "CLAUDE.md exists already", "AGENTS.md exists"},
		{"both", []string{"AGENTS.md", "CLAUDE.md"}, "Write AGENTS.md at the root", "AGENTS.md and CLAUDE.md exist already", ""},
	} {
		dir := t.TempDir()
		for _, f := range c.files {
			os.WriteFile(filepath.Join(dir, f), []byte("# old\n"), 0o600)
		}
		task, err := initTask(dir, "")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(task, c.file) || !strings.Contains(task, c.now) || c.notAFile != "" && strings.Contains(task, c.notAFile) {
			t.Errorf("%s: task starts %q", c.name, task[:200])
		}
		if strings.Contains(task, "%") {
			t.Errorf("%s: a placeholder is left: %q", c.name, task)
		}
	}
	task, _ := initTask(t.TempDir(), "the e2e tests need docker")
	if !strings.HasSuffix(task, "attend to this too: the e2e tests need docker") {
		t.Errorf("the focus is not at the end: %q", task)
	}
}
