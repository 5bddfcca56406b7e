package app

import (
	"strings"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/tack-agent/tack/views/theme"
)

// maxEditorRows is the tallest the editor grows before it scrolls.
const maxEditorRows = 8

// placeholderRunning is shown in an empty editor while a turn runs.
const placeholderRunning = "enter to steer · esc to cancel"

// editor is the prompt editor: a multi-line textarea with a `> ` prompt,
// prompt history on Up and Down, and the hardware cursor (so the terminal
// and the snapshot harness see where typing goes).
type editor struct {
	ta      textarea.Model
	history []string
	// at is the history entry shown, len(history) for the draft.
	at    int
	draft string
}

func newEditor(th theme.Theme) editor {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.CharLimit = 0
	ta.MaxHeight = 0
	ta.SetVirtualCursor(false)
	plain := lipgloss.NewStyle()
	state := textarea.StyleState{
		Base: plain, Text: plain, LineNumber: plain, CursorLineNumber: plain, CursorLine: plain,
		EndOfBuffer: plain, Placeholder: th.Dim, Prompt: th.Accent, Selection: th.Selection,
	}
	ta.SetStyles(textarea.Styles{Focused: state, Blurred: state, Cursor: textarea.CursorStyle{Shape: tea.CursorBar}})
	ta.SetPromptFunc(2, func(info textarea.PromptInfo) string {
		if info.LineNumber == 0 {
			return "> "
		}
		return "  "
	})
	ta.KeyMap.InsertNewline.SetEnabled(false)
	ta.Focus()
	ta.SetHeight(1)
	return editor{ta: ta}
}

func (e *editor) setWidth(w int) { e.ta.SetWidth(w) }

// setHistory seeds Up/Down with the session's earlier prompts.
func (e *editor) setHistory(prompts []string) {
	e.history = append([]string(nil), prompts...)
	e.at = len(e.history)
}

func (e *editor) value() string { return e.ta.Value() }

func (e *editor) empty() bool { return e.ta.Value() == "" }

// take empties the editor and returns what it held, remembering it in the
// history.
func (e *editor) take() string {
	v := e.ta.Value()
	e.ta.Reset()
	if strings.TrimSpace(v) != "" && (len(e.history) == 0 || e.history[len(e.history)-1] != v) {
		e.history = append(e.history, v)
	}
	e.at = len(e.history)
	e.draft = ""
	e.fit()
	return v
}

func (e *editor) clear() {
	e.ta.Reset()
	e.at = len(e.history)
	e.fit()
}

func (e *editor) newline() {
	e.ta.InsertRune('\n')
	e.fit()
}

// paste inserts pasted text whole, line breaks included.
func (e *editor) paste(s string) {
	e.ta.InsertString(strings.ReplaceAll(s, "\r\n", "\n"))
	e.fit()
}

func (e *editor) setPlaceholder(running bool) {
	if running {
		e.ta.Placeholder = placeholderRunning
	} else {
		e.ta.Placeholder = ""
	}
}

// historyStep moves through the prompt history: -1 older, +1 newer. It
// only acts on the first line (older) or last line (newer), so Up and
// Down still move the cursor inside a multi-line draft.
func (e *editor) historyStep(dir int) bool {
	if dir < 0 && e.ta.Line() > 0 || dir > 0 && e.ta.Line() < e.ta.LineCount()-1 {
		return false
	}
	next := e.at + dir
	if next < 0 || next > len(e.history) {
		return false
	}
	if e.at == len(e.history) {
		e.draft = e.ta.Value()
	}
	e.at = next
	if next == len(e.history) {
		e.ta.SetValue(e.draft)
	} else {
		e.ta.SetValue(e.history[next])
	}
	e.fit()
	return true
}

// update passes a key to the textarea.
func (e *editor) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	e.ta, cmd = e.ta.Update(msg)
	e.fit()
	return cmd
}

// fit grows the editor with its content up to maxEditorRows.
func (e *editor) fit() {
	rows := min(max(e.ta.LineCount(), 1), maxEditorRows)
	if rows != e.ta.Height() {
		e.ta.SetHeight(rows)
	}
}

func (e *editor) rows() int { return e.ta.Height() }

func (e *editor) view() string { return e.ta.View() }

// cursor is the hardware cursor relative to the editor's top-left cell.
func (e *editor) cursor() *tea.Cursor {
	c := e.ta.Cursor()
	if c != nil {
		c.Color = nil
		c.Blink = false
	}
	return c
}
