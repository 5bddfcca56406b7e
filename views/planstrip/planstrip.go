// Package planstrip draws the latest plan (todo list) above the status row.
package planstrip

import (
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/views/textfmt"
	"github.com/tack-agent/tack/views/theme"
)

// Render returns the plan's rows at width: a blank row, the bold accent
// label `Plan`, then one row per item — green ✓ with faint text when done,
// yellow ● in progress (in its active form when it has one), faint ○
// pending. No items, no rows.
func Render(todos []card.TodoItem, width int, th theme.Theme) []string {
	if len(todos) == 0 {
		return nil
	}
	width = max(width, 4)
	rows := []string{"", th.Label.Render("Plan")}
	for _, td := range todos {
		text := textfmt.SanitizeLine(td.Content)
		var row string
		switch td.Status {
		case card.TodoCompleted:
			row = "  " + th.Success.Render("✓") + " " + th.Dim.Render(text)
		case card.TodoInProgress:
			if td.ActiveForm != "" {
				text = textfmt.SanitizeLine(td.ActiveForm)
			}
			row = th.Warning.Render("  ● " + text)
		default:
			row = th.Dim.Render("  ○ " + text)
		}
		rows = append(rows, ansi.Truncate(row, width, "…"))
	}
	return rows
}
