package app

import (
	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/overlays/complete"
)

// The completion menu opens in the editor on a "/name" draft (commands
// from the registry) or an "@path" token (files and folders of the
// workspace). The workspace is indexed in a command when the program
// starts and again after tools changed files.
//
// The editor does not report its cursor offset or let its text be set, so
// the menu reads the draft as if the cursor were at its end, and an
// accepted completion replaces the draft through a paste.

// fileIndex tracks the workspace index the @ menu ranks.
type fileIndex struct {
	running bool // an Index command is out
	stale   bool // a tool result arrived since the last index began
}

// filesMsg carries a finished workspace index.
type filesMsg struct {
	files *complete.Files
	err   error
}

// start indexes root in a command, unless one is already running.
func (f *fileIndex) start(root string) tea.Cmd {
	if f.running || root == "" {
		return nil
	}
	f.running, f.stale = true, false
	return func() tea.Msg {
		paths, err := complete.Index(root)
		if err != nil {
			return filesMsg{err: err}
		}
		return filesMsg{files: complete.NewFiles(paths)}
	}
}

// refresh re-indexes root when tools may have changed files.
func (f *fileIndex) refresh(root string) tea.Cmd {
	if !f.stale {
		return nil
	}
	return f.start(root)
}

func (m *Model) filesIndexed(msg filesMsg) tea.Cmd {
	m.files.running = false
	if msg.err == nil {
		m.menu.SetFiles(msg.files)
		m.refreshMenu()
	}
	return m.files.refresh(m.opts.Cwd)
}

// completionCommands is the registry's list as the menu and help show it.
func completionCommands(cmds []commands.Command) []complete.Command {
	out := make([]complete.Command, len(cmds))
	for i, c := range cmds {
		out[i] = complete.Command{Name: c.Name, Hint: c.Input.Hint, Description: c.Description}
	}
	return out
}

// refreshMenu follows the draft after every edit.
func (m *Model) refreshMenu() {
	draft := m.editor.Value()
	m.menu.Refresh(draft, len(draft))
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
		draft := m.editor.Value()
		e := out.Edit
		e.Start, e.End = min(e.Start, len(draft)), min(max(e.End, e.Start), len(draft))
		m.setDraft(draft[:e.Start] + e.Text + draft[e.End:])
	}
	return nil, true
}

// setDraft replaces the editor's text (its cursor goes to the end).
func (m *Model) setDraft(text string) {
	m.editor.Reset()
	if text != "" {
		m.editor, _ = m.editor.Update(tea.PasteMsg{Content: text})
	}
	m.refreshMenu()
}
