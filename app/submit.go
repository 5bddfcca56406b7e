package app

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/views/cards"
	"github.com/tack-agent/tack/views/transcript"
)

// commandMsg is a settled slash command. found is false for a line that
// names no command.
type commandMsg struct {
	line  string
	exec  commands.Execution
	found bool
}

// enter sends the draft: a prompt while idle, steering while running, a
// command when it starts with a slash.
func (m *Model) enter() tea.Cmd {
	if strings.TrimSpace(m.editor.value()) == "" {
		return nil
	}
	return m.submit(m.editor.take())
}

// followUp is Tab while running: the draft waits for the turn to end and
// becomes the next turn.
func (m *Model) followUp() tea.Cmd {
	text := m.editor.value()
	if !m.running() || strings.TrimSpace(text) == "" || strings.HasPrefix(text, "/") {
		return nil
	}
	m.editor.take()
	m.scroll = 0
	be := m.be
	return func() tea.Msg { be.Send(text); return nil }
}

func (m *Model) submit(text string) tea.Cmd {
	m.scroll = 0
	if strings.HasPrefix(text, "/") {
		be, ctx, line := m.be, m.ctx, strings.TrimSpace(text)
		return func() tea.Msg {
			exec, ok := be.Execute(ctx, line)
			return commandMsg{line: line, exec: exec, found: ok}
		}
	}
	be := m.be
	if m.running() {
		return func() tea.Msg { be.Steer(text); return nil }
	}
	return func() tea.Msg { be.Send(text); return nil }
}

// commandDone performs what a command asked of the front door. Its text
// reaches the transcript through the command/done event.
func (m *Model) commandDone(msg commandMsg) tea.Cmd {
	if !msg.found {
		m.notice(commands.UnknownMessage(msg.line), transcript.NoticeWarning)
		return nil
	}
	res := msg.exec.Result
	if msg.exec.LogErr != nil && res.Text != "" {
		kind := transcript.NoticeInfo
		if res.Kind == commands.Error {
			kind = transcript.NoticeError
		}
		m.notice(res.Text, kind)
	}
	switch a := res.Action.(type) {
	case commands.ActionExit:
		if m.running() {
			m.exiting = true
			m.notice("Cancelling the active turn before exit…", transcript.NoticeDim)
			return m.cancel()
		}
		return tea.Quit
	case commands.ActionClear:
		m.tr.Clear()
		m.scroll = 0
	case commands.ActionCopy:
		return tea.SetClipboard(a.Text)
	case commands.ActionDetails:
		m.applyDetails(a)
	}
	return nil
}

// applyDetails applies /details: reasoning first, then cards.
func (m *Model) applyDetails(a commands.ActionDetails) {
	s := m.tr.Settings()
	switch a.Reasoning {
	case commands.ReasoningOn:
		s.Reasoning = true
	case commands.ReasoningOff:
		s.Reasoning = false
	case commands.ReasoningToggle:
		s.Reasoning = !s.Reasoning
	}
	switch a.Cards {
	case commands.CardsCollapsed:
		s.Cards = cards.Collapsed
	case commands.CardsExpanded:
		s.Cards = cards.Expanded
	case commands.CardsHidden:
		s.Cards = cards.Hidden
	}
	m.setDetails(s)
}
