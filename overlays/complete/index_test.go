package complete

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestIndexHonoursNestedGitignoreFiles(t *testing.T) {
	root := writeTree(t, map[string]string{
		".gitignore":              "# build output\n*.log\nbuild/\n!keep.log\n",
		".git/HEAD":               "ref: refs/heads/main\n",
		".git/info/exclude":       "scratch.txt\n",
		".env":                    "X=1\n",
		"scratch.txt":             "",
		"main.go":                 "",
		"debug.log":               "",
		"keep.log":                "",
		"build/out.bin":           "",
		"node_modules/x/index.js": "",
		"docs/my notes.md":        "",
		"web/.gitignore":          "dist/\nsecret.txt\n",
		"web/app.ts":              "",
		"web/secret.txt":          "",
		"web/dist/app.js":         "",
		"cmd/secret.txt":          "",
	})
	if err := os.Symlink(filepath.Join(root, "web"), filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	got, err := Index(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".env", ".gitignore", "cmd/", "docs/", "keep.log", "link", "main.go", "web/",
		"cmd/secret.txt", "docs/my notes.md", "web/.gitignore", "web/app.ts"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("want\n%s\ngot\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
}

func TestIndexFailsForAMissingRoot(t *testing.T) {
	if _, err := Index(filepath.Join(t.TempDir(), "gone")); err == nil || !strings.Contains(err.Error(), "index workspace") {
		t.Errorf("want an index workspace error, got %v", err)
	}
}
