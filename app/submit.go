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

// followUp is Tab while running: the draft waits for the turn to end and
// becomes the next turn.
func (m *Model) followUp() tea.Cmd {
	text := m.editor.Value()
	if !m.running() || strings.TrimSpace(text) == "" || strings.HasPrefix(text, "/") || strings.HasPrefix(text, "!") {
		return nil
	}
	m.setDraft("")
	m.scroll = 0
	be := m.be
	return func() tea.Msg { be.Send(text); return nil }
}

// submit sends what Enter gave: a shell command after `!`, a slash command,
// else a prompt while idle or steering while running.
func (m *Model) submit(text string) tea.Cmd {
	m.scroll = 0
	m.refreshMenu()
	if cmd, ok := strings.CutPrefix(text, "!"); ok && strings.TrimSpace(cmd) != "" {
		return m.shell(strings.TrimSpace(cmd))
	}
	if strings.HasPrefix(text, "/") {
		return m.command(text)
	}
	be := m.be
	if m.running() {
		return func() tea.Msg { be.Steer(text); return nil }
	}
	return func() tea.Msg { be.Send(text); return nil }
}

// command runs a slash command line as typed (the registry takes what
// follows the name, separators included). The bare forms that open an
// overlay open it here, so their line-mode listing does not fill the
// transcript; every other line goes to the registry, and so does a bare
// /resume while a turn runs, which the registry refuses as busy.
func (m *Model) command(line string) tea.Cmd {
	switch strings.TrimRight(line, " \t\n") {
	case "/model":
		return m.loadModels()
	case "/resume":
		if m.running() {
			break
		}
		return m.openSessionPicker()
	case "/details":
		m.openDetails()
		return nil
	case "/help":
		m.openHelp()
		return nil
	case "/copy":
		return m.copyLastAnswer()
	}
	be, ctx := m.be, m.ctx
	return func() tea.Msg {
		exec, ok := be.Execute(ctx, line)
		return commandMsg{line: line, exec: exec, found: ok}
	}
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
		return m.exit()
	case commands.ActionClear:
		m.tr.Clear()
		m.scroll = 0
	case commands.ActionCopy:
		return m.copyText(a.Text)
	case commands.ActionDetails:
		m.applyDetails(a)
	case commands.ActionOpenDetails:
		m.openDetails()
	case commands.ActionHelp:
		m.openHelp()
	case commands.ActionOpenModelPicker:
		return m.loadModels()
	case commands.ActionOpenResumePicker:
		return m.openSessionPicker()
	case commands.ActionResume:
		return m.resume(a.ID, "")
	case commands.ActionNewSession:
		m.result = Result{New: true}
		return m.exit()
	}
	return nil
}

// applyDetails applies /details: reasoning first, then cards.
func (m *Model) applyDetails(a commands.ActionDetails) {
	s := m.tr.Settings()
	s.Reasoning = a.ShowReasoning(s.Reasoning)
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
