package search

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/workspace"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// ageTree gives the files of dir distinct modification times, the first
// named the newest.
func ageTree(t *testing.T, dir string, newestFirst ...string) {
	t.Helper()
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, name := range newestFirst {
		at := base.Add(-time.Duration(i) * time.Hour)
		if err := os.Chtimes(filepath.Join(dir, filepath.FromSlash(name)), at, at); err != nil {
			t.Fatal(err)
		}
	}
}

// grepTree is searched by the format tests.
var grepTree = map[string]string{
	"b.go":     "package b\n\nfunc Hello() {}\n",
	"a/x.go":   "package a\n// Hello there\nfunc hello() {}\nvar Hello = 1\n",
	"c.txt":    "nothing here\n",
	"long.txt": strings.Repeat("é", 1500) + "Hello\n",
}

// TestGrepResultFormat pins each output mode's layout, the Claude Code
// Grep options that shape it, and the limits; the card shows the files
// as the user sees them, from the working directory.
func TestGrepResultFormat(t *testing.T) {
	tests := []struct {
		name string
		args map[string]any
	}{
		{"files_by_default_newest_first", map[string]any{"pattern": "Hello"}},
		{"content", map[string]any{"pattern": "Hello", "output_mode": "content"}},
		{"content_without_line_numbers", map[string]any{"pattern": "Hello", "output_mode": "content", "-n": false}},
		{"content_with_context", map[string]any{"pattern": "hello", "output_mode": "content", "-i": true, "-C": 1, "type": "go"}},
		{"content_after_only", map[string]any{"pattern": "package", "output_mode": "content", "-A": "1", "glob": "*.go"}},
		{"content_before_only", map[string]any{"pattern": "^var", "output_mode": "content", "-B": 2}},
		{"count", map[string]any{"pattern": "Hello", "output_mode": "count"}},
		{"head_limit", map[string]any{"pattern": "Hello", "output_mode": "content", "head_limit": 2}},
		{"multiline", map[string]any{"pattern": `hello\(\) \{\}\nvar`, "output_mode": "content", "multiline": true}},
		{"include", map[string]any{"pattern": "Hello", "include": "*.go"}},
		{"none", map[string]any{"pattern": "zebra"}},
		// Claude Code's Grep's -o and offset.
		{"content_only_matching", map[string]any{"pattern": "[Hh]el+o", "output_mode": "content", "-o": true, "-C": 1, "type": "go"}},
		{"files_offset", map[string]any{"pattern": "Hello", "offset": 1, "head_limit": 1}},
		{"count_offset", map[string]any{"pattern": "Hello", "output_mode": "count", "offset": 1}},
		{"content_offset", map[string]any{"pattern": "Hello", "output_mode": "content", "offset": 2, "head_limit": 2}},
		{"content_offset_past_the_end", map[string]any{"pattern": "Hello", "output_mode": "content", "offset": 50}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			testkit.WriteTree(t, dir, grepTree)
			ageTree(t, dir, "long.txt", "b.go", "a/x.go", "c.txt")
			r := run(t, NewGrep(noUserConfig), dir, tt.args)
			if r.IsError {
				t.Fatalf("want a result, got %q", r.Text)
			}
			matchGolden(t, dir, r.Text)
			if strings.Contains(r.Card.Body, dir) {
				t.Errorf("want the card to name files from the working directory, got\n%s", r.Card.Body)
			}
		})
	}
}

// context is Claude Code's Grep's long name of -C.
func TestGrepContextIsC(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, grepTree)
	long := run(t, NewGrep(noUserConfig), dir, map[string]any{"pattern": "hello", "output_mode": "content", "-i": true, "context": 1})
	short := run(t, NewGrep(noUserConfig), dir, map[string]any{"pattern": "hello", "output_mode": "content", "-i": true, "-C": 1})
	if long.Text != short.Text || !strings.Contains(long.Text, "-package a") {
		t.Errorf("want context as -C, with the line before a match; got\n%s\nand with -C\n%s", long.Text, short.Text)
	}
}

