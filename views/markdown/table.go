package markdown

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// Tables are laid out here, not by lipgloss's table: it cuts every header
// to one line with "…" and shares the width out without regard to words,
// so a column could end up one character narrower than a word that would
// have fitted, and that word broke in the middle. Here headers wrap like
// cells, cells wrap at spaces (and after hyphens, as ansi.Wrap does), and
// a word breaks only where it is wider than its column can be.

const (
	colRule  = "─"
	colCross = "┼"
	colBar   = "│"
)

// table lays a table out at the width left, as glamour did: a header
// separator, `│` between columns, no outer border, a space either side of
// each cell and the cells aligned as the Markdown says. Each column is as
// wide as its content where the width allows; see columnWidths.
func (r *renderer) table(n *east.Table) string {
	columns := len(n.Alignments)
	var rows [][]string
	header := -1
	for row := n.FirstChild(); row != nil; row = row.NextSibling() {
		var head *style
		if _, ok := row.(*east.TableHeader); ok {
			header, head = len(rows), &style{bold: on} // the column's name, set apart from its values
		}
		cells := make([]string, columns)
		j := 0
		for cell := row.FirstChild(); cell != nil && j < columns; cell = cell.NextSibling() {
			cells[j] = r.cell(cell, head)
			j++
		}
		rows = append(rows, cells)
	}
	widths := columnWidths(rows, r.available()-3*columns+1)
	var b strings.Builder
	for i, cells := range rows {
		writeRow(&b, cells, widths, n.Alignments)
		if i == header {
			writeRule(&b, widths)
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// writeRow writes one table row: its cells wrapped at their column's
// width, side by side, as many lines as its tallest cell.
func writeRow(b *strings.Builder, cells []string, widths []int, align []east.Alignment) {
	wrapped := make([][]string, len(cells))
	height := 1
	for j, c := range cells {
		if c != "" {
			wrapped[j] = wrapCell(c, widths[j])
		}
		height = max(height, len(wrapped[j]))
	}
	for k := range height {
		for j, lines := range wrapped {
			if j > 0 {
				b.WriteString(colBar)
			}
			line := ""
			if k < len(lines) {
				line = lines[k]
			}
			b.WriteByte(' ')
			b.WriteString(aligned(line, widths[j], align[j]))
			b.WriteByte(' ')
		}
		b.WriteByte('\n')
	}
}

// wrapCell wraps a cell's text at width into lines that each close the
// styles open at their end and open them again at the next one's start,
// as lipgloss.Wrap does. It breaks again the line ansi.Wrap leaves wider
// than width: a hyphen after a space is added to a line that is full.
func wrapCell(text string, width int) []string {
	var b strings.Builder
	pen := lipgloss.NewWrapWriter(&b)
	_, _ = io.WriteString(pen, wrapped(text, width))
	_ = pen.Close()
	return strings.Split(b.String(), "\n")
}

// wrapped is text broken into lines at width, its styles not yet closed
// at the ends of lines.
func wrapped(text string, width int) string {
	text = ansi.Wrap(text, width, "")
	if lipgloss.Width(text) > width {
		text = ansi.Hardwrap(text, width, false)
	}
	return text
}

// aligned pads line with spaces to width, on the side the alignment asks.
func aligned(line string, width int, a east.Alignment) string {
	gap := max(width-ansi.StringWidth(line), 0)
	left := 0
	switch a {
	case east.AlignRight:
		left = gap
	case east.AlignCenter:
		left = gap / 2
	}
	return strings.Repeat(" ", left) + line + strings.Repeat(" ", gap-left)
}

// writeRule writes the header separator: `─` under each column and its
// margins, `┼` where the bars are.
func writeRule(b *strings.Builder, widths []int) {
	for j, w := range widths {
		if j > 0 {
			b.WriteString(colCross)
		}
		b.WriteString(strings.Repeat(colRule, w+2))
	}
	b.WriteByte('\n')
}

// columnWidths shares room, the width left for the cells' text, out over
// the columns: every column gets its widest cell if all fit; else the
// columns share the room in proportion to their widest cells, so long
// columns wrap over about as many lines as each other, but none gets less
// than its longest word, and then a column that can have its widest cell
// without the table growing taller has it (see settle); else, with no
// room for every longest word, the narrow columns keep their longest word
// and the wide ones share the rest equally, breaking their words.
func columnWidths(rows [][]string, room int) []int {
	columns := len(rows[0])
	widest, longest := make([]int, columns), make([]int, columns)
	for _, cells := range rows {
		for j, c := range cells {
			widest[j] = max(widest[j], lipgloss.Width(c))
			longest[j] = max(longest[j], longestWord(c))
		}
	}
	switch {
	case sum(widest) <= room:
		return widest
	case sum(longest) <= room:
		return settle(rows, spread(longest, widest, room), longest, widest)
	default:
		return level(longest, room)
	}
}

// spread shares room out in proportion to most, giving no column less than
// least: a column whose share would be less gets least, and the others
// share what is left, until every share is at least its column's least.
// Rounding the running total to the nearest keeps the shares summing to
// the room, each within one of its exact share.
func spread(least, most []int, room int) []int {
	floored := make([]bool, len(least))
	left, weight := room, sum(most)
	for changed := true; changed; {
		changed = false
		for j := range least {
			if !floored[j] && most[j]*left < least[j]*weight {
				floored[j], changed = true, true
				left, weight = left-least[j], weight-most[j]
			}
		}
	}
	widths := make([]int, len(least))
	given, weighed := 0, 0
	for j := range least {
		if floored[j] {
			widths[j] = least[j]
			continue
		}
		weighed += most[j]
		widths[j] = (2*left*weighed+weight)/(2*weight) - given
		given += widths[j]
	}
	return widths
}

// settle gives a column that wraps its widest cell's width where the
// table grows no taller for it, the column that needs the least more
// first: a short column ("a - b → a + b") beside one long enough to wrap
// anyway then stays on one line, which sharing in proportion wrapped
// too. The width comes from the other columns, the widest first, none
// below its least.
func settle(rows [][]string, widths, least, widest []int) []int {
	var short []int
	for j := range widths {
		if widths[j] < widest[j] {
			short = append(short, j)
		}
	}
	slices.SortStableFunc(short, func(a, b int) int { return (widest[a] - widths[a]) - (widest[b] - widths[b]) })
	tall := height(rows, widths)
	for _, j := range short {
		try := slices.Clone(widths)
		if !lend(try, j, widest[j]-try[j], least) {
			continue
		}
		try[j] = widest[j]
		if h := height(rows, try); h <= tall {
			widths, tall = try, h
		}
	}
	return widths
}

// lend takes n from the columns of widths other than j, a column at a
// time from the widest, none below its least; false when they cannot
// spare n.
func lend(widths []int, j, n int, least []int) bool {
	for ; n > 0; n-- {
		k := -1
		for i, w := range widths {
			if i != j && w > least[i] && (k < 0 || w > widths[k]) {
				k = i
			}
		}
		if k < 0 {
			return false
		}
		widths[k]--
	}
	return true
}

// height is how many lines rows take with their columns at widths.
func height(rows [][]string, widths []int) int {
	total := 0
	for _, cells := range rows {
		tallest := 1
		for j, c := range cells {
			if c != "" {
				tallest = max(tallest, strings.Count(wrapped(c, widths[j]), "\n")+1)
			}
		}
		total += tallest
	}
	return total
}

// level shares room out equally, but a column that needs less than its
// share gets only what it needs and leaves the rest to the others. Where
// the room allows, a column gets at least two, if it needs them, so that
// a wide character fits; else at least one.
func level(need []int, room int) []int {
	order := make([]int, len(need))
	for j := range order {
		order[j] = j
	}
	slices.SortStableFunc(order, func(a, b int) int { return need[a] - need[b] })
	widths := make([]int, len(need))
	floor := max(min(room/len(need), 2), 1)
	for k, j := range order {
		widths[j] = min(need[j], max(room/(len(order)-k), floor))
		room -= widths[j]
	}
	return widths
}

// longestWord is the display width of the widest piece of s that wrapping
// keeps on one line: the text between spaces, split after each hyphen and
// around each wide character, as CJK text may break between any two.
// ansi.Wrap breaks a CJK run only where it is wider than the column, but
// then it breaks it at the column's width, so the run needs no more.
func longestWord(s string) int {
	longest, word := 0, 0
	for plain := ansi.Strip(s); plain != ""; {
		cluster, width := ansi.FirstGraphemeCluster(plain, ansi.GraphemeWidth)
		plain = plain[len(cluster):]
		r, _ := utf8.DecodeRuneInString(cluster)
		switch {
		case unicode.IsSpace(r) && r != '\u00a0': // ansi.Wrap keeps a no-break space in its word
			word = 0
		case width > 1:
			word, longest = 0, max(longest, width)
		default:
			word += width
			longest = max(longest, word)
			if r == '-' {
				word = 0
			}
		}
	}
	return longest
}

func sum(xs []int) int {
	total := 0
	for _, x := range xs {
		total += x
	}
	return total
}

// cell renders a cell's inline content; override, if set, is laid over
// the look of its text runs and around its links and code.
func (r *renderer) cell(n ast.Node, override *style) string {
	var b bytes.Buffer
	base := style{}
	if override != nil {
		base = *override
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		e := r.inline(c)
		if e.overridable() {
			e.render(r, &b, &base)
			continue
		}
		var inner bytes.Buffer
		e.render(r, &inner, nil)
		r.text(&b, inner.String(), base)
	}
	return b.String()
}
