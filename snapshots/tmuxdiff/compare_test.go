//go:build linux

package tmuxdiff

import (
	"fmt"
	"strings"
)

// A difference is one way the two screens disagree: a row's characters,
// the style of one character, or the cursor.
type difference struct {
	screen string
	row    int // -1 for the cursor
	col    int // the character's column, for a style; -1 for a whole row
	vt     string
	tmux   string
	// vtRow and tmuxRow are the row's characters, for a row difference.
	vtRow, tmuxRow []glyph
}

func (d difference) String() string {
	switch {
	case d.row < 0:
		return fmt.Sprintf("%s: cursor: x/vt %s, tmux %s", d.screen, d.vt, d.tmux)
	case d.col < 0:
		return fmt.Sprintf("%s: row %d:\n  x/vt %q\n  tmux %q", d.screen, d.row, d.vt, d.tmux)
	}
	return fmt.Sprintf("%s: row %d, column %d: x/vt %s, tmux %s", d.screen, d.row, d.col, d.vt, d.tmux)
}

// compare lists where the screens differ. A row whose characters differ,
// or sit at other columns or take other widths, is one difference (its
// styles are not compared: the characters no longer line up); in a row
// whose characters agree, every character whose style differs is one.
func compare(screen string, vt, tmux grid) []difference {
	var diffs []difference
	for y := range max(len(vt.rows), len(tmux.rows)) {
		if y >= len(vt.rows) || y >= len(tmux.rows) {
			diffs = append(diffs, difference{screen: screen, row: y, col: -1, vt: rowOf(vt, y), tmux: rowOf(tmux, y)})
			continue
		}
		if v, m := layout(vt.rows[y]), layout(tmux.rows[y]); v != m {
			diffs = append(diffs, difference{screen: screen, row: y, col: -1, vt: v, tmux: m, vtRow: vt.rows[y], tmuxRow: tmux.rows[y]})
			continue
		}
		for x, g := range vt.rows[y] {
			if s := tmux.rows[y][x].style; g.style != s {
				diffs = append(diffs, difference{screen: screen, row: y, col: g.col,
					vt: fmt.Sprintf("%q %s", g.text, g.style), tmux: fmt.Sprintf("%q %s", g.text, s)})
			}
		}
	}
	if vt.cursor != tmux.cursor {
		diffs = append(diffs, difference{screen: screen, row: -1,
			vt: vt.cursor.String(), tmux: tmux.cursor.String()})
	}
	return diffs
}

// layout is a row's text with the column and width of every character that
// is not one column of printable ASCII, as ‹col+width›, after the
// character where it is not where a run of narrow characters puts it.
func layout(row []glyph) string {
	var b strings.Builder
	col := 0
	for _, g := range row {
		b.WriteString(g.text)
		if g.col != col || g.width != 1 || !ascii(g.text) {
			fmt.Fprintf(&b, "‹%d+%d›", g.col, g.width)
		}
		col = g.col + g.width
	}
	return b.String()
}

func rowOf(g grid, y int) string {
	if y < len(g.rows) {
		return g.rowText(y)
	}
	return "(no row)"
}

// show draws a screen's rows for a failure message.
func show(g grid) string {
	var b strings.Builder
	for y := range g.rows {
		fmt.Fprintf(&b, "%2d│%s│\n", y, g.rowText(y))
	}
	return b.String()
}
