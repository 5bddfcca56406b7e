package app

import (
	"unicode"

	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/views/cards"
	"github.com/tack-agent/tack/views/transcript"
)

// The keys themselves are in keymap.go. F2 toggles mouse capture: with
// capture on, the wheel scrolls the transcript; off, the terminal's own
// selection and copy work.

// wheelRows is how far one wheel notch scrolls.
const wheelRows = 3

// key handles one key press.
func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	if m.input.hold(k) {
		return nil
	}
	if rest, ok := m.escThen(k); ok {
		return tea.Batch(m.key(tea.KeyPressMsg{Code: tea.KeyEscape}), m.key(rest))
	}
	s := k.String()
	if s != "ctrl+c" {
		m.armedCtC = false
	}
	if s != "esc" {
		m.armedEsc = false
	}
	m.hint = ""
	switch {
	case m.requestOpen():
		return m.requestKey(k)
	case m.ov.open():
		return m.overlayKey(k)
	}
	if cmd, ok := m.menuKey(k); ok {
		return cmd
	}
	if cmd, ok := m.globalKey(s); ok {
		return cmd
	}
	if !m.recall.ready && (s == "up" || s == "down") {
		return m.listRecall(k)
	}
	return m.editorKey(k)
}

// escThen is the character of an Alt+<character> that no key binds, to
// be read as Esc and then that character. Terminals send a key typed
// right after Esc as one Alt key (tmux joins them within its
// escape-time), so Esc and then /status came as alt+/ and "status": the
// Esc cancelled nothing and the slash was lost. Alt keys that mean
// something stay whole: alt+esc (Esc Esc), the editor's word keys (alt+f,
// alt+b, alt+d, …) and any of the key table.
func (m *Model) escThen(k tea.KeyPressMsg) (tea.KeyPressMsg, bool) {
	if k.Mod&^tea.ModShift != tea.ModAlt || !unicode.IsPrint(k.Code) || m.editor.Binds(k) {
		return k, false
	}
	if _, bound := m.bindings[k.String()]; bound {
		return k, false
	}
	k.Mod &^= tea.ModAlt
	k.Text = string(k.Code)
	if k.Mod&tea.ModShift != 0 && k.ShiftedCode != 0 {
		k.Text = string(k.ShiftedCode)
	}
	return k, true
}

// paste goes where a key would; one for the editor is checked first, and
// the input after it waits.
func (m *Model) paste(p tea.PasteMsg) tea.Cmd {
	if m.input.hold(p) {
		return nil
	}
	switch {
	case m.requestOpen():
		return m.requestKey(p)
	case m.ov.open():
		return m.overlayKey(p)
	}
	m.input.wait(nil)
	return checkPaste(p, m.opts.Cwd)
}

// editorKey passes a key or paste to the editor and follows the draft with
// the completion menu.
func (m *Model) editorKey(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	m.editor, cmd = m.editor.Update(msg)
	m.refreshMenu()
	return tea.Batch(cmd, m.relistOnFileToken())
}

// globalKey runs the chat binding of key s; ok is false for a key the
// editor takes.
func (m *Model) globalKey(s string) (cmd tea.Cmd, ok bool) {
	b, found := m.bindings[s]
	if !found {
		return nil, false
	}
	if cmd, ok = b.run(m, s); ok {
		// Any key may bring the view near history not read yet.
		cmd = tea.Batch(cmd, m.readEarlier())
	}
	return cmd, ok
}

// pageKey is PgUp and PgDn: a screen of the transcript, less one row.
func (m *Model) pageKey(s string) {
	m.earlier.top = false
	if s == "pgup" {
		m.scrollBy(m.viewportRows() - 1)
	} else {
		m.scrollBy(-(m.viewportRows() - 1))
	}
}

// edgeKey is Home and End (with or without Ctrl): the top or the bottom
// of the transcript. The top stays the top while earlier history is read.
func (m *Model) edgeKey(s string) {
	m.earlier.top = s == "home" || s == "ctrl+home"
	if m.earlier.top {
		m.scrollToTop()
	} else {
		m.scroll = 0
	}
}

// escape cancels the running turn, or stops the running `!command`s
// (overlays and the menu took Esc first).
func (m *Model) escape() tea.Cmd {
	if m.running() {
		return m.cancel()
	}
	if !m.stopShell() {
		m.escapeIdle()
	}
	return nil
}

// interrupt is Ctrl+C: cancel a running turn, clear a draft, or exit on a
// second press.
func (m *Model) interrupt() tea.Cmd {
	switch {
	case m.running():
		return m.cancel()
	case m.stopShell():
	case !m.editor.Empty():
		m.setDraft("")
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

// exit quits, cancelling a running turn first.
func (m *Model) exit() tea.Cmd {
	if m.running() {
		m.exiting = true
		m.notice("Cancelling the active turn before exit…", transcript.NoticeDim)
		return m.cancel()
	}
	return tea.Quit
}

func (m *Model) cancel() tea.Cmd {
	be := m.be
	return m.out.post(be.Cancel)
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

// setDetails applies card and reasoning settings and says what changed,
// the view kept where the reader is.
func (m *Model) setDetails(s transcript.Settings) {
	m.keepPlace(func() { m.switchDetails(s) })
}

func (m *Model) switchDetails(s transcript.Settings) {
	old := m.tr.Settings()
	m.tr.SetSettings(s)
	if s.Reasoning != old.Reasoning {
		if s.Reasoning {
			m.settingNotice("reasoning", "Reasoning shown.")
		} else {
			m.settingNotice("reasoning", reasoningOff(s))
		}
	}
	if s.Cards != old.Cards {
		switch s.Cards {
		case cards.Expanded:
			m.settingNotice("cards", "Tool and context cards expanded.")
		case cards.Hidden:
			m.settingNotice("cards", "Tool cards hidden.")
		default:
			m.settingNotice("cards", "Tool and context cards collapsed.")
		}
	}
}

// toggleMouse turns mouse capture on or off and says which, above the
// editor: a notice would scroll the view away from the text to select.
func (m *Model) toggleMouse() {
	m.mouse = !m.mouse
	m.hint = "Mouse capture on: the wheel scrolls the transcript."
	if !m.mouse {
		m.hint = "Mouse capture off: select text to copy; F2 turns it back on."
	}
}

// notice adds a front-door notice and shows the bottom.
func (m *Model) notice(text string, kind transcript.NoticeKind) {
	m.tr.AddNotice(text, kind)
	m.scroll = 0
}

// settingNotice says a setting's new value, faint, in place of the
// notice of its previous value when nothing came after that one.
func (m *Model) settingNotice(setting, text string) {
	m.tr.AddSettingNotice(setting, text, transcript.NoticeDim)
	m.scroll = 0
}

func (m *Model) wheel(w tea.MouseWheelMsg) {
	m.earlier.top = false
	switch w.Mouse().Button {
	case tea.MouseWheelUp:
		m.scrollBy(wheelRows)
	case tea.MouseWheelDown:
		m.scrollBy(-wheelRows)
	}
}

// scrollBy moves the view n rows up (negative: down), within the content.
func (m *Model) scrollBy(n int) {
	m.showFrom(m.viewTop(), -n)
}

// reasoningOff says where reasoning went when it stopped showing whole.
func reasoningOff(s transcript.Settings) string {
	if s.HideReasoning {
		return "Reasoning hidden."
	}
	return "Reasoning folded to one line."
}
