// Package planstrip draws the latest plan (todo list) above the status row:
// one line while folded, the whole list while open, nothing once every
// item is done.
package planstrip

import (
	"strconv"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/views/textfmt"
	"github.com/tack-agent/tack/views/theme"
)

// Key is the key that opens and folds the strip, as help names it.
const Key = "ctrl+s"

// Render returns the plan's rows at width. Folded it is one row, the bold
// accent `Plan 2/4`, then the item it is at — its active form while in
// progress — and the key that opens it. Open, that row heads one row per
// item: green ✓ with faint text when done, yellow ● in progress, faint ○
// pending. No items, or every item done, no rows.
func Render(todos []card.TodoItem, width int, open bool, th theme.Theme) []string {
	cur, ok := card.Current(todos)
	if !ok {
		return nil
	}
	width = max(width, 4)
	label := th.Label.Render("Plan " + strconv.Itoa(card.Done(todos)) + "/" + strconv.Itoa(len(todos)))
	if !open {
		return []string{ansi.Truncate(label+" · "+itemText(cur)+th.Dim.Render("  ("+Key+" for all)"), width, "…")}
	}
	rows := []string{ansi.Truncate(label+th.Dim.Render("  ("+Key+" to fold)"), width, "…")}
	for _, td := range todos {
		text := textfmt.SanitizeLine(td.Content)
		var row string
		switch td.Status {
		case card.TodoCompleted:
			row = "  " + th.Success.Render("✓") + " " + th.Dim.Render(text)
		case card.TodoInProgress:
			row = th.Active.Render("  ● " + itemText(td))
		default:
			row = th.Dim.Render("  ○ " + text)
		}
		rows = append(rows, ansi.Truncate(row, width, "…"))
	}
	return rows
}

// itemText is an item as the strip names it: its active form while in
// progress, when it has one.
func itemText(td card.TodoItem) string {
	if td.Status == card.TodoInProgress && td.ActiveForm != "" {
		return textfmt.SanitizeLine(td.ActiveForm)
	}
	return textfmt.SanitizeLine(td.Content)
}
