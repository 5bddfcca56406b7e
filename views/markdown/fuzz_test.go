package markdown

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// FuzzRender: any text renders, in colour and without, to lines no wider
// than the width, with no control byte of the source reaching the terminal
// and no style left open at a line's end.
func FuzzRender(f *testing.F) {
	for _, s := range []string{sample, "> > > > deep\n", "| a | b |\n|---|---|\n| 1 | 2 |\n", "- a\n  - b\n    - c\n", "```go\nx\n```", "**a *b* c**", "<b>x</b>\x1b]2;t\x07", "1. x\n\n   ```\n   y\n   ```\n"} {
		f.Add(s, uint8(20))
	}
	f.Fuzz(func(t *testing.T, src string, w uint8) {
		width := 8 + int(w)%120
		for _, o := range []Options{{Colour: true}, {}, {Colour: true, Dim: true}} {
			for _, l := range New(o).Render(src, width) {
				if got := ansi.StringWidth(l); got > width {
					t.Fatalf("%+v width %d: want lines at most %d wide, got %d: %q\nsource %q", o, width, width, got, l, src)
				}
				if strings.ContainsAny(ansi.Strip(l), "\x07\x1b\r") {
					t.Fatalf("want no control byte from the source, got %q\nsource %q", l, src)
				}
				if !o.Colour && strings.Contains(l, "\x1b") {
					t.Fatalf("want no escape without colour, got %q", l)
				}
			}
		}
	})
}
