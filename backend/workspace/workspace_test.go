package workspace

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tack-agent/tack/snapshots/testkit"
)

// walked is every entry w's Walk visits under root that is not a
// directory, sorted.
func walked(t testing.TB, w *Walker, root string) []string {
	t.Helper()
	var mu sync.Mutex
	var out []string
	err := w.Walk(context.Background(), root, func(e Entry) {
		if !e.IsDir() {
			mu.Lock()
			out = append(out, e.Path)
			mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

func same(t *testing.T, what string, want, got []string) {
	t.Helper()
	if !slices.Equal(want, got) {
		t.Errorf("%s:\nwant %q\ngot  %q", what, want, got)
	}
}

// everyRule is a work tree with an ignore rule of every source: nested
// .gitignore files with negations, directory-only and anchored patterns,
// .ignore files (which win over .gitignore), info/exclude, the global
// excludes file, the other version-control stores and node_modules
// (ignored only because .gitignore says so).
var everyRule = map[string]string{
	".git/HEAD":                  "ref: refs/heads/main\n",
	".git/info/exclude":          "secret.txt\n",
	".gitignore":                 "# logs\n*.log\n!keep.log\nbuild/\n/top-only.txt\nnode_modules/\n",
	".ignore":                    "!sub/reincluded.log\n",
	"a.go":                       "package a\n",
	"app.log":                    "x\n",
	"keep.log":                   "x\n",
	"secret.txt":                 "x\n",
	"top-only.txt":               "x\n",
	"scratch.swp":                "x\n",
	"build/out.go":               "package build\n",
	"node_modules/x/index.js":    "x\n",
	".hg/store/data":             "x\n",
	".svn/entries":               "x\n",
	".jj/repo/store":             "x\n",
	"sub/.gitignore":             "gen/\n!debug.log\n*.tmp\n",
	"sub/.ignore":                "hidden-by-dotignore.go\n",
	"sub/b.go":                   "package sub\n",
	"sub/debug.log":              "x\n",
	"sub/trace.log":              "x\n",
	"sub/reincluded.log":         "x\n",
	"sub/x.tmp":                  "x\n",
	"sub/gen/g.go":               "package gen\n",
	"sub/top-only.txt":           "x\n",
	"sub/build":                  "a file, not a directory\n",
	"sub/hidden-by-dotignore.go": "package sub\n",
	"sub/deep/c.go":              "package deep\n",
	"sub/deep/keep.log":          "x\n",
	"docs/my notes.md":           "x\n",
}

// everyRuleKept is what a walk of everyRule keeps, with home's global
// excludes file ignoring *.swp.
var everyRuleKept = []string{".gitignore", ".ignore", "a.go", "docs/my notes.md", "keep.log", "sub/.gitignore",
	"sub/.ignore", "sub/b.go", "sub/build", "sub/debug.log", "sub/deep/c.go", "sub/deep/keep.log",
	"sub/reincluded.log", "sub/top-only.txt"}

// userHome writes a home whose default global excludes file ignores *.swp.
func userHome(t testing.TB) string {
	home := t.TempDir()
	testkit.WriteTree(t, home, map[string]string{".config/git/ignore": "*.swp\n"})
	return home
}

func TestWalkHonoursEveryIgnoreSource(t *testing.T) {
	root := t.TempDir()
	testkit.WriteTree(t, root, everyRule)
	same(t, "kept", everyRuleKept, walked(t, New(Options{Home: userHome(t)}), root))
}

func TestWalkBelowTheTopAppliesTheParentsRules(t *testing.T) {
	root := t.TempDir()
	testkit.WriteTree(t, root, everyRule)
	got := walked(t, New(Options{Home: userHome(t)}), filepath.Join(root, "sub"))
	same(t, "kept under sub", []string{".gitignore", ".ignore", "b.go", "build", "debug.log", "deep/c.go",
		"deep/keep.log", "reincluded.log", "top-only.txt"}, got)
}

func TestGlobalExcludesFollowGitConfig(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string // under home
		xdg   string            // XDG_CONFIG_HOME, relative to home
	}{
		{name: "default under ~/.config", files: map[string]string{".config/git/ignore": "*.swp\n"}},
		{name: "default under XDG_CONFIG_HOME", xdg: "xdg", files: map[string]string{"xdg/git/ignore": "*.swp\n",
			".config/git/ignore": "*.go\n"}},
		{name: "core.excludesFile in ~/.gitconfig", files: map[string]string{
			".gitconfig":    "[user]\n\tname = x\n[core]\n\texcludesFile = ~/global.ignore ; a comment\n",
			"global.ignore": "*.swp\n", ".config/git/ignore": "*.go\n"}},
		{name: "core.excludesfile quoted, in the XDG config", files: map[string]string{
			".config/git/config": "[Core]\n  ExcludesFile = \"~/my ignores\"\n", "my ignores": "*.swp\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, home := t.TempDir(), t.TempDir()
			testkit.WriteTree(t, root, map[string]string{".git/HEAD": "ref: refs/heads/main\n", "a.go": "", "b.swp": ""})
			testkit.WriteTree(t, home, tt.files)
			o := Options{Home: home}
			if tt.xdg != "" {
				o.XDGConfigHome = filepath.Join(home, tt.xdg)
			}
			same(t, "kept", []string{"a.go"}, walked(t, New(o), root))
		})
	}
}

func TestTheZeroWalkerReadsNoUserConfig(t *testing.T) {
	root := t.TempDir()
	testkit.WriteTree(t, root, map[string]string{"a.go": "", "b.swp": ""})
	same(t, "kept", []string{"a.go", "b.swp"}, walked(t, &Walker{}, root))
}

func TestALinkedWorktreeUsesTheCommonInfoExclude(t *testing.T) {
	main, wt := t.TempDir(), t.TempDir()
	testkit.WriteTree(t, main, map[string]string{
		".git/HEAD": "ref: refs/heads/main\n", ".git/info/exclude": "*.secret\n",
		".git/worktrees/wt/HEAD": "ref: refs/heads/feature\n", ".git/worktrees/wt/commondir": "../..\n",
	})
	testkit.WriteTree(t, wt, map[string]string{
		".git": "gitdir: " + filepath.Join(main, ".git", "worktrees", "wt") + "\n", "a.go": "", "b.secret": "",
	})
	same(t, "kept", []string{"a.go"}, walked(t, &Walker{}, wt))
}

func TestLinksAreEntriesNeverFollowed(t *testing.T) {
	root := t.TempDir()
	testkit.WriteTree(t, root, map[string]string{"web/app.ts": "", "web/.gitignore": "dist/\n", "web/dist/x.js": ""})
	if err := os.Symlink(filepath.Join(root, "web"), filepath.Join(root, "link")); err != nil {
		t.Skipf("cannot make a symbolic link here: %v", err)
	}
	same(t, "kept", []string{"link", "web/.gitignore", "web/app.ts"}, walked(t, &Walker{}, root))
}

func TestListIsShallowestFirstInNameOrder(t *testing.T) {
	root := t.TempDir()
	testkit.WriteTree(t, root, everyRule)
	got, err := New(Options{Home: userHome(t)}).List(context.Background(), root, 0)
	if err != nil {
		t.Fatal(err)
	}
	same(t, "listed", []string{".gitignore", ".ignore", "a.go", "docs/", "keep.log", "sub/",
		"docs/my notes.md", "sub/.gitignore", "sub/.ignore", "sub/b.go", "sub/build", "sub/debug.log", "sub/deep/",
		"sub/reincluded.log", "sub/top-only.txt", "sub/deep/c.go", "sub/deep/keep.log"}, got)
}

func TestListStopsAtTheLimitKeepingTheShallowest(t *testing.T) {
	root := t.TempDir()
	testkit.WriteTree(t, root, map[string]string{"z.go": "", "a/deep.go": "", "b/deeper/x.go": ""})
	got, err := (&Walker{}).List(context.Background(), root, 3)
	if err != nil {
		t.Fatal(err)
	}
	same(t, "listed", []string{"a/", "b/", "z.go"}, got)
}

func TestAMissingRootIsAnError(t *testing.T) {
	_, err := (&Walker{}).List(context.Background(), filepath.Join(t.TempDir(), "gone"), 0)
	if err == nil || !strings.Contains(err.Error(), "list workspace") {
		t.Errorf("want a list workspace error, got %v", err)
	}
}

func TestACancelledWalkSaysSo(t *testing.T) {
	root := t.TempDir()
	testkit.WriteTree(t, root, map[string]string{"a/b.go": ""})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := (&Walker{}).Walk(ctx, root, func(Entry) {}); err != context.Canceled {
		t.Errorf("want context.Canceled, got %v", err)
	}
}

func TestBinaryLooksForANulInTheHead(t *testing.T) {
	if Binary([]byte("plain text\n")) || !Binary([]byte("PK\x03\x04\x00")) {
		t.Error("want text kept and a NUL marking binary")
	}
	if Binary(append([]byte(strings.Repeat("x", SniffLen)), 0)) {
		t.Error("want a NUL past the sniffed head ignored")
	}
}
