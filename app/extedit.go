package app

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/views/transcript"
)

// Ctrl+G opens the draft in $VISUAL or $EDITOR (vi when neither is set):
// a command writes it to a temporary file, the program hands the terminal
// to the editor, and another command reads the file back into the editor.

// draftFileMsg says the draft was written to path, and brings the editor
// command to run on it (resolved off Update: exec.Command looks the
// program up in PATH).
type draftFileMsg struct {
	path   string
	editor *exec.Cmd
	err    error
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
	draft, getenv := m.editor.Value(), m.opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
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
		return draftFileMsg{path: f.Name(), editor: editorCommand(getenv, f.Name())}
	}
}

// editorCommand is $VISUAL, else $EDITOR, else vi, split into words so
// "code --wait" works.
func editorCommand(getenv func(string) string, path string) *exec.Cmd {
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
	done := func(err error) tea.Msg { return draftEditedMsg{path: msg.path, err: err} }
	if t := m.opts.Terminal; t != nil && t.ReadsKeys() {
		// bubbletea reads no keys: its Exec, which stops its reader
		// first, would wait for one that never ran. The terminal lends
		// itself to the editor from a command.
		editor := msg.editor
		return func() tea.Msg { return done(t.Lend(editor)) }
	}
	return tea.Exec(settledExec{Cmd: msg.editor, term: m.opts.Terminal}, done)
}

// renderSettle is how long the editor waits to start after bubbletea has
// handed over the terminal.
const renderSettle = 50 * time.Millisecond

// Terminal is the terminal the program draws on, as an external program
// borrows it: Release gives it back as it was before the program, Restore
// takes it again and redraws. When it reads the program's keys itself
// (ReadsKeys), Lend runs a program on it between the two, with the
// terminal as its standard streams.
type Terminal interface {
	Release() error
	Restore() error
	ReadsKeys() bool
	Lend(c *exec.Cmd) error
}

// settledExec runs an external command once bubbletea's old render loop has
// had time to stop, on the terminal released. bubbletea v2.1.1 stops its
// frame ticker from that loop after releasing the terminal; an editor that
// returns at once (a GUI editor without --wait, a failing command) lets the
// restart reset the ticker first, and the stale Stop then leaves the
// program without frames (and without the output it queues) for good
// (charmbracelet/bubbletea#1778).
type settledExec struct {
	*exec.Cmd
	term Terminal
}

func (c settledExec) Run() error {
	time.Sleep(renderSettle)
	if c.term == nil {
		return c.Cmd.Run()
	}
	if err := c.term.Release(); err != nil {
		_ = c.term.Restore()
		return fmt.Errorf("hand the terminal to the editor: %w", err)
	}
	err := c.Cmd.Run()
	if rerr := c.term.Restore(); rerr != nil && err == nil {
		err = fmt.Errorf("take the terminal back from the editor: %w", rerr)
	}
	return err
}

func (c settledExec) SetStdin(r io.Reader) {
	if c.Stdin == nil {
		c.Stdin = r
	}
}

func (c settledExec) SetStdout(w io.Writer) {
	if c.Stdout == nil {
		c.Stdout = w
	}
}

func (c settledExec) SetStderr(w io.Writer) {
	if c.Stderr == nil {
		c.Stderr = w
	}
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