func TestGrepCapsWhatItShows(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := range 30 {
		files[fmt.Sprintf("f%02d.txt", i)] = strings.Repeat("match\n", 10)
	}
	testkit.WriteTree(t, dir, files)
	r := run(t, NewGrep(noUserConfig), dir, map[string]any{"pattern": "match", "output_mode": "content"})
	if n := strings.Count(r.Text, ":match"); n != 250 || !r.Card.Truncated {
		t.Errorf("want 250 lines shown and the card truncated, got %d", n)
	}
	if !strings.HasSuffix(r.Text, "(Showing 250 of 300 matching lines. Narrow the pattern, path, glob or type, or raise head_limit, to see the rest.)") {
		t.Errorf("want the cap named, got …%q", r.Text[max(len(r.Text)-200, 0):])
	}
	r = run(t, NewGrep(noUserConfig), dir, map[string]any{"pattern": "match", "head_limit": 5})
	if n := strings.Count(r.Text, dir); n != 5 || !strings.Contains(r.Text, "(Showing 5 of 30 files.") {
		t.Errorf("want 5 of 30 files listed, got %q", r.Text)
	}
	r = run(t, NewGrep(noUserConfig), dir, map[string]any{"pattern": "match", "output_mode": "content", "path": "f07.txt", "offset": 4, "head_limit": 5})
	if n := strings.Count(r.Text, ":match"); n != 5 || !strings.HasSuffix(r.Text, "(Showing output lines 5-9. Use offset=9 to see more.)") {
		t.Errorf("want lines 5-9 of one file's 10, got %q", r.Text)
	}
}

func TestGrepLineNumbersAcrossChunksAndLongLines(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := 1; i <= 50_000; i++ {
		if i == 20_000 {
			b.WriteString(strings.Repeat("z", 5<<20) + "\n")
			continue
		}
		fmt.Fprintf(&b, "line %d\r\n", i)
	}
	b.WriteString("needle at the end")
	testkit.WriteTree(t, dir, map[string]string{"big.txt": b.String()})
	r := run(t, NewGrep(noUserConfig), dir, map[string]any{"pattern": `^line (19999|20001|49999)$|needle`, "output_mode": "content"})
	for _, want := range []string{"big.txt:19999:line 19999", "big.txt:20001:line 20001", "big.txt:49999:line 49999", "big.txt:50001:needle at the end"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("want %q in %q", want, r.Text)
		}
	}
	r = run(t, NewGrep(noUserConfig), dir, map[string]any{"pattern": `^line 19999$`, "output_mode": "content", "-A": 2})
	big := filepath.Join(dir, "big.txt")
	if want := big + ":19999:line 19999\n" + big + "-20000-" + strings.Repeat("z", grepMaxPreview) + "... (line truncated)\n" + big + "-20001-line 20001"; r.Text != want {
		t.Errorf("want the context across the long line cut, got %.300q", r.Text)
	}
}

func TestGrepSkipsBinaryFilesAndSearchesOneFile(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"bin.dat": "Hello\x00\x01", "t.txt": "Hello\n", "u.txt": "Hello\n"})
	r := run(t, NewGrep(noUserConfig), dir, map[string]any{"pattern": "Hello"})
	if strings.Contains(r.Text, "bin.dat") || !strings.HasPrefix(r.Text, "Found 2 files") {
		t.Errorf("want the 2 text files only, got %q", r.Text)
	}
	// One file searched names no file, as ripgrep and Claude Code show it
	// (the transcript replay in backend/tools holds the real results).
	r = run(t, NewGrep(noUserConfig), dir, map[string]any{"pattern": "Hello", "path": "u.txt", "output_mode": "content"})
	if want := "1:Hello"; r.Text != want {
		t.Errorf("want %q, got %q", want, r.Text)
	}
	if r.Card == nil || r.Card.Title != "Grep Hello" || r.Card.Body != "1:Hello" || r.Card.Truncated {
		t.Errorf("want search card Grep Hello with the line, got %+v", r.Card)
	}
}

