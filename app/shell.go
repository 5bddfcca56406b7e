package app

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/backend/session"
)

// A draft that starts with `!` is a shell command: the backend runs it at
// once (launch.Session.Shell), its card joins the transcript, and the
// command and its output join the session as context for the next turn.

// shellMsg is a finished `!command`.
type shellMsg struct {
	callID string
	run    launch.ShellRun
}

// shellTool names the cards of `!command`s.
const shellTool = "bash"

// shellHint shows while a `!command` runs.
const shellHint = "Esc stops the command."

// shell shows the pending card and runs command in a command.
func (m *Model) shell(command string) tea.Cmd {
	m.shells++
	id := fmt.Sprintf("user_shell_%d", m.shells)
	m.tr.ApplyLogged(session.Event{Type: session.ToolCall{}.EventType(), Data: session.ToolCall{
		Turn: m.proj.Turn(), CallID: id, Name: shellTool,
		Card: card.Card{Kind: card.Terminal, Description: launch.ShellDescription, Terminal: &card.TerminalView{Command: command}},
	}})
	ctx, stop := context.WithCancel(m.ctx)
	if m.stopShells == nil {
		m.stopShells = map[string]context.CancelFunc{}
	}
	m.stopShells[id] = stop
	m.hint = shellHint
	be := m.be
	return func() tea.Msg { return shellMsg{callID: id, run: be.Shell(ctx, command)} }
}

// stopShell stops the running `!command`s, as Esc and Ctrl+C stop a
// running turn; it reports whether any ran. Their cards settle as the
// commands end.
func (m *Model) stopShell() bool {
	for _, stop := range m.stopShells {
		stop()
	}
	return len(m.stopShells) > 0
}

// shellContextNote is how the context a `!command` added to the session
// shows: one dim line, since the command's card already shows its output
// (and a resumed session keeps this line where the card was).
func shellContextNote(text string) string {
	cmd := launch.ShellCommandOf(text)
	if cmd == "" {
		return "Context · " + launch.ShellOrigin + ": added a shell command's output to the conversation"
	}
	return "Context · " + launch.ShellOrigin + ": added the output of `" + cmd + "` to the conversation"
}

// shellDone settles the card of a `!command`.
func (m *Model) shellDone(msg shellMsg) {
	if stop, ok := m.stopShells[msg.callID]; ok {
		stop()
		delete(m.stopShells, msg.callID)
	}
	if len(m.stopShells) == 0 && m.hint == shellHint {
		// Nothing is left for Esc to stop.
		m.hint = ""
	}
	c := msg.run.Card
	m.tr.ApplyLogged(session.Event{Type: session.ToolResult{}.EventType(), Data: session.ToolResult{
		Turn: m.proj.Turn(), CallID: msg.callID, Name: shellTool, Text: msg.run.Output, IsError: msg.run.Failed, Card: &c,
	}})
	m.scroll = 0
}
