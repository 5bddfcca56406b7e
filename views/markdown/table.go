package markdown

import (
	"bytes"
	"strings"

	"charm.land/lipgloss/v2"
	"charm.land/lipgloss/v2/table"
	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// lipgloss lays tables out at the full wrap width, spreading the spare
// width over the columns, so a two-column table of short words spans the
// whole screen. It offers no way to ask for the content width, so
// fitTables takes the spare spaces out of its output again. A
// table there is a header separator row of `─` with a `┼` between columns,
// and the rows above and below it that have `│` at each `┼` position.
// Tables of one column have no such separator and are left as they are.

const (
	colRule  = "─"
	colCross = "┼"
	colBar   = "│"
)

// fitTables narrows every multi-column table in the rendered lines to its
// content: each column keeps one space either side of its widest cell.
// Only spaces are removed; styles and every other character are kept.
func fitTables(lines []string) []string {
	for i := 0; i < len(lines); i++ {
		if !strings.Contains(lines[i], colCross) {
			continue
		}
		sep := cells(lines[i])
		bars, ok := separatorBars(sep)
		if !ok {
			continue
		}
		top := i
		for top > 0 && hasBars(cells(lines[top-1]), bars) {
			top--
		}
		end := i + 1
		for end < len(lines) && hasBars(cells(lines[end]), bars) {
			end++
		}
		if top == i {
			continue
		}
		drop := spareColumns(lines[top:end], i-top, bars, len(sep))
		for j := top; j < end; j++ {
			lines[j] = dropColumns(lines[j], drop)
		}
		i = end - 1
	}
	return lines
}

// cells splits a styled line into its display columns: the grapheme that
// starts at each column, and "" for the second column of a wide one.
func cells(line string) []string {
	plain := ansi.Strip(line)
	out := make([]string, 0, len(plain))
	var state byte
	for len(plain) > 0 {
		seq, width, n, newState := ansi.DecodeSequence(plain, state, nil)
		if width > 0 {
			out = append(out, seq)
			for k := 1; k < width; k++ {
				out = append(out, "")
			}
		}
		state, plain = newState, plain[n:]
	}
	return out
}

// separatorBars reports the columns of `┼` in a header separator row: an
// optional indent of spaces, then only `─` and `┼`.
func separatorBars(c []string) ([]int, bool) {
	var bars []int
	start := 0
	for start < len(c) && c[start] == " " {
		start++
	}
	for k := start; k < len(c); k++ {
		switch c[k] {
		case colCross:
			bars = append(bars, k)
		case colRule:
		default:
			return nil, false
		}
	}
	return bars, len(bars) > 0 && c[start] == colRule
}

func hasBars(c []string, bars []int) bool {
	for _, b := range bars {
		if b >= len(c) || c[b] != colBar {
			return false
		}
	}
	return true
}

// spareColumns returns, per display column, whether it is spare padding:
// in every column of the table, the columns outside one space either side
// of the widest content. The separator row at index sep does not count as
// content, and the indent before the table is kept.
func spareColumns(rows []string, sep int, bars []int, width int) []bool {
	grid := make([][]string, len(rows))
	for j, r := range rows {
		grid[j] = cells(r)
	}
	indent := 0
	for indent < len(grid[sep]) && grid[sep][indent] == " " {
		indent++
	}
	drop := make([]bool, width)
	from := indent
	for _, to := range append(append([]int{}, bars...), width) {
		first, last := to, from-1
		for j, c := range grid {
			if j == sep {
				continue
			}
			for k := from; k < to && k < len(c); k++ {
				if c[k] != " " {
					first, last = min(first, k), max(last, k)
				}
			}
		}
		if last < first {
			first, last = from, from
		}
		for k := from; k < to; k++ {
			drop[k] = k < first-1 || k > last+1
		}
		from = to + 1
	}
	return drop
}

// dropColumns removes the display columns marked in drop from a styled
// line, keeping every escape sequence so styles open and close as before.
func dropColumns(line string, drop []bool) string {
	var b strings.Builder
	col := 0
	var state byte
	for len(line) > 0 {
		seq, width, n, newState := ansi.DecodeSequence(line, state, nil)
		if width == 0 || col >= len(drop) || !drop[col] {
			b.WriteString(seq)
		}
		col += width
		state, line = newState, line[n:]
	}
	return b.String()
}

// table lays a table out with lipgloss at the width left, as glamour did:
// a header separator, `│` between columns, no outer border, a space either
// side of each cell and the cells aligned as the Markdown says.
func (r *renderer) table(n *east.Table) string {
	t := table.New().Width(r.available()).Wrap(true)
	for row := n.FirstChild(); row != nil; row = row.NextSibling() {
		var cells []string
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			cells = append(cells, r.cell(cell))
		}
		if _, ok := row.(*east.TableHeader); ok {
			t.Headers(cells...)
		} else {
			t.Row(cells...)
		}
	}
	t.StyleFunc(func(row, col int) lipgloss.Style {
		st := lipgloss.NewStyle().Inline(false).Margin(0, 1)
		if row == table.HeaderRow {
			st = st.Bold(true) // as the column's name, set apart from its values
		}
		switch n.Alignments[col] {
		case east.AlignLeft:
			st = st.Align(lipgloss.Left).PaddingRight(0)
		case east.AlignCenter:
			st = st.Align(lipgloss.Center)
		case east.AlignRight:
			st = st.Align(lipgloss.Right).PaddingLeft(0)
		}
		return st
	})
	t.Border(lipgloss.NormalBorder()).BorderTop(false).BorderLeft(false).BorderRight(false).BorderBottom(false)
	return t.String()
}

func (r *renderer) cell(n ast.Node) string {
	var b bytes.Buffer
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		e := r.inline(c)
		if e.overridable() {
			e.render(r, &b, &style{})
			continue
		}
		var inner bytes.Buffer
		e.render(r, &inner, nil)
		r.text(&b, inner.String(), style{})
	}
	return b.String()
}