func TestGrepErrors(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"pattern": "("}, "Error: invalid pattern: error parsing regexp: missing closing ): `(` (patterns use Go RE2 syntax: no lookaround or backreferences; escape ( [ { . * + ? for literal text)"},
		{map[string]any{"pattern": "(", "-i": true}, "Error: invalid pattern: error parsing regexp: missing closing ): `(` (patterns use Go RE2 syntax: no lookaround or backreferences; escape ( [ { . * + ? for literal text)"},
		{map[string]any{"pattern": "a(?=b)"}, "Error: invalid pattern: error parsing regexp: invalid or unsupported Perl syntax: `(?=` (patterns use Go RE2 syntax: no lookaround or backreferences; escape ( [ { . * + ? for literal text)"},
		{map[string]any{"pattern": "a", "include": "{x"}, `Error: invalid glob: invalid glob "{x": unclosed {`},
		{map[string]any{"pattern": "a", "path": "nope"}, `Error: cannot search "` + dir + `/nope": not found`},
		{map[string]any{"pattern": "a", "output_mode": "lines"}, `Error: invalid output_mode "lines": use files_with_matches, content or count`},
		{map[string]any{"pattern": "a", "type": "cobol"}, `Error: invalid type "cobol": use one of `},
		{map[string]any{"pattern": "a", "-C": 500}, `Error: invalid context: -A, -B and -C take at most 50 lines`},
		{map[string]any{"pattern": "a", "-C": -1}, `Error: invalid arguments: -A, -B, -C, head_limit and offset take a non-negative whole number, got -1`},
		{map[string]any{"pattern": "a", "offset": -1}, `Error: invalid arguments: -A, -B, -C, head_limit and offset take a non-negative whole number, got -1`},
		{map[string]any{"pattern": "a", "head_limit": 0}, `Error: invalid head_limit: expected 1 to 1000`},
		{map[string]any{"pattern": "a", "glob": "*.go", "include": "*.md"}, `Error: invalid arguments: give glob or include, not both`},
		{map[string]any{"pattern": "a", "-w": true}, `Error: invalid arguments: unknown argument "-w"; the accepted arguments are pattern, path, include, glob, type, output_mode, -n, -i, -o, -A, -B, -C, context, head_limit, offset, multiline`},
	}
	for _, c := range cases {
		if r := run(t, NewGrep(noUserConfig), dir, c.args); !strings.HasPrefix(r.Text, c.want) || !r.IsError {
			t.Errorf("%v: want %q, got %q", c.args, c.want, r.Text)
		}
	}
}

// Claude Code's Grep runs ripgrep, so real ripgrep, given the arguments
// Claude Code gives it, is the oracle for what grep finds: models trained
// on Claude Code expect its files, counts and lines. Claude Code searches
// hidden files and leaves out the version-control stores
// (VCS_DIRECTORIES_TO_EXCLUDE in its GrepTool, as projects that copied it
// quote it); ripgrep itself honours .gitignore, .ignore, info/exclude and
// the global excludes file, and skips binary files.
var claudeCodeRipgrepArgs = []string{"--hidden",
	"--glob", "!.git", "--glob", "!.svn", "--glob", "!.hg", "--glob", "!.bzr", "--glob", "!.jj", "--glob", "!.sl"}

// ripgrepTree has a file for each rule that decides whether a file is
// searched, and lines that test the pattern language.
var ripgrepTree = map[string]string{
	".gitignore":               "build/\n*.log\n!keep.log\n/rooted.txt\n",
	".ignore":                  "vendor/\n",
	"src/main.go":              "package main\n\n// TODO: say hello\nfunc main() { println(\"hello, world\") }\n",
	"src/main_test.go":         "package main\n\n// todo: lower case\nfunc TestMain() {}\n",
	"src/deep/nested/a.py":     "def f():\n    return 1  # TODO later\n",
	".github/workflows/ci.yml": "run: go test ./... # TODO cache\n",
	".hidden.txt":              "TODO in a hidden file\n",
	"build/out.txt":            "TODO ignored by a directory pattern\n",
	"logs/app.log":             "TODO ignored by *.log\n",
	"logs/keep.log":            "TODO kept by a negation\n",
	"rooted.txt":               "TODO ignored by a rooted pattern\n",
	"sub/rooted.txt":           "TODO kept: the rooted pattern is the root's\n",
	"sub/.gitignore":           "generated.go\n",
	"sub/generated.go":         "// TODO ignored by a nested .gitignore\n",
	"sub/ok.go":                "// TODO kept beside it\n",
	"vendor/lib.go":            "// TODO ignored by .ignore\n",
	"excluded.txt":             "TODO ignored by info/exclude\n",
	"global.tmp":               "TODO ignored by the global excludes file\n",
	".hg/store/data":           "TODO in another VCS's store\n",
	".jj/repo/data":            "TODO in another VCS's store\n",
	"bin.dat":                  "TODO\x00\x01\x02 binary\n",
	"crlf.txt":                 "TODO one\r\nsecond TODO\r\n",
	"unicode.md":               "Ünïcödé TODO — ☃\nstraße STRASSE\n",
	"no-newline.txt":           "last line TODO",
	"words.txt":                "todos\nTODO\nmastodon\n_TODO_\n",
	"numbers.txt":              "v1.2.3\nv10.20.30\nport 8080\n",
	"late-binary.dat":          "late match\n" + strings.Repeat("text\n", 40_000) + "\x00 late NUL\n",
	"latin1.txt":               "caf\xe9 au lait\n",
}

