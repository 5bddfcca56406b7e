package app

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/views/textfmt"
)

// windowTitleSuffix ends every window title.
const windowTitleSuffix = "tack"

// View draws the screen, top to bottom: the transcript (the banner heads
// it), a spacer, the plan strip, the status row, the pending request or a
// hint, the help panel, and the editor.
func (m *Model) View() tea.View {
	bottom := m.bottomRows()
	vp := m.viewportRows()
	rows := m.viewport(vp)
	rows = append(rows, "")
	rows = append(rows, bottom...)
	rows = append(rows, m.editor.view())
	v := tea.NewView(strings.Join(rows, "\n"))
	v.AltScreen = true
	if m.mouse {
		v.MouseMode = tea.MouseModeCellMotion
	}
	v.WindowTitle = m.windowTitle()
	if c := m.editor.cursor(); c != nil {
		c.Y += vp + 1 + len(bottom)
		v.Cursor = c
	}
	return v
}

// bottomRows are the rows between the transcript and the editor.
func (m *Model) bottomRows() []string {
	rows := m.planRows()
	rows = append(rows, m.statusRow())
	if l := m.requestLine(); l != "" {
		rows = append(rows, ansi.Truncate(l, m.width, "…"))
	}
	if m.hint != "" {
		rows = append(rows, m.theme.Warning.Render(m.hint))
	}
	if m.help {
		for _, l := range strings.Split(helpText, "\n") {
			rows = append(rows, ansi.Truncate(m.theme.Dim.Render(l), m.width, "…"))
		}
	}
	return rows
}

// viewportRows is the height of the transcript area.
func (m *Model) viewportRows() int {
	m.editor.setPlaceholder(m.running())
	return max(m.height-len(m.bottomRows())-m.editor.rows()-1, 1)
}

// bannerRows head the transcript: the name, the session title (or the
// welcome text) and the session id.
func (m *Model) bannerRows() []string {
	rows := []string{m.theme.Label.Render("tack")}
	sub := m.proj.Title()
	if sub == "" {
		sub = m.opts.Welcome
	}
	if sub != "" {
		rows = append(rows, ansi.Truncate(textfmt.SanitizeLine(sub), m.width, "…"))
	}
	if m.sessionID != "" {
		rows = append(rows, m.theme.Dim.Render(textfmt.SanitizeLine(m.sessionID)))
	}
	return append(rows, "")
}

// maxScroll is how far up the view can scroll.
func (m *Model) maxScroll() int {
	return max(len(m.bannerRows())+m.tr.Lines()-m.viewportRows(), 0)
}

// viewport returns exactly h rows of banner and transcript, m.scroll rows
// above the bottom; short content sits at the top. Transcript heights far
// from anything rendered are estimates, so nothing here trusts a row count
// it did not get back from the transcript.
func (m *Model) viewport(h int) []string {
	banner := m.bannerRows()
	trLines := m.tr.Lines()
	m.scroll = min(m.scroll, max(len(banner)+trLines-h, 0))
	var tr []string
	bannerEnd := len(banner)
	if m.scroll < trLines {
		tr = m.tr.View(m.scroll, h)
	} else {
		bannerEnd = max(len(banner)-(m.scroll-trLines), 0)
	}
	need := max(h-len(tr), 0)
	rows := append(append([]string{}, banner[max(bannerEnd-need, 0):bannerEnd]...), tr...)
	if len(rows) > h {
		rows = rows[len(rows)-h:]
	}
	for i, r := range rows {
		if ansi.StringWidth(r) > m.width {
			rows[i] = ansi.Truncate(r, m.width, "")
		}
	}
	for len(rows) < h {
		rows = append(rows, "")
	}
	return rows
}

// windowTitle is `<session title> — tack`, sanitised.
func (m *Model) windowTitle() string {
	if t := textfmt.SanitizeLine(m.proj.Title()); t != "" {
		return t + " — " + windowTitleSuffix
	}
	return windowTitleSuffix
}

// helpText is what `?` shows; /help adds the commands.
const helpText = `Keyboard shortcuts
Enter send, or steer while running • Tab queue a follow-up while running
Shift/Alt+Enter or Ctrl+J newline • Up/Down prompt history
Esc close, or cancel the turn • Ctrl+C cancel; clear input or exit • Ctrl+D exit
Ctrl+O cycle cards (collapse/expand/hide) • Ctrl+T reasoning • Ctrl+L redraw
PgUp/PgDn, Home/End (empty editor) and the wheel scroll • F2 mouse capture on/off
/help lists the commands • Esc closes this help`
