package workspace

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tack-agent/tack/snapshots/testkit"
)

// These tests take real git as the oracle: for a work tree, the files
// `git ls-files --others --exclude-standard --cached` shows are the files
// a walk must keep. The one deliberate difference is that a walk leaves
// out the stores of other version-control systems (.hg, .svn, .jj), which
// git would list; they are dropped from git's answer before comparing.

// gitCmd runs git isolated from the machine's configuration: its own
// HOME, XDG_CONFIG_HOME and no system config.
type gitCmd struct{ bin, home string }

func gitOrSkip(t *testing.T) gitCmd {
	t.Helper()
	bin, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed: the differential tests against git need it")
	}
	return gitCmd{bin: bin, home: t.TempDir()}
}

func (g gitCmd) env() []string {
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + g.home, "XDG_CONFIG_HOME=" + filepath.Join(g.home, ".config"),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "LANG=C"}
}

func (g gitCmd) output(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(g.bin, args...)
	cmd.Dir, cmd.Env = dir, g.env()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(string(out))
}

func (g gitCmd) run(t testing.TB, dir string, args ...string) { t.Helper(); g.output(t, dir, args...) }

// listed is what git lists in the work tree at root, without the other
// VCS stores.
func (g gitCmd) listed(t testing.TB, root string) []string {
	t.Helper()
	out := g.output(t, root, "ls-files", "-z", "--others", "--exclude-standard", "--cached")
	var files []string
	for _, f := range strings.Split(out, "\x00") {
		top, _, _ := strings.Cut(f, "/")
		if f != "" && !vcsDir(top) {
			files = append(files, f)
		}
	}
	slices.Sort(files)
	return slices.Compact(files)
}

// repoTree is a work tree for git: files, then info/exclude, the global
// excludes file (under git's home) and the paths added to the index.
type repoTree struct {
	files   map[string]string
	exclude string
	global  string
	cached  []string
}

// build creates the work tree with git and returns its root.
func (g gitCmd) build(t testing.TB, tree repoTree) string {
	t.Helper()
	root := t.TempDir()
	g.run(t, root, "init", "-q")
	testkit.WriteTree(t, root, tree.files)
	testkit.WriteTree(t, root, map[string]string{".git/info/exclude": tree.exclude})
	testkit.WriteTree(t, g.home, map[string]string{".config/git/ignore": tree.global})
	if len(tree.cached) > 0 {
		g.run(t, root, append([]string{"add", "--"}, tree.cached...)...)
	}
	return root
}

func (g gitCmd) compare(t *testing.T, tree repoTree) {
	t.Helper()
	root := g.build(t, tree)
	want := g.listed(t, root)
	got := walked(t, New(Options{Home: g.home}), root)
	if !slices.Equal(want, got) {
		t.Errorf("walk and git differ\nonly git:  %q\nonly walk: %q\ntree: %s", minus(want, got), minus(got, want), describe(tree))
	}
}

func minus(a, b []string) []string {
	return slices.DeleteFunc(slices.Clone(a), func(s string) bool { return slices.Contains(b, s) })
}

func describe(tree repoTree) string {
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(tree.files)) {
		if body := tree.files[name]; strings.HasSuffix(name, gitignoreFile) {
			fmt.Fprintf(&b, "\n  %s: %q", name, body)
		} else {
			fmt.Fprintf(&b, "\n  %s", name)
		}
	}
	fmt.Fprintf(&b, "\n  info/exclude: %q\n  global: %q\n  cached: %q", tree.exclude, tree.global, tree.cached)
	return b.String()
}

func TestWalkAgreesWithGitOnEveryRule(t *testing.T) {
	g := gitOrSkip(t)
	files := maps.Clone(everyRule)
	for name := range files {
		if strings.HasPrefix(name, ".git/") || path.Base(name) == dotignoreFile {
			delete(files, name) // .ignore is ripgrep's, not git's
		}
	}
	files["sub/hidden-by-dotignore.go"] = "now kept\n"
	g.compare(t, repoTree{files: files, exclude: everyRule[".git/info/exclude"], global: "*.swp\n",
		cached: []string{"a.go", "sub/b.go"}})
}

// Pieces of random trees: names that the patterns below name, and
// patterns of every form gitignore has.
var (
	randomNames    = []string{"a", "b", "c.go", "d.log", "e.txt", "keep.log", "build", "sub", "x.tmp", "f g.md", "#h", "!i"}
	randomPatterns = []string{"*.log", "!keep.log", "build/", "/a", "sub/**/c.go", "**/b", "*.tmp", "!d.log", "a/",
		"sub/*.txt", "[abc].go", "?.txt", "sub", "!sub/", "e.txt", "**/e.txt", "# comment", `\#h`, `\!i`, "a/**",
		"b/", "/sub/a", "*", "!*.go", "**/sub/**", "f g.md", "build", "!/build", "*.t[xm]p", "[!c].go", "x.tmp ",
		"sub/b/", "**/a/c.go"}
)

// randomTree makes a tree of up to three levels from the pieces, with
// ignore files in some directories.
func randomTree(r *rand.Rand) repoTree {
	tree := repoTree{files: map[string]string{}}
	var dirs []string
	var add func(dir string, depth int)
	add = func(dir string, depth int) {
		for _, name := range randomNames {
			if r.IntN(3) != 0 {
				continue
			}
			p := path.Join(dir, name)
			if depth < 3 && r.IntN(2) == 0 && !strings.Contains(name, ".") {
				dirs = append(dirs, p)
				add(p, depth+1)
				continue
			}
			tree.files[p] = "x\n"
		}
	}
	add("", 1)
	rules := func(n int) string {
		var lines []string
		for range n {
			lines = append(lines, randomPatterns[r.IntN(len(randomPatterns))])
		}
		return strings.Join(lines, "\n") + "\n"
	}
	for _, d := range append([]string{""}, dirs...) {
		if r.IntN(2) == 0 {
			tree.files[path.Join(d, gitignoreFile)] = rules(1 + r.IntN(4))
		}
	}
	tree.exclude, tree.global = rules(r.IntN(3)), rules(r.IntN(3))
	return tree
}

func TestWalkAgreesWithGitOnRandomTrees(t *testing.T) {
	g := gitOrSkip(t)
	for seed := range uint64(40) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			tree := randomTree(rand.New(rand.NewPCG(seed, 15)))
			g.compare(t, tree)
		})
	}
}

// TestWalkAgreesWithGitOnCoreExcludesFile moves the global excludes file
// with core.excludesFile in ~/.gitconfig (quoted, with ~ and a space):
// git then reads that file and not the default one, whose rule would
// hide the Go files.
func TestWalkAgreesWithGitOnCoreExcludesFile(t *testing.T) {
	g := gitOrSkip(t)
	testkit.WriteTree(t, g.home, map[string]string{
		".gitconfig": "[core]\n\texcludesFile = \"~/my ignores\"\n",
		"my ignores": "*.swp\n/top.txt\n",
	})
	g.compare(t, repoTree{global: "*.go\n", files: map[string]string{
		"a.go": "x\n", "b.swp": "x\n", "top.txt": "x\n", "sub/top.txt": "x\n", "sub/c.go": "x\n", "sub/d.swp": "x\n",
	}})
}
