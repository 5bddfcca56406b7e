package markdown

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func plainLines(lines []string) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = ansi.Strip(l)
	}
	return strings.Join(out, "\n")
}

func TestRenderFitsTablesToTheirContent(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{
			name: "aligned columns",
			src:  "| Name | Age |\n|:-----|----:|\n| **Bob** | 3 |\n| Alice `x` | 40 |\n",
			want: " Name    │ Age\n─────────┼─────\n Bob     │   3\n Alice x │  40",
		},
		{
			name: "empty cell and centred column",
			src:  "| a | b | c |\n|:-:|---|---|\n| 1 | | 3 |\n",
			want: " a │ b │ c\n───┼───┼───\n 1 │   │ 3",
		},
		{
			name: "wide characters",
			src:  "| 名前 | b |\n|---|---|\n| 日本語 | x |\n",
			want: " 名前   │ b\n────────┼───\n 日本語 │ x",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := plainLines(New(Options{Colour: true}).Render(tt.src, 60))
			if got != tt.want {
				t.Fatalf("want\n%s\ngot\n%s", tt.want, got)
			}
		})
	}
}

func TestRenderKeepsCellStylesWhenFittingTables(t *testing.T) {
	lines := New(Options{Colour: true}).Render("| Name | Age |\n|---|---|\n| **Bob** | 3 |\n", 60)
	if len(lines) != 3 || !strings.HasPrefix(lines[2], " \x1b[1mBob\x1b[m ") {
		t.Fatalf("want the bold cell closed before its padding, got %q", lines)
	}
}

func TestRenderWrapsTablesWiderThanTheWidth(t *testing.T) {
	long := strings.Repeat("word ", 20)
	lines := New(Options{}).Render("| long | col |\n|---|---|\n| "+long+"| x |\n", 40)
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > 40 {
			t.Fatalf("want rows at most 40 wide, got %d: %q", w, l)
		}
	}
	if len(lines) < 4 {
		t.Fatalf("want the long cell wrapped over several rows, got %q", lines)
	}
}

func TestFitTablesLeavesOtherLinesAlone(t *testing.T) {
	in := []string{"  x ┼ y  ", "──┼──   ", "no bars here", "a  │  b"}
	got := fitTables(append([]string{}, in...))
	for i := range in {
		if got[i] != in[i] {
			t.Fatalf("want line %d unchanged %q, got %q", i, in[i], got[i])
		}
	}
}

func TestRenderSetsTableHeadersInBold(t *testing.T) {
	lines := New(Options{Colour: true}).Render("| Input | Want |\n|---|---:|\n| `a b` | 2 |\n", 60)
	if len(lines) != 3 || !strings.Contains(lines[0], "\x1b[1mInput") || strings.Contains(lines[2], "\x1b[1m") {
		t.Fatalf("want the header row bold and the values not, got %q", lines)
	}
	if plain := New(Options{}).Render("| Input | Want |\n|---|---|\n| a | 2 |\n", 60); strings.Contains(strings.Join(plain, ""), "\x1b") {
		t.Fatalf("want no styling without colour, got %q", plain)
	}
}

// BenchmarkRenderWideTable renders a seven-column table of prose at widths
// where it fits, where its columns wrap at words and where words break.
func BenchmarkRenderWideTable(b *testing.B) {
	row := "| Table cell wrapping | wraps at word boundaries | wraps at word boundaries | breaks something in the middle | none | negligible | wrap at spaces |\n"
	src := "| Feature | Claude Code behaviour | glow / glamour behaviour | tack before this change | Configuration | Performance impact | Recommendation |\n" +
		"|---|---|---|---|---|---|---|\n" + strings.Repeat(row, 20)
	r := New(Options{Colour: true})
	for _, width := range []int{60, 100, 200} {
		b.Run(fmt.Sprint(width), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if lines := r.Render(src, width); len(lines) < 22 {
					b.Fatalf("want a row of lines per table row, got %q", lines)
				}
			}
		})
	}
}
