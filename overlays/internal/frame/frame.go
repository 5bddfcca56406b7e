// Package frame holds the layout pieces every overlay shares: fitting rows
// into a width and height, wrapping text, a rounded box, hint rows that
// shrink to a compact form, and the scroll window of a list.
package frame

import (
	"net/url"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/views/theme"
)

// Join truncates every row to width, keeps at most height rows and joins
// them with newlines: the string has exactly min(len(rows), height) rows,
// none wider than width.
func Join(rows []string, width, height int) string {
	if height <= 0 || width <= 0 {
		return ""
	}
	if len(rows) > height {
		rows = rows[:height]
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = Truncate(r, width)
	}
	return strings.Join(out, "\n")
}

// Mark is how every list marks a row: "› " in the selection style (reverse
// video) for the chosen row, two spaces in the plain style for the others.
func Mark(th theme.Theme, chosen bool) (string, lipgloss.Style) {
	if chosen {
		return "› ", th.Selection
	}
	return "  ", th.Plain
}

// Truncate cuts a styled row to width cells, ending it with … when cut.
func Truncate(row string, width int) string {
	if width <= 0 {
		return ""
	}
	if ansi.StringWidth(row) <= width {
		return row
	}
	return ansi.Truncate(row, width, "…")
}

// Wrap breaks plain text into rows of at most width cells, at spaces where
// it can and inside long words where it must. Empty lines are kept. A line
// that is a web address alone fills its rows (a break at a hyphen would
// end one early), and every row links to the whole address (OSC 8), so a
// terminal that knows links opens it from any of them.
func Wrap(text string, width int) []string {
	if width < 1 {
		width = 1
	}
	var rows []string
	for _, line := range strings.Split(text, "\n") {
		switch {
		case line == "":
			rows = append(rows, "")
		case webAddress(line):
			for _, piece := range strings.Split(ansi.Hardwrap(line, width, false), "\n") {
				rows = append(rows, ansi.SetHyperlink(line)+piece+ansi.ResetHyperlink())
			}
		default:
			rows = append(rows, strings.Split(ansi.Wrap(line, width, ""), "\n")...)
		}
	}
	return rows
}

// webAddress reports whether s is an http or https address and nothing
// else.
func webAddress(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && !strings.ContainsAny(s, " \t")
}

// Hint picks the first form of a control hint that fits width, else the
// last (most compact) form truncated.
func Hint(width int, forms ...string) string {
	for _, f := range forms {
		if ansi.StringWidth(f) <= width {
			return f
		}
	}
	if len(forms) == 0 {
		return ""
	}
	return Truncate(forms[len(forms)-1], width)
}

// Box draws rows inside a rounded, faint border with title in its top
// edge: the result is at most width wide and height tall, and the inner
// rows (height-2 of them at most) are truncated to width-4 with one space
// of padding each side. A box needs 5×3 cells; smaller, it is just rows.
func Box(th theme.Theme, title string, rows []string, width, height int) []string {
	if width < 5 || height < 3 {
		return rows
	}
	inner := width - 4
	if len(rows) > height-2 {
		rows = rows[:height-2]
	}
	top := th.Dim.Render("╭" + strings.Repeat("─", width-2) + "╮")
	if title != "" {
		t := Truncate(" "+title+" ", inner)
		top = th.Dim.Render("╭─") + th.Label.Render(t) +
			th.Dim.Render(strings.Repeat("─", inner-ansi.StringWidth(t))+"─╮")
	}
	out := []string{top}
	side := th.Dim.Render("│")
	for _, r := range rows {
		r = Truncate(r, inner)
		out = append(out, side+" "+r+strings.Repeat(" ", inner-ansi.StringWidth(r))+" "+side)
	}
	return append(out, th.Dim.Render("╰"+strings.Repeat("─", width-2)+"╯"))
}

// Window returns the first visible index of a list of n items that shows
// size at a time, keeping cursor visible and moving as little as possible
// from the previous top.
func Window(n, cursor, size, top int) int {
	if size <= 0 || n <= size {
		return 0
	}
	if cursor < top {
		top = cursor
	}
	if cursor >= top+size {
		top = cursor - size + 1
	}
	return max(0, min(top, n-size))
}

// Scroll shows rows from top in at most avail rows, marking hidden rows
// above and below with faint "↑ N more" and "↓ N more" rows. It returns
// the rows, the top it used (clamped) and how many content rows it showed,
// which is the page PgUp and PgDn should step by.
func Scroll(th theme.Theme, rows []string, top, avail int) (shown []string, usedTop, page int) {
	if len(rows) <= avail {
		return rows, 0, len(rows)
	}
	if avail < 3 {
		top = min(max(0, top), len(rows)-max(0, avail))
		return rows[top : top+max(0, avail)], top, max(0, avail)
	}
	top = min(max(0, top), len(rows)-(avail-1))
	k := avail
	if top > 0 {
		k--
	}
	if top+k < len(rows) {
		k--
	}
	if top > 0 {
		shown = append(shown, th.Dim.Render("↑ "+strconv.Itoa(top)+" more"))
	}
	shown = append(shown, rows[top:top+k]...)
	if rest := len(rows) - top - k; rest > 0 {
		shown = append(shown, th.Dim.Render("↓ "+strconv.Itoa(rest)+" more"))
	}
	return shown, top, k
}

// WithPosition ends row with a faint "k/n" (cursor k of n items) at the
// right of width cells when the list shows fewer than n items at a time,
// so the user knows there is more to scroll to; otherwise row is returned
// as it is. The row is truncated to leave room for the position.
func WithPosition(th theme.Theme, row string, width, cursor, n, shown int) string {
	if n <= shown || n == 0 {
		return row
	}
	pos := strconv.Itoa(cursor+1) + "/" + strconv.Itoa(n)
	room := width - ansi.StringWidth(pos) - 1
	if room < 1 {
		return row
	}
	row = Truncate(row, room)
	return row + strings.Repeat(" ", width-ansi.StringWidth(row)-ansi.StringWidth(pos)) + th.Dim.Render(pos)
}