// ripgrepCases are searches in each output mode with the options Claude
// Code's Grep passes on to ripgrep (flags, then the pattern; the path
// searched is args' path, or the tree). notByGrep are files ripgrep finds
// that grep leaves out on purpose: ripgrep lets a --glob override
// .gitignore for the files it names, but grep, glob and @ completion list
// the same files, and a gitignored .env stays out of a search for ".env*".
var ripgrepCases = []struct {
	name      string
	args      map[string]any
	rg        []string
	notByGrep []string
}{
	{name: "files", args: map[string]any{"pattern": "TODO"}, rg: []string{"-l", "TODO"}},
	{name: "files_case_insensitive", args: map[string]any{"pattern": "todo", "-i": true}, rg: []string{"-l", "-i", "todo"}},
	{name: "files_word", args: map[string]any{"pattern": `\bTODO\b`}, rg: []string{"-l", `\bTODO\b`}},
	{name: "files_glob", args: map[string]any{"pattern": "TODO", "glob": "*.go"}, rg: []string{"-l", "--glob", "*.go", "TODO"},
		notByGrep: []string{"sub/generated.go"}},
	{name: "files_brace_glob", args: map[string]any{"pattern": "TODO", "glob": "*.{py,yml}"}, rg: []string{"-l", "--glob", "*.{py,yml}", "TODO"}},
	{name: "files_glob_list", args: map[string]any{"pattern": "TODO", "glob": "*.py,*.yml"},
		rg: []string{"-l", "--glob", "*.py", "--glob", "*.yml", "TODO"}},
	{name: "files_glob_words", args: map[string]any{"pattern": "TODO", "include": "*.py *.md"},
		rg: []string{"-l", "--glob", "*.py", "--glob", "*.md", "TODO"}},
	{name: "files_glob_not", args: map[string]any{"pattern": "TODO", "glob": "!*.txt !**/.github/**"},
		rg: []string{"-l", "--glob", "!*.txt", "--glob", "!**/.github/**", "TODO"}},
	{name: "files_glob_last_decides", args: map[string]any{"pattern": "TODO", "glob": "*.go !main* src/main.go"},
		rg: []string{"-l", "--glob", "*.go", "--glob", "!main*", "--glob", "src/main.go", "TODO"}, notByGrep: []string{"sub/generated.go"}},
	{name: "files_type", args: map[string]any{"pattern": "TODO", "type": "py"}, rg: []string{"-l", "--type", "py", "TODO"}},
	{name: "files_late_binary", args: map[string]any{"pattern": "late"}, rg: []string{"-l", "late"}},
	{name: "files_latin1", args: map[string]any{"pattern": "caf"}, rg: []string{"-l", "caf"}},
	{name: "count", args: map[string]any{"pattern": "TODO", "output_mode": "count"}, rg: []string{"-c", "TODO"}},
	{name: "count_class", args: map[string]any{"pattern": `v\d+\.\d+`, "output_mode": "count"}, rg: []string{"-c", `v\d+\.\d+`}},
	{name: "content", args: map[string]any{"pattern": "TODO", "output_mode": "content"}, rg: []string{"-n", "TODO"}},
	{name: "content_unicode_case", args: map[string]any{"pattern": "ünïcödé|strasse", "output_mode": "content", "-i": true},
		rg: []string{"-n", "-i", "ünïcödé|strasse"}},
	{name: "content_anchored", args: map[string]any{"pattern": `^TODO$`, "output_mode": "content"}, rg: []string{"-n", `^TODO$`}},
	{name: "content_context", args: map[string]any{"pattern": "hello", "output_mode": "content", "-C": 1, "type": "go"},
		rg: []string{"-n", "-C", "1", "--type", "go", "hello"}},
	{name: "content_after_before", args: map[string]any{"pattern": "^TODO$", "output_mode": "content", "-A": 1, "-B": 2},
		rg: []string{"-n", "-B", "2", "-A", "1", "^TODO$"}},
	{name: "content_multiline", args: map[string]any{"pattern": `todos\nTODO`, "output_mode": "content", "multiline": true},
		rg: []string{"-n", "-U", "--multiline-dotall", `todos\nTODO`}},
	{name: "content_multiline_dot", args: map[string]any{"pattern": `say.*?main`, "output_mode": "content", "multiline": true},
		rg: []string{"-n", "-U", "--multiline-dotall", `say.*?main`}},
	{name: "content_in_folder", args: map[string]any{"pattern": "TODO", "output_mode": "content", "path": "sub"},
		rg: []string{"-n", "TODO"}},
	{name: "content_one_file", args: map[string]any{"pattern": "TODO|todo", "output_mode": "content", "path": "words.txt"},
		rg: []string{"-n", "TODO|todo"}},
}

