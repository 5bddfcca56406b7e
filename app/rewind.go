package app

import (
	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/overlays/rewindpicker"
)

// Esc Esc with an empty draft while idle opens the rewind picker, as in
// Claude Code and codex: the first Esc arms it and says so; any other key
// disarms it. Pressed quickly, the two arrive as one alt+esc.
const escAgainHint = "Press Esc again to rewind to an earlier turn."

// openRewindPicker shows the turns of the conversation as the projection
// has them; the picker's choice runs as a /rewind, /undo or /redo line.
func (m *Model) openRewindPicker() {
	if m.requestOpen() || m.ov.open() {
		return
	}
	m.ov.rewind = rewindpicker.New(m.proj.Turns(), m.proj.Rewinds(), m.opts.Now(), m.theme)
}

func (m *Model) rewindPickerKey(msg tea.Msg) tea.Cmd {
	out := m.ov.rewind.Update(msg)
	switch out.Kind {
	case rewindpicker.Run:
		m.ov.rewind = nil
		return m.command(out.Line)
	case rewindpicker.Closed:
		m.ov.rewind = nil
	}
	return nil
}

// rewound puts the prompt of the turn rewound to back in the editor, unless
// a draft was started meanwhile.
func (m *Model) rewound(a commands.ActionRewound) {
	if a.Prompt != "" && m.editor.Empty() {
		m.setDraft(a.Prompt)
	}
}

// escapeIdle is Esc while no turn runs: the second press in a row with an
// empty draft opens the rewind picker.
func (m *Model) escapeIdle() {
	if !m.editor.Empty() {
		m.armedEsc = false
		return
	}
	if m.armedEsc {
		m.armedEsc = false
		m.openRewindPicker()
		return
	}
	m.armedEsc = true
	m.hint = escAgainHint
}

// escapeTwice is alt+esc, two Esc presses the terminal sent as one key: it
// cancels a running turn as Esc does, and opens the rewind picker while
// idle with an empty draft.
func (m *Model) escapeTwice() tea.Cmd {
	if m.running() {
		return m.cancel()
	}
	if m.editor.Empty() {
		m.openRewindPicker()
	}
	return nil
}
