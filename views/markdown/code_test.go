package markdown

import (
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/formatters"
	chromalexers "github.com/alecthomas/chroma/v2/lexers"

	"github.com/tack-agent/tack/views/theme"
)

// highlight writes what chroma's own terminal16 formatter writes for the
// same code, lexer and theme: chroma is the oracle.
func TestHighlightWritesWhatChromasTerminal16Writes(t *testing.T) {
	samples := map[string]string{
		"go":      "package main\n\nfunc main() {\n    fmt.Println(\"hi\", 0x1f) // greet\n}\n",
		"python":  "@dec\nclass A:\n    def f(self) -> str:\n        return 'x'  # c\n",
		"bash":    "for f in *.go; do echo \"$f\"; done\n",
		"json":    "{\"a\": [1, true, null]}\n",
		"diff":    "-old\n+new\n context\n",
		"klingon": "qapla'\n",
	}
	for _, bg := range []theme.Background{theme.Dark, theme.Light} {
		for lang, src := range samples {
			lexer := chromalexers.Get(lang)
			if lexer == nil {
				lexer = chromalexers.Fallback
			}
			it, err := chroma.Coalesce(lexer).Tokenise(nil, src)
			if err != nil {
				t.Fatal(err)
			}
			var want strings.Builder
			if err := formatters.TTY16.Format(&want, chroma.MustNewStyle("tack", codeThemes[bg]), it); err != nil {
				t.Fatal(err)
			}
			if got := highlight(src, lang, bg); got != want.String() {
				t.Errorf("%s on %v: want chroma's\n%q\ngot\n%q", lang, bg, want.String(), got)
			}
		}
	}
}
