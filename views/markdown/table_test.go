package markdown

import (
	"fmt"
	"math/rand/v2"
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

// wideTable is an answer that showed words broken in the middle and
// headers cut with "…" at 100 columns, where every word fits its column.
const wideTable = "| Feature | Claude Code behaviour | glow / glamour behaviour | tack before this change | Configuration | Performance impact | Recommendation |\n" +
	"|---|---|---|---|---|---|---|\n" +
	"| Table cell wrapping | wraps at word boundaries | wraps at word boundaries | breaks something in the middle | none | negligible | wrap at spaces |\n" +
	"| Header wrapping | wraps like the cells | truncates with an ellipsis | truncates with an ellipsis | none | negligible | wrap like cells |\n"

func TestRenderWrapsTableCellsAtWordBoundaries(t *testing.T) {
	for _, width := range []int{100, 120} {
		lines := New(Options{Colour: true}).Render(wideTable, width)
		plain := strings.Split(plainLines(lines), "\n")
		assertTableFits(t, plain, width)
		shown := map[string]bool{}
		for _, l := range plain {
			for _, w := range strings.Fields(strings.NewReplacer("│", " ", "┼", " ").Replace(l)) {
				shown[w] = true
			}
		}
		for _, w := range strings.Fields(strings.NewReplacer("|", " ", "-", " ").Replace(wideTable)) {
			if !shown[w] {
				t.Fatalf("width %d: want %q whole, as every word fits its column; got\n%s", width, w, strings.Join(plain, "\n"))
			}
		}
	}
}

func TestRenderBreaksOnlyWordsLongerThanTheirColumn(t *testing.T) {
	src := "| id | note |\n|---|---|\n| a1 | supercalifragilisticexpialidocious word |\n"
	plain := strings.Split(plainLines(New(Options{}).Render(src, 20)), "\n")
	assertTableFits(t, plain, 20)
	var note []string
	for _, l := range plain[2:] {
		id, text, _ := strings.Cut(l, "│")
		if strings.TrimSpace(id) != "a1" && strings.TrimSpace(id) != "" {
			t.Fatalf("want the id column whole, got %q in\n%s", id, strings.Join(plain, "\n"))
		}
		note = append(note, strings.TrimSpace(text))
	}
	if got := strings.Join(note, "|"); got != "supercalifrag|ilisticexpial|idocious word" {
		t.Fatalf("want the long word broken at the column's width and \"word\" whole, got %q", got)
	}
}

func TestRenderWrapsWideCharactersByDisplayWidth(t *testing.T) {
	src := "| 説明 | impact | cost |\n|---|---|---|\n| 表の列を単語の境界で折り返す 🚀 | performance | negligible |\n"
	plain := strings.Split(plainLines(New(Options{}).Render(src, 38)), "\n")
	assertTableFits(t, plain, 38)
	var text, rest strings.Builder
	for _, l := range plain[2:] {
		cell, other, _ := strings.Cut(l, "│")
		text.WriteString(strings.ReplaceAll(cell, " ", ""))
		rest.WriteString(other + "\n")
	}
	if got := text.String(); got != "表の列を単語の境界で折り返す🚀" {
		t.Fatalf("want every character of the cell kept in order, got %q in\n%s", got, strings.Join(plain, "\n"))
	}
	// CJK text may break between any two characters, so it leaves the
	// room for the words of the other columns.
	for _, w := range []string{"performance", "negligible"} {
		if !strings.Contains(rest.String(), w) {
			t.Fatalf("want %q whole, got\n%s", w, strings.Join(plain, "\n"))
		}
	}
}

func TestRenderKeepsTableBarsAlignedWhereAnsiWrapOverflows(t *testing.T) {
	// ansi.Wrap("ab cd --", 4, "") leaves "cd --" on one line, five wide.
	plain := strings.Split(plainLines(New(Options{}).Render("| a | b |\n|---|---|\n| ab cd -- | x |\n", 10)), "\n")
	assertTableFits(t, plain, 10)
}

// assertTableFits checks that rendered table rows are at most width wide,
// have their bars in the same display columns and cut no text with "…".
func assertTableFits(t *testing.T, plain []string, width int) {
	t.Helper()
	var want []int
	for i, l := range plain {
		if w := ansi.StringWidth(l); w > width {
			t.Fatalf("want rows at most %d wide, got %d: %q", width, w, l)
		}
		if strings.Contains(l, "…") {
			t.Fatalf("want no text cut with …, got %q", l)
		}
		var bars []int
		col := 0
		for _, r := range l {
			if r == '│' || r == '┼' {
				bars = append(bars, col)
			}
			col += ansi.StringWidth(string(r))
		}
		if i == 0 {
			want = bars
		} else if fmt.Sprint(bars) != fmt.Sprint(want) {
			t.Fatalf("want the bars of every row at %v, got %v in row %d:\n%s", want, bars, i, strings.Join(plain, "\n"))
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

// A short column beside a long one that wraps keeps its cells on one
// line where the table is no taller for it (found in tmux: "a - b → a +
// b" wrapped after the arrow beside a note that took two lines either
// way); where giving it its width would make the table taller, it wraps.
func TestRenderKeepsShortColumnsWholeWhereTheTableGrowsNoTaller(t *testing.T) {
	src := "| File | Change | Why |\n|---|---|---|\n" +
		"| `calc.go` | `a - b` → `a + b` | the test expects a sum; a very long explanation cell that must wrap nicely in narrow terminals without breaking the table |\n"
	plain := strings.Split(plainLines(New(Options{}).Render(src, 100)), "\n")
	assertTableFits(t, plain, 100)
	if len(plain) != 4 || !strings.Contains(plain[2], "a - b → a + b") {
		t.Fatalf("want the change on one line and the note on two, got\n%s", strings.Join(plain, "\n"))
	}
	// Here the first column at its widest would leave the second seven
	// wide, its text over six lines: both keep their shares, three lines.
	src = "| a | b |\n|---|---|\n| one two three four five six | seven eight nine ten eleven twelve thirteen |\n"
	plain = strings.Split(plainLines(New(Options{}).Render(src, 40)), "\n")
	assertTableFits(t, plain, 40)
	if len(plain) != 5 {
		t.Fatalf("want the cells over three lines, as shared in proportion, got\n%s", strings.Join(plain, "\n"))
	}
}

// Whatever the cells, where every longest word fits, settling keeps each
// column at least as wide as its longest word, within the room, and the
// table no taller than sharing in proportion made it.
func TestColumnWidthsSettleWithinTheirBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("a to the of sum table column wraps negligible → supercalifragilistic 日本語 x-y-z")
	for range 2000 {
		columns, room := 2+rng.IntN(4), 20+rng.IntN(80)
		rows := make([][]string, 1+rng.IntN(4))
		for i := range rows {
			rows[i] = make([]string, columns)
			for j := range rows[i] {
				cell := make([]string, rng.IntN(12))
				for k := range cell {
					cell[k] = words[rng.IntN(len(words))]
				}
				rows[i][j] = strings.Join(cell, " ")
			}
		}
		widest, longest := make([]int, columns), make([]int, columns)
		for _, cells := range rows {
			for j, c := range cells {
				widest[j], longest[j] = max(widest[j], ansi.StringWidth(c)), max(longest[j], longestWord(c))
			}
		}
		if sum(widest) <= room || sum(longest) > room {
			continue
		}
		got, shared := columnWidths(rows, room), spread(longest, widest, room)
		for j := range got {
			if got[j] < longest[j] {
				t.Fatalf("%q in %d: column %d is %d wide, narrower than its longest word, %d", rows, room, j, got[j], longest[j])
			}
		}
		if sum(got) > room || height(rows, got) > height(rows, shared) {
			t.Fatalf("%q in %d: widths %v (%d rows) against %v shared in proportion (%d rows)", rows, room, got,
				height(rows, got), shared, height(rows, shared))
		}
	}
}
