package app

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/overlays/complete"
)

// The completion menu opens in the editor on a "/name" draft (commands
// from the registry) or an "@path" token (files and folders of the
// workspace). The backend lists the workspace (Backend.Files, the walker
// glob and grep use) in a command when the program starts, again after
// tools changed files and whenever the user begins an "@" token; the menu
// only ranks the list.
// The menu reads the token under the editor's cursor, and an accepted
// completion replaces that token, leaving the cursor after it.

// fileIndex tracks the workspace listing the @ menu ranks.
type fileIndex struct {
	running bool // a listing command is out
	stale   bool // a tool result arrived since the last listing began
}

// filesMsg carries a finished workspace index.
type filesMsg struct {
	files *complete.Files
	err   error
}

// start lists the workspace in a command, unless one is already running.
func (f *fileIndex) start(ctx context.Context, be Backend) tea.Cmd {
	if f.running {
		return nil
	}
	f.running, f.stale = true, false
	return func() tea.Msg {
		paths, err := be.Files(ctx)
		if err != nil {
			return filesMsg{err: err}
		}
		return filesMsg{files: complete.NewFiles(paths)}
	}
}

// refresh lists the workspace again when tools may have changed files.
func (f *fileIndex) refresh(ctx context.Context, be Backend) tea.Cmd {
	if !f.stale {
		return nil
	}
	return f.start(ctx, be)
}

func (m *Model) filesIndexed(msg filesMsg) tea.Cmd {
	m.files.running = false
	if msg.err == nil {
		m.menu.SetFiles(msg.files)
		m.refreshMenu()
	}
	return m.files.refresh(m.ctx, m.be)
}

// completionCommands is the registry's list as the menu and help show it.
func completionCommands(cmds []commands.Command) []complete.Command {
	out := make([]complete.Command, len(cmds))
	for i, c := range cmds {
		out[i] = complete.Command{Name: c.Name, Hint: c.Input.Hint, Description: c.Summary()}
	}
	return out
}

// relistOnFileToken lists the workspace again when an edit began an "@"
// token: the listing may be older than files the user made since.
func (m *Model) relistOnFileToken() tea.Cmd {
	if !m.menu.FileTokenBegan() {
		return nil
	}
	m.files.stale = true
	return m.files.refresh(m.ctx, m.be)
}

// setCommands makes cmds the commands completion and help offer.
func (m *Model) setCommands(cmds []commands.Command) {
	m.menu.SetCommands(completionCommands(cmds), m.uses)
	m.ov.commands = cmds
}

// refreshMenu follows the draft after every edit.
func (m *Model) refreshMenu() {
	m.menu.Refresh(m.editor.Value(), m.editor.CursorOffset())
}

// menuKey gives an open menu the keys it navigates with; handled is false
// when the key is the editor's.
func (m *Model) menuKey(k tea.KeyPressMsg) (cmd tea.Cmd, handled bool) {
	if !m.menu.Open() {
		return nil, false
	}
	out := m.menu.Update(k)
	if !out.Handled {
		return nil, false
	}
	if out.Accepted {
		m.editor.Replace(out.Edit.Start, out.Edit.End, out.Edit.Text)
		m.refreshMenu()
		if k.String() == "enter" && m.runsBare(out.Command) && !m.menu.Open() {
			return m.key(k), true // the menu is closed: Enter now submits
		}
	}
	return nil, true
}

// runsBare reports whether a command accepted with Enter runs at once: it
// takes no input, or only optional input (a hint in brackets). Tab always
// just completes, so arguments can follow.
func (m *Model) runsBare(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range m.ov.commands {
		if c.Name == name {
			return c.Input.Hint == "" || strings.HasPrefix(c.Input.Hint, "[")
		}
	}
	return false
}

// setDraft replaces the editor's text as typed text, however long, with
// the cursor at its end.
func (m *Model) setDraft(text string) {
	m.editor.SetValue(text)
	m.refreshMenu()
}
