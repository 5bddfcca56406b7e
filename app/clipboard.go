package app

import (
	"strconv"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/views/transcript"
)

// copyLastAnswer is Ctrl+Y and /copy: the text of the newest assistant
// answer goes to the clipboard through OSC 52.
func (m *Model) copyLastAnswer() tea.Cmd {
	events := m.proj.Transcript()
	for i := len(events) - 1; i >= 0; i-- {
		if a, ok := events[i].Data.(session.AssistantMessage); ok && strings.TrimSpace(a.Text) != "" {
			return m.copyText(a.Text)
		}
	}
	m.notice("Nothing to copy yet.", transcript.NoticeWarning)
	return nil
}

// copyText sets the clipboard and says so; whether the terminal honours
// OSC 52 cannot be known, so the notice says it must.
func (m *Model) copyText(text string) tea.Cmd {
	n := utf8.RuneCountInString(text)
	m.notice("Copied the last answer ("+strconv.Itoa(n)+" characters). Your terminal must allow OSC 52 clipboard access.", transcript.NoticeDim)
	return tea.SetClipboard(text)
}
