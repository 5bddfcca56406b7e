package app

import (
	"strconv"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	tty "github.com/tack-agent/tack/app/screen"
	"github.com/tack-agent/tack/views/transcript"
)

// copyLastAnswer is Ctrl+Y and /copy: the text of the newest assistant
// answer goes to the clipboard through OSC 52.
func (m *Model) copyLastAnswer() tea.Cmd {
	if text := m.proj.LastAnswer(); text != "" {
		return m.copyText(text)
	}
	m.notice("Nothing to copy yet.", transcript.NoticeWarning)
	return nil
}

// copyText sets the clipboard and says so; whether the terminal honours
// OSC 52 cannot be known, so the notice says it must.
func (m *Model) copyText(text string) tea.Cmd {
	n := utf8.RuneCountInString(text)
	m.notice("Copied the last answer ("+strconv.Itoa(n)+" characters). Your terminal must allow OSC 52 clipboard access.", transcript.NoticeDim)
	return tty.Send(ansi.SetSystemClipboard(text))
}
