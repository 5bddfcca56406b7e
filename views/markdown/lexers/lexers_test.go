package lexers

import (
	"fmt"
	"io/fs"
	"reflect"
	"testing"

	"github.com/alecthomas/chroma/v2"
	chromalexers "github.com/alecthomas/chroma/v2/lexers"
)

// TestIndexMatchesTheDefinitions: the index says of every definition what
// its XML says, and names every file here.
func TestIndexMatchesTheDefinitions(t *testing.T) {
	paths, err := fs.Glob(embedded, "*.xml")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != len(index) {
		t.Fatalf("want one index entry per definition, got %d entries for %d files", len(index), len(paths))
	}
	for _, d := range index {
		c := *chroma.MustNewXMLLexer(embedded, d.file).Config()
		want := chroma.Config{Name: c.Name, Aliases: c.Aliases, Filenames: c.Filenames, AliasFilenames: c.AliasFilenames, Priority: c.Priority}
		if !reflect.DeepEqual(d.config, want) {
			t.Errorf("%s: want the index entry\n\t{file: %q, config: %#v},\ngot\n\t%#v", d.file, d.file, want, d.config)
		}
	}
}

// Every definition here must load, and every lexer must tokenise code
// without an error token for the fences models write.
func TestEveryLexerLoadsAndTokenises(t *testing.T) {
	paths, err := fs.Glob(embedded, "*.xml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("want embedded definitions, got %v (%v)", paths, err)
	}
	for _, l := range registry().Lexers {
		it, err := l.Tokenise(nil, "x = 1\n")
		if err != nil {
			t.Fatalf("%s: want it to tokenise, got %v", l.Config().Name, err)
		}
		if got := chroma.Stringify(it.Tokens()...); got != "x = 1\n" {
			t.Fatalf("%s: want the text back, got %q", l.Config().Name, got)
		}
	}
}

func TestGetResolvesNamesAliasesAndFileNames(t *testing.T) {
	for lang, want := range map[string]string{
		"go": "Go", "golang": "Go", "Go": "Go", "main.go": "Go",
		"py": "Python", "python3": "Python", "sh": "Bash", "zsh": "Bash", "shell": "Bash",
		"console": "Bash Session", "ts": "TypeScript", "tsx": "TypeScript", "jsx": "react",
		"js": "JavaScript", "json": "JSON", "yml": "YAML", "toml": "TOML", "patch": "Diff",
		"rs": "Rust", "c++": "C++", "cpp": "C++", "csharp": "C#", "kt": "Kotlin", "rb": "Ruby",
		"sql": "SQL", "html": "HTML", "css": "CSS", "dockerfile": "Docker", "Makefile": "Makefile",
		"lua": "Lua", "php": "PHP", "swift": "Swift", "ini": "INI", "proto": "Protocol Buffer",
		"graphql": "GraphQL", "hcl": "HCL", "tf": "Terraform", "text": "plaintext",
	} {
		l := Get(lang)
		if l == nil {
			t.Errorf("%q: want the %s lexer, got none", lang, want)
			continue
		}
		if got := l.Config().Name; got != want || got != chromalexers.Get(lang).Config().Name {
			t.Errorf("%q: want the %s lexer, as chroma picks it, got %s", lang, want, got)
		}
	}
	for _, lang := range []string{"", "klingon", "unknownlang"} {
		if l := Get(lang); l != nil {
			t.Errorf("%q: want no lexer, got %s", lang, l.Config().Name)
		}
	}
}

// The lexers here tokenise as chroma's own registry does, including
// those that use another lexer (HTML, Dockerfile, Go's raw strings).
func TestLexersTokeniseAsChromasOwn(t *testing.T) {
	samples := map[string]string{
		"html":       "<p class=\"x\">hi</p><script>var x = 1;</script><style>a { color: red }</style>\n",
		"dockerfile": "FROM golang:1.26\nRUN go build ./... && echo ok\nCMD [\"tack\"]\n",
		"go":         "package main\n\nvar t = `{{.X}}`\n\nfunc main() {\n\tfmt.Println(\"hi\", 0x1f, 'c') // greet\n}\n",
		"python":     "@dec\nclass A:\n    def f(self, x: int) -> str:\n        return f\"{x}\"  # c\n",
		"bash":       "for f in *.go; do echo \"$f\" | grep -q x && exit 1; done\n",
		"console":    "$ go test ./...\nok  \tpkg\t0.1s\n",
		"tsx":        "const App = (p: Props) => <div>{p.x}</div>;\n",
		"makefile":   "all: build\n\tgo build ./...\n",
		"diff":       "--- a\n+++ b\n@@ -1 +1 @@\n-old\n+new\n",
	}
	for lang, src := range samples {
		want, err := chromalexers.Get(lang).Tokenise(nil, src)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Get(lang).Tokenise(nil, src)
		if err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		if w, g := fmt.Sprint(want.Tokens()), fmt.Sprint(got.Tokens()); w != g {
			t.Errorf("%s: want chroma's tokens\n%s\ngot\n%s", lang, w, g)
		}
	}
}

// BenchmarkFirstCodeBlock is what the first code block of a session
// costs: reading the definitions' headers, then compiling one lexer's
// rules and tokenising a short block.
func BenchmarkFirstCodeBlock(b *testing.B) {
	src := "func main() {\n\tfmt.Println(\"hi\") // greet\n}\n"
	for _, lang := range []string{"go", "python", "typescript", "bash"} {
		b.Run(lang, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				it, err := newRegistry().Get(lang).Tokenise(nil, src)
				if err != nil {
					b.Fatal(err)
				}
				if len(it.Tokens()) == 0 {
					b.Fatal("want tokens")
				}
			}
		})
	}
	b.Run("headers-only", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if len(newRegistry().Lexers) == 0 {
				b.Fatal("want lexers")
			}
		}
	})
}
