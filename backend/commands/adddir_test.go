package commands

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tack-agent/tack/snapshots/testkit"
)

// fakeWorkDirs is a workspace and the directories added to it.
type fakeWorkDirs struct{ dirs []string }

func (f *fakeWorkDirs) Dirs() []string { return slices.Clone(f.dirs) }
func (f *fakeWorkDirs) Add(dir string) { f.dirs = append(f.dirs, dir) }

func TestAddDirAddsADirectoryOrSaysWhatToDoInstead(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	ws, lib, tackHome := filepath.Join(home, "ws"), filepath.Join(root, "lib"), filepath.Join(home, ".tack")
	testkit.WriteTree(t, root, map[string]string{
		"home/ws/sub/a.go": "package a\n", "home/ws/notes.txt": "x\n", "lib/b.go": "package b\n",
		"home/.tack/sessions/s.jsonl": "{}\n", "home/.tack/credentials": "k\n",
	})
	if err := os.Symlink(tackHome, filepath.Join(root, "to-tack")); err != nil {
		t.Fatal(err)
	}
	added := "Added " + lib + " as a working directory for this session. To keep it in later sessions, start tack with --add-dir " +
		lib + ", or list it in permissions.additionalDirectories of ~/.claude/settings.json."
	homeWarning := "\nWarning: it holds your whole home directory, so sandboxed commands may now write anywhere in it " +
		"(tack's home stays hidden, shell start-up files and git hooks read-only). Start a new session (/new) to work without it."
	refusedHome := " is tack's home directory or lies in it (" + tackHome + "): it holds your credentials and sessions, " +
		"which tack keeps out of the model's and commands' reach. Name a directory outside it."
	cases := []struct {
		input, want string
		ok          bool
	}{
		{"", "Please provide a directory path: /add-dir PATH (relative to the workspace; ~ is your home directory).", false},
		{"../../lib", added, true},
		{lib + "/", added, true},
		{"~/../lib", added, true},
		{"missing", "Path " + ws + "/missing was not found. Check the spelling, or create the directory first.", false},
		{"notes.txt", "notes.txt is not a directory, and it lies in the existing working directory " + ws + "; nothing to add.", false},
		{"../../lib/b.go", "../../lib/b.go is not a directory. Did you mean to add the parent directory " + lib + "? Type /add-dir " + lib, false},
		{"sub", "sub is already accessible within the existing working directory " + ws + "; nothing to add.", false},
		{".", ". is already accessible within the existing working directory " + ws + "; nothing to add.", false},
		{"~/.tack", "~/.tack" + refusedHome, false},
		{"~/.tack/sessions", "~/.tack/sessions" + refusedHome, false},
		{filepath.Join(root, "to-tack"), filepath.Join(root, "to-tack") + refusedHome, false},
		{"~", strings.ReplaceAll(added, lib, home) + homeWarning, true},
		{"/", strings.ReplaceAll(added, lib, "/") + homeWarning, true},
	}
	for _, c := range cases {
		dirs := &fakeWorkDirs{dirs: []string{ws}}
		res := AddDirCommand(dirs, tackHome, home).Handler(context.Background(), Invocation{Name: "add-dir", RawInput: " " + c.input})
		if res.Text != c.want || (res.Kind != Error) != c.ok {
			t.Errorf("/add-dir %s:\n want %s (success %v)\n got  %s (%s)", c.input, c.want, c.ok, res.Text, res.Kind)
		}
		if got := len(dirs.dirs) == 2; got != c.ok {
			t.Errorf("/add-dir %s: want a directory added %v, got the directories %v", c.input, c.ok, dirs.dirs)
		}
	}
}

func TestAddDirTwiceSaysTheDirectoryIsThere(t *testing.T) {
	ws, lib := t.TempDir(), t.TempDir()
	dirs := &fakeWorkDirs{dirs: []string{ws}}
	cmd := AddDirCommand(dirs, "", "")
	cmd.Handler(context.Background(), Invocation{RawInput: " " + lib})
	res := cmd.Handler(context.Background(), Invocation{RawInput: " " + lib + "/sub/.."})
	want := lib + "/sub/.. is already accessible within the existing working directory " + lib + "; nothing to add."
	if res.Kind != Error || res.Text != want || len(dirs.dirs) != 2 {
		t.Fatalf("want %q and the directory added once, got %q (%s), %v", want, res.Text, res.Kind, dirs.dirs)
	}
}
