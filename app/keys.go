package app

import (
	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/views/cards"
	"github.com/tack-agent/tack/views/transcript"
)

// Keys that are not obvious from the help text:
//   - Home and End scroll the transcript while the editor is empty (in a
//     draft they move the cursor); Ctrl+Home and Ctrl+End always scroll.
//   - F2 toggles mouse capture. With capture on, the wheel scrolls the
//     transcript; off, the terminal's own selection and copy work.

// wheelRows is how far one wheel notch scrolls.
const wheelRows = 3

// key handles one key press.
func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	s := k.String()
	if s != "ctrl+c" {
		m.armedCtC = false
	}
	m.hint = ""
	if cmd, ok := m.requestKey(s); ok {
		return cmd
	}
	switch s {
	case "enter":
		return m.enter()
	case "shift+enter", "alt+enter", "ctrl+j":
		m.editor.newline()
	case "tab":
		return m.followUp()
	case "esc":
		return m.escape()
	case "ctrl+c":
		return m.interrupt()
	case "ctrl+d":
		return m.exitKey()
	case "ctrl+l":
		return tea.ClearScreen
	case "ctrl+o":
		m.cycleCards()
	case "ctrl+t":
		m.toggleReasoning()
	case "f2":
		m.mouse = !m.mouse
	case "pgup":
		m.scrollBy(m.viewportRows() - 1)
	case "pgdown":
		m.scrollBy(-(m.viewportRows() - 1))
	case "ctrl+home":
		m.scrollBy(m.maxScroll())
	case "ctrl+end":
		m.scroll = 0
	case "home", "end":
		if !m.editor.empty() {
			return m.editor.update(k)
		}
		if s == "home" {
			m.scrollBy(m.maxScroll())
		} else {
			m.scroll = 0
		}
	case "up", "down":
		dir := -1
		if s == "down" {
			dir = 1
		}
		if !m.editor.historyStep(dir) {
			return m.editor.update(k)
		}
	case "?":
		if m.editor.empty() {
			m.help = !m.help
			return nil
		}
		return m.editor.update(k)
	default:
		return m.editor.update(k)
	}
	return nil
}

// escape closes what is open, else cancels the running turn.
func (m *Model) escape() tea.Cmd {
	switch {
	case m.help:
		m.help = false
	case len(m.requests) > 0:
		return m.dismissRequest()
	case m.running():
		return m.cancel()
	}
	return nil
}

// interrupt is Ctrl+C: cancel a running turn, clear a draft, or exit on a
// second press.
func (m *Model) interrupt() tea.Cmd {
	switch {
	case m.running():
		return m.cancel()
	case !m.editor.empty():
		m.editor.clear()
	case m.armedCtC:
		return tea.Quit
	default:
		m.armedCtC = true
		m.hint = "Press Ctrl+C again to exit."
	}
	return nil
}

// exitKey is Ctrl+D: exit when idle.
func (m *Model) exitKey() tea.Cmd {
	if m.running() {
		m.notice("Cancel the active turn before exiting.", transcript.NoticeWarning)
		return nil
	}
	return tea.Quit
}

func (m *Model) cancel() tea.Cmd {
	be := m.be
	return func() tea.Msg { be.Cancel(); return nil }
}

// cycleCards is Ctrl+O: collapsed → expanded → hidden.
func (m *Model) cycleCards() {
	s := m.tr.Settings()
	s.Cards = s.Cards.Next()
	m.setDetails(s)
}

// toggleReasoning is Ctrl+T.
func (m *Model) toggleReasoning() {
	s := m.tr.Settings()
	s.Reasoning = !s.Reasoning
	m.setDetails(s)
}

// setDetails applies card and reasoning settings and says what changed.
func (m *Model) setDetails(s transcript.Settings) {
	old := m.tr.Settings()
	m.tr.SetSettings(s)
	if s.Reasoning != old.Reasoning {
		if s.Reasoning {
			m.notice("Reasoning blocks shown.", transcript.NoticeDim)
		} else {
			m.notice("Reasoning blocks hidden.", transcript.NoticeDim)
		}
	}
	if s.Cards != old.Cards {
		switch s.Cards {
		case cards.Expanded:
			m.notice("Tool and context cards expanded.", transcript.NoticeDim)
		case cards.Hidden:
			m.notice("Tool cards hidden.", transcript.NoticeDim)
		default:
			m.notice("Tool and context cards collapsed.", transcript.NoticeDim)
		}
	}
}

// notice adds a front-door notice and shows the bottom.
func (m *Model) notice(text string, kind transcript.NoticeKind) {
	m.tr.AddNotice(text, kind)
	m.scroll = 0
}

func (m *Model) wheel(w tea.MouseWheelMsg) {
	switch w.Mouse().Button {
	case tea.MouseWheelUp:
		m.scrollBy(wheelRows)
	case tea.MouseWheelDown:
		m.scrollBy(-wheelRows)
	}
}

// scrollBy moves the view n rows up (negative: down), within the content.
func (m *Model) scrollBy(n int) {
	m.scroll = min(max(m.scroll+n, 0), m.maxScroll())
}
