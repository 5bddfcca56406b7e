package search

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/backend/workspace"
	"github.com/tack-agent/tack/snapshots/testkit"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
)

// run calls tool in a session whose working directory is dir.
func run(t testing.TB, tool tools.Tool, dir string, args map[string]any) tools.Result {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return tool.Run(context.Background(), tools.Call{ID: "c", Args: raw, Env: &tools.Env{Cwd: dir}})
}

// relLines turns a glob result into sorted paths relative to dir.
func relLines(dir, text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		out = append(out, strings.TrimPrefix(l, dir+"/"))
	}
	sort.Strings(out)
	return out
}

// The ignore rules themselves are the walker's (backend/workspace), and
// launch's TestCompletionAndGlobListTheSameFiles checks that glob and grep
// keep what `@` completion keeps; here, that a search below the root still
// applies the root's rules and the nested ones on the way down.
func TestGlobInSubdirectoryAppliesParentIgnoreFiles(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{
		".git/HEAD": "ref: refs/heads/main\n", ".gitignore": "*.log\n!keep.log\n", "sub/.gitignore": "!debug.log\n",
		"app.log": "x\n", "sub/debug.log": "x\n", "sub/trace.log": "x\n", "sub/deep/keep.log": "x\n",
	})
	r := run(t, NewGlob(noUserConfig), dir, map[string]any{"pattern": "*.log", "path": "sub"})
	want := []string{"sub/debug.log", "sub/deep/keep.log"}
	if got := relLines(dir, r.Text); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("want %v, got %v", want, got)
	}
}

func TestGlobPatternForms(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"a.go": "", "x/b.go": "", "x/y/c.go": "", "x/y/d.ts": "", "x/y/e.tsx": ""})
	cases := []struct {
		pattern string
		want    []string
	}{
		{"*.go", []string{"a.go", "x/b.go", "x/y/c.go"}},
		{"x/*.go", []string{"x/b.go"}},
		{"x/**/*.go", []string{"x/b.go", "x/y/c.go"}},
		{"**/*.{ts,tsx}", []string{"x/y/d.ts", "x/y/e.tsx"}},
		{"?.go", []string{"a.go", "x/b.go", "x/y/c.go"}},
		{"x/?/*.go", []string{"x/y/c.go"}},
		{"[ab].go", []string{"a.go", "x/b.go"}},
	}
	r := run(t, NewGlob(noUserConfig), dir, map[string]any{"pattern": "x/y/*.ts"})
	if r.Card == nil || r.Card.Title != "Glob x/y/*.ts" || r.Card.Body != "x/y/d.ts" {
		t.Errorf("want search card Glob x/y/*.ts listing x/y/d.ts, got %+v", r.Card)
	}
	for _, c := range cases {
		r := run(t, NewGlob(noUserConfig), dir, map[string]any{"pattern": c.pattern})
		if got := relLines(dir, r.Text); strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%s: want %v, got %v", c.pattern, c.want, got)
		}
	}
}

func TestGlobTakesAnAbsolutePattern(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"a.go": "", "x/b.go": "", "x/y/c.go": "", "x/y/b.go": ""})
	cases := []struct {
		pattern string
		want    []string
	}{
		{dir + "/x/**/*.go", []string{"x/b.go", "x/y/b.go", "x/y/c.go"}},
		{dir + "/x/*.go", []string{"x/b.go"}},
		{dir + "/x/b.go", []string{"x/b.go"}},
		{dir + "/*/y/c.go", []string{"x/y/c.go"}},
		{dir + "/*.go", []string{"a.go"}},
	}
	if d, rest := splitAbsolute("/*.go"); d != "" || rest != "/*.go" {
		t.Errorf("want a pattern in / left alone (no walk of the whole disk), got %q, %q", d, rest)
	}
	for _, c := range cases {
		r := run(t, NewGlob(noUserConfig), t.TempDir(), map[string]any{"pattern": c.pattern})
		if got := relLines(dir, r.Text); strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%s: want %v, got %v", c.pattern, c.want, got)
		}
	}
}

func TestGlobResultFormat(t *testing.T) {
	t.Run("newest_first", func(t *testing.T) {
		dir := t.TempDir()
		testkit.WriteTree(t, dir, map[string]string{"old.go": "", "mid.go": "", "new.go": "", "b/tie1.go": "", "a/tie2.go": ""})
		base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		for name, age := range map[string]int{"old.go": 3, "mid.go": 2, "new.go": 0, "b/tie1.go": 1, "a/tie2.go": 1} {
			at := base.Add(-time.Duration(age) * time.Hour)
			if err := os.Chtimes(filepath.Join(dir, name), at, at); err != nil {
				t.Fatal(err)
			}
		}
		matchGolden(t, dir, run(t, NewGlob(noUserConfig), dir, map[string]any{"pattern": "*.go"}).Text)
	})
	t.Run("capped", func(t *testing.T) {
		dir := t.TempDir()
		files := map[string]string{}
		base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		for i := range 120 {
			files[filepath.Join("d", strings.Repeat("f", 1)+string(rune('a'+i%26))+strings.Repeat("0", i/26)+".txt")] = ""
		}
		testkit.WriteTree(t, dir, files)
		i := 0
		for name := range files {
			at := base.Add(time.Duration(i) * time.Minute)
			i++
			if err := os.Chtimes(filepath.Join(dir, name), at, at); err != nil {
				t.Fatal(err)
			}
		}
		r := run(t, NewGlob(noUserConfig), dir, map[string]any{"pattern": "*.txt"})
		lines := strings.Split(r.Text, "\n")
		if len(lines) != 102 || lines[100] != "" {
			t.Fatalf("want 100 paths, a blank line and a footer, got %d lines", len(lines))
		}
		matchGolden(t, dir, lines[101])
		if !r.Card.Truncated {
			t.Errorf("want the card marked truncated")
		}
	})
	t.Run("none", func(t *testing.T) {
		dir := t.TempDir()
		matchGolden(t, dir, run(t, NewGlob(noUserConfig), dir, map[string]any{"pattern": "*.rs"}).Text)
	})
}

func TestGlobErrors(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"f.txt": ""})
	cases := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"pattern": ""}, "Error: invalid pattern: expected a non-empty string"},
		{map[string]any{"pattern": "[a"}, `Error: invalid glob "[a": unclosed [`},
		{map[string]any{"pattern": "*", "path": "nope"}, `Error: cannot search "` + dir + `/nope": not found`},
		{map[string]any{"pattern": "*", "path": "f.txt"}, `Error: cannot search "` + dir + `/f.txt": not a directory`},
	}
	for _, c := range cases {
		if r := run(t, NewGlob(noUserConfig), dir, c.args); r.Text != c.want {
			t.Errorf("%v: want %q, got %q", c.args, c.want, r.Text)
		}
	}
}

// golden compares got, with dir replaced by $DIR, to testdata/<test>.golden.
func matchGolden(t *testing.T, dir, got string) {
	t.Helper()
	got = strings.ReplaceAll(got, dir, "$DIR")
	golden.Assert(t, filepath.Join("testdata", strings.ReplaceAll(t.Name(), "/", "_")+".golden"), []byte(got))
}

// noUserConfig walks without the user's git configuration, so no global
// excludes file of the machine running the tests applies.
var noUserConfig = &workspace.Walker{}