// TestGrepAgreesWithRipgrep runs each case through grep and through
// ripgrep as Claude Code runs it, over a git work tree with every kind of
// ignore rule, and compares what they found.
func TestGrepAgreesWithRipgrep(t *testing.T) {
	rg := ripgrepOrSkip(t)
	home, dir := t.TempDir(), t.TempDir()
	testkit.WriteTree(t, dir, ripgrepTree)
	// ripgrep honours .gitignore files in a git repository only.
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Skipf("git init failed (%v: %s): the comparison needs a git work tree", err, out)
	}
	testkit.WriteFile(t, filepath.Join(dir, ".git", "info", "exclude"), "excluded.txt\n")
	testkit.WriteFile(t, filepath.Join(dir, ".git", "TODO"), "TODO inside .git\n")
	testkit.WriteFile(t, filepath.Join(home, ".config", "git", "ignore"), "*.tmp\n")
	if err := os.Symlink(filepath.Join(dir, "src", "main.go"), filepath.Join(dir, "link.go")); err != nil {
		t.Fatal(err)
	}
	walker := workspace.New(workspace.Options{Home: home})
	for _, c := range ripgrepCases {
		t.Run(c.name, func(t *testing.T) {
			got := grepLines(dir, run(t, NewGrep(walker), dir, c.args).Text)
			path, _ := c.args["path"].(string)
			want := slices.DeleteFunc(ripgrepLines(t, rg, home, dir, path, c.rg), func(l string) bool {
				return slices.Contains(c.notByGrep, fileOf(l))
			})
			if !slices.Equal(got, want) {
				t.Errorf("grep %v found\n%s\nripgrep %v found\n%s", c.args, strings.Join(got, "\n"), c.rg, strings.Join(want, "\n"))
			}
		})
	}
}

// ripgrepOrSkip is the ripgrep to compare with: $TACK_RIPGREP (Claude
// Code's own is vendor/ripgrep/x64-linux/rg in its npm package before
// 2.1), or rg on PATH.
func ripgrepOrSkip(t *testing.T) string {
	t.Helper()
	if rg := os.Getenv("TACK_RIPGREP"); rg != "" {
		return rg
	}
	rg, err := exec.LookPath("rg")
	if err != nil {
		t.Skip("ripgrep is not installed (apt-get install ripgrep, or TACK_RIPGREP=path): the comparison with Claude Code's Grep needs it")
	}
	return rg
}

// ripgrepLines runs ripgrep as Claude Code would over the absolute path
// of path (relative to dir; dir itself when empty), with a HOME of its own
// for the global excludes file. Each line loses the CR of a CRLF line: grep drops
// it, which the model would otherwise read as part of the text.
func ripgrepLines(t *testing.T, rg, home, dir, path string, args []string) []string {
	t.Helper()
	cmd := exec.Command(rg, slices.Concat(claudeCodeRipgrepArgs, args, []string{filepath.Join(dir, path)})...)
	cmd.Dir = dir // the working directory, as Claude Code runs it
	cmd.Env = []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "GIT_CONFIG_NOSYSTEM=1", "LANG=C.UTF-8"}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil && cmd.ProcessState.ExitCode() != 1 {
		t.Fatalf("rg %v: %v\n%s", args, err, stderr.String())
	}
	return sortedLines(dir, strings.ReplaceAll(string(out), "\r\n", "\n"))
}

// grepLines is grep's result without the summary that leads the file
// list and ends the counts, in the order sortedLines gives.
func grepLines(dir, text string) []string {
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if l != "" && !strings.HasPrefix(l, "Found ") && l != "No matches found" {
			lines = append(lines, l)
		}
	}
	return sortedLines(dir, strings.Join(lines, "\n"))
}

// sortedLines are text's lines with dir left out of the paths, sorted by
// file but in order within one, since ripgrep searches files in parallel
// and grep lists them newest first.
func sortedLines(dir, text string) []string {
	text = strings.ReplaceAll(strings.TrimRight(text, "\n"), dir+string(filepath.Separator), "")
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	slices.SortStableFunc(lines, func(a, b string) int { return strings.Compare(fileOf(a), fileOf(b)) })
	return lines
}

