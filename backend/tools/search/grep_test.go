package search

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tack-agent/tack/snapshots/testkit"
)

func TestGrepHonoursNestedIgnoreFiles(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, ignoreTree)
	r := run(t, NewGrep(noUserConfig), dir, map[string]any{"pattern": "^x$|package"})
	var got []string
	for _, l := range strings.Split(r.Text, "\n") {
		if strings.HasSuffix(l, ":") {
			got = append(got, strings.TrimSuffix(strings.TrimPrefix(l, dir+"/"), ":"))
		}
	}
	want := []string{"a.go", "keep.log", "sub/b.go", "sub/debug.log", "sub/deep/c.go", "sub/deep/keep.log", "sub/top-only.txt"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("want files %v, got %v", want, got)
	}
}

func TestGrepResultFormat(t *testing.T) {
	t.Run("grouped", func(t *testing.T) {
		dir := t.TempDir()
		testkit.WriteTree(t, dir, map[string]string{
			"b.go":     "package b\n\nfunc Hello() {}\n",
			"a/x.go":   "package a\n// Hello there\nfunc hello() {}\nvar Hello = 1\n",
			"c.txt":    "nothing here\n",
			"long.txt": strings.Repeat("é", 1500) + "Hello\n",
		})
		matchGolden(t, dir, run(t, NewGrep(noUserConfig), dir, map[string]any{"pattern": "Hello"}).Text)
	})
	t.Run("include", func(t *testing.T) {
		dir := t.TempDir()
		testkit.WriteTree(t, dir, map[string]string{"a.go": "Hello\n", "b.txt": "Hello\n", "x/c.go": "Hello\n"})
		matchGolden(t, dir, run(t, NewGrep(noUserConfig), dir, map[string]any{"pattern": "Hello", "include": "*.go"}).Text)
	})
	t.Run("capped", func(t *testing.T) {
		dir := t.TempDir()
		files := map[string]string{}
		for i := range 30 {
			files[fmt.Sprintf("f%02d.txt", i)] = strings.Repeat("match\n", 10)
		}
		testkit.WriteTree(t, dir, files)
		r := run(t, NewGrep(noUserConfig), dir, map[string]any{"pattern": "match"})
		if n := strings.Count(r.Text, "  Line "); n != 250 {
			t.Errorf("want 250 lines shown, got %d", n)
		}
		i := strings.LastIndex(r.Text, "\n\n")
		matchGolden(t, dir, strings.SplitN(r.Text, "\n", 2)[0]+"\n…"+r.Text[i:])
		if !r.Card.Truncated {
			t.Errorf("want the card marked truncated")
		}
	})
	t.Run("none", func(t *testing.T) {
		dir := t.TempDir()
		testkit.WriteTree(t, dir, map[string]string{"a.go": "package a\n"})
		matchGolden(t, dir, run(t, NewGrep(noUserConfig), dir, map[string]any{"pattern": "zebra"}).Text)
	})
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
	r := run(t, NewGrep(noUserConfig), dir, map[string]any{"pattern": `^line (19999|20001|49999)$|needle`})
	for _, want := range []string{"Line 19999: line 19999", "Line 20001: line 20001", "Line 49999: line 49999", "Line 50001: needle at the end"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("want %q in %q", want, r.Text)
		}
	}
}

func TestGrepSkipsBinaryFilesAndSearchesOneFile(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"bin.dat": "Hello\x00\x01", "t.txt": "Hello\n", "u.txt": "Hello\n"})
	r := run(t, NewGrep(noUserConfig), dir, map[string]any{"pattern": "Hello"})
	if strings.Contains(r.Text, "bin.dat") || !strings.HasPrefix(r.Text, "Found 2 matches") {
		t.Errorf("want 2 matches in the text files only, got %q", r.Text)
	}
	r = run(t, NewGrep(noUserConfig), dir, map[string]any{"pattern": "Hello", "path": "u.txt"})
	if want := "Found 1 match\n\n" + dir + "/u.txt:\n  Line 1: Hello"; r.Text != want {
		t.Errorf("want %q, got %q", want, r.Text)
	}
	if r.Card == nil || r.Card.Title != "Grep Hello" || r.Card.Body != "u.txt:\n  Line 1: Hello" || r.Card.Truncated {
		t.Errorf("want search card Grep Hello listing u.txt, got %+v", r.Card)
	}
}

func TestGrepErrors(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"pattern": "("}, "Error: invalid pattern: error parsing regexp: missing closing ): `(` (patterns use Go RE2 syntax: no lookaround or backreferences; escape ( [ { . * + ? for literal text)"},
		{map[string]any{"pattern": "a(?=b)"}, "Error: invalid pattern: error parsing regexp: invalid or unsupported Perl syntax: `(?=` (patterns use Go RE2 syntax: no lookaround or backreferences; escape ( [ { . * + ? for literal text)"},
		{map[string]any{"pattern": "a", "include": "{x"}, `Error: invalid include: invalid glob "{x": unclosed {`},
		{map[string]any{"pattern": "a", "path": "nope"}, `Error: cannot search "` + dir + `/nope": not found`},
		{map[string]any{"pattern": "a", "glob": "*"}, `Error: invalid arguments: unknown argument "glob"; the accepted arguments are pattern, path, include`},
	}
	for _, c := range cases {
		if r := run(t, NewGrep(noUserConfig), dir, c.args); r.Text != c.want {
			t.Errorf("%v: want %q, got %q", c.args, c.want, r.Text)
		}
	}
}
