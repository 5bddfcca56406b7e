package search

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
