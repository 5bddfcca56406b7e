package app

import (
	"fmt"
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/views/transcript"
)

// Ctrl+G opens the draft in $VISUAL or $EDITOR (vi when neither is set):
// a command writes it to a temporary file, the program hands the terminal
// to the editor, and another command reads the file back into the editor.

// draftFileMsg says the draft was written to path.
type draftFileMsg struct {
	path string
	err  error
}

// draftEditedMsg says the external editor ended.
type draftEditedMsg struct {
	path string
	err  error
}

// draftReadMsg carries the edited draft.
type draftReadMsg struct {
	text string
	err  error
}

// externalEditor writes the draft to a temporary file in a command.
func (m *Model) externalEditor() tea.Cmd {
	draft := m.editor.Value()
	return func() tea.Msg {
		f, err := os.CreateTemp("", "tack-draft-*.md")
		if err != nil {
			return draftFileMsg{err: fmt.Errorf("create the draft file: %w", err)}
		}
		// A text file ends with a newline; editors and scripts that
		// append lines expect one.
		_, err = f.WriteString(draft + "\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(f.Name())
			return draftFileMsg{err: fmt.Errorf("write the draft file: %w", err)}
		}
		return draftFileMsg{path: f.Name()}
	}
}

// editorCommand is $VISUAL, else $EDITOR, else vi, split into words so
// "code --wait" works.
func (m *Model) editorCommand(path string) *exec.Cmd {
	getenv := m.opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	words := strings.Fields(getenv("VISUAL"))
	if len(words) == 0 {
		words = strings.Fields(getenv("EDITOR"))
	}
	if len(words) == 0 {
		words = []string{"vi"}
	}
	return exec.Command(words[0], append(words[1:], path)...)
}

// editDraftIn suspends the screen and runs the editor on the file.
func (m *Model) editDraftIn(msg draftFileMsg) tea.Cmd {
	if msg.err != nil {
		m.notice("Could not open the external editor: "+msg.err.Error(), transcript.NoticeError)
		return nil
	}
	return tea.ExecProcess(m.editorCommand(msg.path), func(err error) tea.Msg {
		return draftEditedMsg{path: msg.path, err: err}
	})
}

// draftEdited reads the file back in a command (and removes it).
func (m *Model) draftEdited(msg draftEditedMsg) tea.Cmd {
	return func() tea.Msg {
		defer os.Remove(msg.path)
		if msg.err != nil {
			return draftReadMsg{err: msg.err}
		}
		b, err := os.ReadFile(msg.path)
		if err != nil {
			return draftReadMsg{err: fmt.Errorf("read the draft file: %w", err)}
		}
		return draftReadMsg{text: strings.TrimRight(string(b), "\n")}
	}
}

// draftRead replaces the draft with the edited text.
func (m *Model) draftRead(msg draftReadMsg) {
	if msg.err != nil {
		m.notice("The external editor failed; the draft is unchanged: "+msg.err.Error(), transcript.NoticeError)
		return
	}
	m.setDraft(msg.text)
}
