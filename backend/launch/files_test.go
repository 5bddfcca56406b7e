package launch

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// TestCompletionAndGlobListTheSameFiles opens a session in a work tree
// with every kind of ignore rule and checks that `@` completion (Files)
// and the model's glob and grep tools keep exactly the same files, with
// the global excludes file at git's default place and where
// core.excludesFile in ~/.gitconfig moves it (the default is then not
// read: its rule would hide a.go).
func TestCompletionAndGlobListTheSameFiles(t *testing.T) {
	for _, tt := range []struct {
		name     string
		userHome map[string]string
	}{
		{"the default ~/.config/git/ignore", map[string]string{".config/git/ignore": "*.swp\n"}},
		{"core.excludesFile in ~/.gitconfig", map[string]string{
			".gitconfig": "[core]\n\texcludesFile = ~/global.ignore\n", "global.ignore": "*.swp\n", ".config/git/ignore": "*.go\n"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := sessionInEveryRuleTree(t, tt.userHome)
			want := []string{".gitignore", ".ignore", "a.go", "keep.log", "sub/.gitignore", "sub/b.go", "sub/debug.log", "sub/deep/c.go"}
			completion := completed(t, s)
			if !slices.Equal(completion, want) {
				t.Errorf("completion: want %q, got %q", want, completion)
			}
			if globbed := toolPaths(t, s, "glob", map[string]string{"pattern": "*"}); !slices.Equal(globbed, completion) {
				t.Errorf("glob and completion differ:\nglob       %q\ncompletion %q", globbed, completion)
			}
			grepped := toolPaths(t, s, "grep", map[string]string{"pattern": ".", "output_mode": "files_with_matches"})
			if !slices.Equal(grepped, completion) {
				t.Errorf("grep and completion differ:\ngrep       %q\ncompletion %q", grepped, completion)
			}
		})
	}
}

// sessionInEveryRuleTree opens a session in a work tree with every kind of
// ignore rule (.gitignore with negations and nesting, .ignore,
// .git/info/exclude, the global excludes, other VCS directories), every
// file holding a line for grep to find; userHome is written into HOME.
func sessionInEveryRuleTree(t *testing.T, userHome map[string]string) *Session {
	t.Helper()
	home, cwd, user := t.TempDir(), t.TempDir(), t.TempDir()
	testkit.WriteTree(t, user, userHome)
	tree := map[string]string{}
	for _, p := range []string{"a.go", "vendor.go", "app.log", "keep.log", "secret.txt", "notes.swp", "build/out.go",
		"node_modules/x/index.js", ".hg/store/data", ".jj/repo/store", "sub/b.go", "sub/debug.log", "sub/gen/g.go", "sub/deep/c.go"} {
		tree[p] = "x\n"
	}
	maps.Copy(tree, map[string]string{
		".git/HEAD": "ref: refs/heads/main\n", ".git/info/exclude": "secret.txt\n",
		".gitignore": "*.log\n!keep.log\nbuild/\nnode_modules/\n", ".ignore": "vendor.go\n",
		"sub/.gitignore": "gen/\n!debug.log\n",
	})
	testkit.WriteTree(t, cwd, tree)
	env := map[string]string{"DEEPSEEK_API_KEY": "test-key", "HOME": user}
	s, err := Open(Options{Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] },
		Now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// completed is what `@` completion lists, files only, sorted.
func completed(t *testing.T, s *Session) []string {
	t.Helper()
	listed, err := s.Files(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	files := slices.DeleteFunc(listed, func(p string) bool { return strings.HasSuffix(p, "/") })
	slices.Sort(files)
	return files
}

// toolPaths runs the search tool name with args in the session's
// workspace and returns the paths its result lists, relative and sorted.
func toolPaths(t *testing.T, s *Session, name string, args map[string]string) []string {
	t.Helper()
	tool, ok := s.Agent.Tools().Get(name)
	if !ok {
		t.Fatalf("want a %s tool", name)
	}
	raw, _ := json.Marshal(args)
	res := tool.Run(context.Background(), tools.Call{ID: "c", Args: raw, Env: &tools.Env{Cwd: s.Cwd}})
	var paths []string
	for _, line := range strings.Split(res.Text, "\n") {
		if p, ok := strings.CutPrefix(line, s.Cwd+"/"); ok {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	return paths
}
