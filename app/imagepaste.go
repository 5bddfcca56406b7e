package app

import (
	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/backend/images"
	"github.com/tack-agent/tack/backend/mention"
)

// pasteCheckedMsg is a paste into the editor after checking, off the
// update loop, whether it names an image file: such a paste (a file dragged
// onto the terminal) becomes an @mention that attaches the image when sent.
type pasteCheckedMsg struct{ paste tea.PasteMsg }

// checkPaste looks at the file system for an editor paste.
func checkPaste(p tea.PasteMsg, cwd string) tea.Cmd {
	return func() tea.Msg {
		if path := images.PastedPath(p.Content, cwd); path != "" {
			p.Content = mention.For(path) + " "
		}
		return pasteCheckedMsg{p}
	}
}
