package app

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	tty "github.com/tack-agent/tack/app/screen"
	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/overlays/rewindpicker"
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
	return m.out.post(func() { be.Send(text) })
}

// enter is Enter: the editor's text, if it sends any, is submitted here
// in Update, so it reaches the outbox before what the keys after it send.
func (m *Model) enter() tea.Cmd {
	var text string
	m.editor, text = m.editor.Submit()
	if text == "" {
		m.refreshMenu()
		return nil
	}
	return m.submit(text)
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
		return m.out.post(func() { be.Steer(text) })
	}
	return m.out.post(func() { be.Send(text) })
}

// command runs a slash command line as typed (the registry takes what
// follows the name, separators included). The bare forms that open an
// overlay are logged as runs the app performs itself, so their line-mode
// listing does not fill the transcript; every other line goes to the
// registry, and so does a bare /resume while a turn runs, which the
// registry refuses as busy. Every run is logged either way.
func (m *Model) command(line string) tea.Cmd {
	be, ctx := m.be, m.ctx
	if res, ok := m.overlayForm(line); ok {
		return func() tea.Msg {
			exec, found := be.ExecuteLocal(line, res)
			return commandMsg{line: line, exec: exec, found: found}
		}
	}
	return func() tea.Msg {
		exec, ok := be.Execute(ctx, line)
		return commandMsg{line: line, exec: exec, found: ok}
	}
}

// overlayForm is the result of a bare command the full screen answers with
// an overlay, which commandDone then opens.
func (m *Model) overlayForm(line string) (commands.Result, bool) {
	switch strings.TrimRight(line, " \t\n") {
	case "/model":
		return commands.Result{Action: commands.ActionOpenModelPicker{}}, true
	case "/resume":
		if !m.running() {
			return commands.Result{Action: commands.ActionOpenResumePicker{}}, true
		}
	case "/help":
		return commands.Result{Action: commands.ActionHelp{}}, true
	case "/details":
		return commands.Result{Action: commands.ActionOpenDetails{}}, true
	case "/rewind":
		if !m.running() {
			return commands.Result{Action: commands.ActionOpenRewindPicker{}}, true
		}
	}
	return commands.Result{}, false
}

// commandDone performs what a command asked of the front door. Its text
// reaches the transcript through the command/done event.
func (m *Model) commandDone(msg commandMsg) tea.Cmd {
	if !msg.found {
		m.notice(commands.UnknownMessage(msg.line, m.ov.commands), transcript.NoticeWarning)
		m.keepDraft(msg.line)
		return nil
	}
	res := msg.exec.Result
	if _, confirm := res.Action.(commands.ActionConfirmRewind); res.Kind == commands.Error && !confirm {
		m.keepDraft(msg.line)
	}
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
		m.notice("Your terminal must allow OSC 52 clipboard access for the copy to arrive.", transcript.NoticeDim)
		return tty.Send(ansi.SetSystemClipboard(a.Text))
	case commands.ActionDetails:
		m.applyDetails(a)
	case commands.ActionOpenDetails:
		m.openDetails()
	case commands.ActionHelp:
		m.openHelp()
	case commands.ActionOpenModelPicker:
		return m.loadModels()
	case commands.ActionOpenResumePicker:
		return m.openSessionPicker(a.Search)
	case commands.ActionResume:
		return m.resume(a.ID, "")
	case commands.ActionOpenRewindPicker:
		m.openRewindPicker()
	case commands.ActionRewound:
		m.rewound(a)
	case commands.ActionConfirmRewind:
		m.ov.closeAll()
		m.ov.rewind = rewindpicker.Confirm(a.Line, a.Paths, m.theme)
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

// keepDraft gives a refused command line back to the editor, so the user
// can fix it (the seed: errors leave the draft intact), unless they have
// started typing something else meanwhile.
func (m *Model) keepDraft(line string) {
	if m.editor.Value() == "" {
		m.setDraft(line)
	}
}
