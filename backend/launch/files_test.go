package launch

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// TestCompletionAndGlobListTheSameFiles opens a session in a work tree
// with every kind of ignore rule and checks that `@` completion (Files)
// and the model's glob tool keep exactly the same files.
func TestCompletionAndGlobListTheSameFiles(t *testing.T) {
	home, cwd, userHome := t.TempDir(), t.TempDir(), t.TempDir()
	testkit.WriteTree(t, userHome, map[string]string{".config/git/ignore": "*.swp\n"})
	testkit.WriteTree(t, cwd, map[string]string{
		".git/HEAD": "ref: refs/heads/main\n", ".git/info/exclude": "secret.txt\n",
		".gitignore": "*.log\n!keep.log\nbuild/\nnode_modules/\n", ".ignore": "vendor.go\n",
		"a.go": "", "vendor.go": "", "app.log": "", "keep.log": "", "secret.txt": "", "notes.swp": "",
		"build/out.go": "", "node_modules/x/index.js": "", ".hg/store/data": "", ".jj/repo/store": "",
		"sub/.gitignore": "gen/\n!debug.log\n", "sub/b.go": "", "sub/debug.log": "", "sub/gen/g.go": "",
		"sub/deep/c.go": "",
	})
	env := map[string]string{"DEEPSEEK_API_KEY": "test-key", "HOME": userHome}
	s, err := Open(Options{Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] },
		Now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	listed, err := s.Files(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	completion := slices.DeleteFunc(listed, func(p string) bool { return strings.HasSuffix(p, "/") })
	slices.Sort(completion)

	glob, _ := s.Agent.Tools().Get("glob")
	args, _ := json.Marshal(map[string]string{"pattern": "*"})
	res := glob.Run(context.Background(), tools.Call{ID: "c", Args: args, Env: &tools.Env{Cwd: cwd}})
	var globbed []string
	for _, line := range strings.Split(res.Text, "\n") {
		globbed = append(globbed, strings.TrimPrefix(line, cwd+"/"))
	}
	slices.Sort(globbed)

	want := []string{".gitignore", ".ignore", "a.go", "keep.log", "sub/.gitignore", "sub/b.go", "sub/debug.log", "sub/deep/c.go"}
	if !slices.Equal(completion, want) {
		t.Errorf("completion: want %q, got %q", want, completion)
	}
	if !slices.Equal(globbed, completion) {
		t.Errorf("glob and completion differ:\nglob       %q\ncompletion %q", globbed, completion)
	}
}
