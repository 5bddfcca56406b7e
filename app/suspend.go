package app

import (
	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/views/transcript"
)

// suspend is Ctrl+Z: the program stops as a shell job does, and fg brings
// the screen back redrawn. Where nothing could resume a stopped tack (no
// job-control shell owns the terminal: a tmux pane or a script started
// it), the key says so instead of stopping.
func (m *Model) suspend() tea.Cmd {
	stop := m.opts.Suspend
	if stop == nil {
		m.notice("Ctrl+Z suspends tack only when a job-control shell started it (fg resumes it); nothing here could resume it.", transcript.NoticeWarning)
		return nil
	}
	return func() tea.Msg {
		stop()
		return nil
	}
}
