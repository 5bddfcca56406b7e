package app

import tea "charm.land/bubbletea/v2"

// heldInput is the keys and pastes that come while an earlier one waits
// on a command: an Up that must first list the session's prompts
// (loadRecall), a paste checked for an image's path (checkPaste). They
// are handled in order once it is done, so nothing typed is lost or
// reordered: a paste then Enter sends the paste.
type heldInput struct {
	waiting bool
	msgs    []tea.Msg
}

// hold keeps msg, a key or paste, while input waits, and reports whether
// it did.
func (h *heldInput) hold(msg tea.Msg) bool {
	if h.waiting {
		h.msgs = append(h.msgs, msg)
	}
	return h.waiting
}

// wait holds the input from now on; first, when set, is a key to handle
// again before the keys held after it.
func (h *heldInput) wait(first tea.Msg) {
	h.waiting = true
	if first != nil {
		h.msgs = append([]tea.Msg{first}, h.msgs...)
	}
}

// resumeInput ends the wait and handles the held input in order, until
// one of it waits again.
func (m *Model) resumeInput() tea.Cmd {
	m.input.waiting = false
	var cmds []tea.Cmd
	for len(m.input.msgs) > 0 && !m.input.waiting {
		msg := m.input.msgs[0]
		m.input.msgs = m.input.msgs[1:]
		switch msg := msg.(type) {
		case tea.KeyPressMsg:
			cmds = append(cmds, m.key(msg))
		case tea.PasteMsg:
			cmds = append(cmds, m.paste(msg))
		}
	}
	return tea.Batch(cmds...)
}