// fileOf is the path a result line starts with: up to the first ':' or,
// for a context line, the '-' before its line number.
func fileOf(line string) string {
	if i := strings.IndexAny(line, ":"); i >= 0 {
		return line[:i]
	}
	for i := 0; i < len(line); i++ {
		if line[i] == '-' && i+1 < len(line) && line[i+1] >= '0' && line[i+1] <= '9' {
			return line[:i]
		}
	}
	return line
}

// TestGrepTypesAgreeWithRipgrep searches files named after every glob of
// every type, grep's and ripgrep's, and a few near misses, by each type with grep and with
// ripgrep. Ripgrep 13 (Debian 12's) knows the types changedSince13 by
// fewer globs or not at all; with it, those are skipped.
func TestGrepTypesAgreeWithRipgrep(t *testing.T) {
	rg := ripgrepOrSkip(t)
	home, dir := t.TempDir(), t.TempDir()
	files := map[string]string{}
	for _, globs := range [][]string{slices.Concat(slices.Collect(maps.Values(fileTypes))...), ripgrepGlobs(t, rg)} {
		for _, g := range globs {
			for _, name := range globSamples(g) {
				files[name] = "TODO\n"
			}
		}
	}
	for _, name := range []string{"f.pyc", "f.jsonc", "f.ts.bak", "Makefile.bak", "dockerfile", "f.C.bak"} {
		files[name] = "TODO\n"
	}
	testkit.WriteTree(t, dir, files)
	older := ripgrepOlderThan14(t, rg)
	changedSince13 := []string{"elixir", "graphql", "js", "json", "markdown", "md", "php", "py", "svelte", "tf", "ts", "vim", "vue"}
	for _, typ := range typeNames() {
		t.Run(typ, func(t *testing.T) {
			if older && slices.Contains(changedSince13, typ) {
				t.Skipf("ripgrep before 14 knows %s by fewer globs than ripgrep 14 (Claude Code's) and grep: "+
					"set TACK_RIPGREP to a ripgrep 14 to compare", typ)
			}
			got := grepLines(dir, run(t, NewGrep(noUserConfig), dir, map[string]any{"pattern": "TODO", "type": typ}).Text)
			want := ripgrepLines(t, rg, home, dir, "", []string{"-l", "--type", typ, "TODO"})
			if !slices.Equal(got, want) {
				t.Errorf("type %s: grep found %v, ripgrep %v", typ, got, want)
			}
		})
	}
	for alias, typ := range typeAliases {
		a, _ := typeGlobs(alias)
		if b, ok := typeGlobs(typ); !ok || !slices.Equal(a, b) {
			t.Errorf("type %s: want the globs of %s, got %v", alias, typ, a)
		}
	}
}

// ripgrepGlobs are the globs of the types rg knows, from its type list.
func ripgrepGlobs(t *testing.T, rg string) []string {
	t.Helper()
	list, err := exec.Command(rg, "--type-list").Output()
	if err != nil {
		t.Fatalf("rg --type-list: %v", err)
	}
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(list)), "\n") {
		if name, globs, _ := strings.Cut(line, ": "); fileTypes[name] != nil {
			out = append(out, strings.Split(globs, ", ")...)
		}
	}
	return out
}

// globSamples are file names a glob on a name matches: each "*" an "f",
// each class one name per character in it.
func globSamples(glob string) []string {
	i := strings.IndexAny(glob, "*[")
	if i < 0 {
		return []string{glob}
	}
	if glob[i] == '*' {
		return globSamples(glob[:i] + "f" + glob[i+1:])
	}
	end := strings.IndexByte(glob[i:], ']') + i
	var out []string
	for _, c := range glob[i+1 : end] {
		out = append(out, globSamples(glob[:i]+string(c)+glob[end+1:])...)
	}
	return out
}

// ripgrepOlderThan14 says rg is a ripgrep older than 14.
func ripgrepOlderThan14(t *testing.T, rg string) bool {
	t.Helper()
	version, err := exec.Command(rg, "--version").Output()
	if err != nil {
		t.Fatalf("rg --version: %v", err)
	}
	var major int
	if _, err := fmt.Sscanf(string(version), "ripgrep %d.", &major); err != nil {
		t.Fatalf("rg --version said %q, not ripgrep's version", version)
	}
	return major < 14
}
