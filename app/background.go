package app

import (
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	tty "github.com/tack-agent/tack/app/screen"
	"github.com/tack-agent/tack/views/theme"
)

// backgroundWait bounds how long the terminal's answer to the background
// query is taken. A local terminal answers within milliseconds, before or
// just after the first frame; one that answers later (or a reply typed
// back by something else) would change the colours under the user's eyes,
// and one that does not know the query never answers.
const backgroundWait = 500 * time.Millisecond

// backgroundWaitMsg ends the wait for the terminal's answer.
type backgroundWaitMsg struct{}

// askBackground asks the terminal for its background colour (OSC 11) when
// the theme is auto. The first frame does not wait for it: it is drawn
// for the guess (COLORFGBG, else dark), and the answer repaints. The
// reply comes in on the input, where bubbletea reads it as a
// BackgroundColorMsg, so it never reaches the editor.
func (m *Model) askBackground() tea.Cmd {
	if !m.opts.AskBackground || !m.opts.Colour {
		return nil
	}
	m.bgAsked = true
	return tea.Batch(tty.Send(ansi.RequestBackgroundColor), tea.Tick(backgroundWait, func(time.Time) tea.Msg { return backgroundWaitMsg{} }))
}

// backgroundAnswered takes the terminal's background while it is still
// awaited.
func (m *Model) backgroundAnswered(msg tea.BackgroundColorMsg) {
	if !m.bgAsked || msg.Color == nil {
		return
	}
	m.bgAsked = false
	bg := theme.Dark
	if !msg.IsDark() {
		bg = theme.Light
	}
	m.setBackground(bg)
}

// setBackground repaints everything for bg: the palette, the editor, the
// menu and the transcript, whose blocks render again as they show.
// Overlays opened from now on take the new palette.
func (m *Model) setBackground(bg theme.Background) {
	if bg == m.opts.Background {
		return
	}
	m.keepPlace(func() {
		m.opts.Background = bg
		m.theme = theme.NewOn(bg, m.opts.Colour)
		m.editor.SetTheme(m.theme)
		m.menu.SetTheme(m.theme)
		m.layout()
	})
}
