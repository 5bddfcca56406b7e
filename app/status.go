package app

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/views/textfmt"
)

// statusRow is the one row above the editor: where, which model, what it
// cost, how full the context is; `N queued` on the right while input waits.
// The right side wins when the row is too narrow.
func (m *Model) statusRow() string {
	var parts []string
	where := textfmt.SanitizeLine(textfmt.HomeRel(m.opts.Cwd, m.opts.Home))
	if m.opts.Branch != "" {
		where += " (" + textfmt.SanitizeLine(m.opts.Branch) + ")"
	}
	parts = append(parts, where)
	if m.model.id != "" {
		model := textfmt.SanitizeLine(m.model.id)
		if m.model.effort != "" {
			model += " " + string(m.model.effort)
		}
		parts = append(parts, model)
	}
	u := m.proj.Usage()
	if u.Sum.Prompt()+u.Sum.Output > 0 {
		parts = append(parts, "↑"+textfmt.Compact(u.Sum.Input)+" ↓"+textfmt.Compact(u.Sum.Output))
		if p := u.Sum.Prompt(); p > 0 {
			parts = append(parts, fmt.Sprintf("cache %d%%", u.Sum.CacheRead*100/p))
		}
	}
	if m.model.known && m.model.spec.ContextWindow > 0 {
		parts = append(parts, fmt.Sprintf("%d%% context", m.proj.ContextTokens()*100/m.model.spec.ContextWindow))
	}
	if m.model.known && u.Sum.Prompt()+u.Sum.Output > 0 {
		parts = append(parts, textfmt.Cost(m.model.spec.Cost(u.Sum)))
	}
	left := m.theme.Dim.Render(strings.Join(parts, "  "))
	right := ""
	if n := m.queued; n > 0 && m.running() {
		right = m.theme.Warning.Render(fmt.Sprintf("%d queued", n))
	}
	return joinEnds(left, right, m.width)
}

// joinEnds puts left and right on one row of width w; left is cut first.
func joinEnds(left, right string, w int) string {
	rw := ansi.StringWidth(right)
	if rw >= w {
		return ansi.Truncate(right, w, "")
	}
	room := w - rw
	if right != "" {
		room--
	}
	if ansi.StringWidth(left) > room {
		left = ansi.Truncate(left, room, "…")
	}
	if right == "" {
		return left
	}
	return left + strings.Repeat(" ", w-ansi.StringWidth(left)-rw) + right
}

// planRows is the plan strip: the latest todo list of the current turn.
func (m *Model) planRows() []string {
	todos := m.proj.Todos()
	if len(todos) == 0 {
		return nil
	}
	rows := []string{"", m.theme.Label.Render("Plan")}
	for _, t := range todos {
		text := textfmt.SanitizeLine(t.Content)
		var row string
		switch t.Status {
		case card.TodoCompleted:
			row = "  " + m.theme.Success.Render("✓") + " " + m.theme.Dim.Render(text)
		case card.TodoInProgress:
			row = "  " + m.theme.Warning.Render("● "+text)
		default:
			row = "  " + m.theme.Dim.Render("○ "+text)
		}
		rows = append(rows, ansi.Truncate(row, m.width, "…"))
	}
	return rows
}
