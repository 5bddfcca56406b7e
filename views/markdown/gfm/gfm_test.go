package gfm

import (
	"bytes"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// cases exercise each extension where goldmark's code takes a branch:
// delimiter rows and alignments, escaped pipes in code spans, rows longer
// and shorter than the header, boxes in and out of list items, the ends
// of autolinks, tilde runs.
var cases = []string{
	"| a | b |\n|---|:-:|\n| 1 | 2 |\n",
	"a | b | c\n:-- | --: | :-:\nx | y\n1 | 2 | 3 | 4\n",
	"para line\n| h |\n| - |\n| `a\\|b` | c\n",
	"| `x \\| y` | `\\|` |\n| --- | --- |\n| `p\\|q\\|r` | s \\| t |\n",
	"|a|\n|-|-|\n",
	"    | not | a table |\n    |---|---|\n",
	"| a |\n| --- |\n",
	"| a |\n|:--:|\n> quote | b\n",
	"- [ ] todo\n- [x] done\n- [X] also\n  - [ ] nested\n- not [ ] a box\n\n[ ] outside a list\n",
	"1. [x] ordered\n2. [ ]\n3. [x]no space\n",
	"~one~ ~~two~~ ~~~three~~~ a~b~c ~~ open\n",
	"see https://example.com/a_(b)_c), www.example.org. and http://x.io/p?q=1&amp; ok\n",
	"mail me@example.com, or you@sub.example.co.uk. not@example nor a@b.c- or x@y.z_\n",
	"(https://example.com/path) *http://a.b/c* _www.c.de_ ~https://t.co~\n",
	"ftp://files.example.net/x.tar.gz; https://example.com/&copy; https://e.com/a;b\n",
	"[link https://inside.example.com](https://outer.example.com) and <https://angle.example.com>\n",
	"www.x trailing www.example.com/?!.,:*_~ end\n",
	"# Heading ~~struck~~\n\n```go\n| not | a table |\n|---|---|\n```\n",
}

func TestParsesAsGoldmarksExtensions(t *testing.T) {
	for _, src := range cases {
		want, got := renderBoth(t, []byte(src))
		if got != want {
			t.Errorf("input %q:\nwant (goldmark's GFM)\n%s\ngot\n%s", src, want, got)
		}
	}
}

func FuzzParsesAsGoldmarksExtensions(f *testing.F) {
	for _, src := range cases {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		want, got := renderBoth(t, []byte(src))
		if got != want {
			t.Errorf("input %q:\nwant (goldmark's GFM)\n%s\ngot\n%s", src, want, got)
		}
	})
}

// renderBoth renders src to HTML with goldmark's own GFM parser and with
// this package's, both through goldmark's GFM renderer.
func renderBoth(t testing.TB, src []byte) (want, got string) {
	t.Helper()
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	var w, g bytes.Buffer
	if err := md.Renderer().Render(&w, src, md.Parser().Parse(text.NewReader(src))); err != nil {
		t.Fatal(err)
	}
	if err := md.Renderer().Render(&g, src, NewParser().Parse(text.NewReader(src))); err != nil {
		t.Fatal(err)
	}
	return w.String(), g.String()
}
