// Package editor is the multi-line prompt editor: Enter submits, Shift+Enter,
// Alt+Enter and Ctrl+J insert a newline, Up and Down browse earlier prompts
// at the first and last line, and large pastes are kept whole. It wraps the
// bubbles textarea with the terminal's real cursor, and does no I/O.
package editor

import (
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/views/theme"
)

const (
	// MaxRows is the tallest the editor grows before it scrolls.
	MaxRows = 10
	// IdlePlaceholder shows in an empty editor between turns: what to do,
	// and how to write more than one line; BackslashIdlePlaceholder where
	// the terminal sends Shift+Enter as Enter (SetPlainShiftEnter), and
	// ShortIdlePlaceholder where the editor is too narrow for either.
	IdlePlaceholder          = "Describe a task and press Enter · Shift+Enter for a new line"
	BackslashIdlePlaceholder = `Describe a task and press Enter · \ then Enter for a new line`
	ShortIdlePlaceholder     = "Describe a task and press Enter"
	// RunningPlaceholder shows in an empty editor while a turn runs.
	RunningPlaceholder = "enter to steer · esc to cancel"
	prompt             = "> "
	// maxContentRows only keeps the textarea from refusing input: typed
	// and pasted text is never cut short.
	maxContentRows = 1 << 30
)

// Editor is the prompt editor. The zero value is not usable; call New.
type Editor struct {
	ta      textarea.Model
	history []string
	// browse is the history entry shown, len(history) for the draft.
	browse int
	draft  string
	pastes pastes
	// mark replaces the prompt's ">" (a running turn's phase glyph); it is
	// shared with the textarea's prompt function, which outlives copies.
	mark    *string
	running bool
	held    bool // a dialog above takes the keys
	// plainShiftEnter: the terminal sends Shift+Enter as Enter.
	plainShiftEnter bool
	width           int    // as set; the textarea's Width is its text's
	styled          uint64 // the version SetTheme gave
	// drawn is the last view drawn, shared by copies like mark; version
	// says which state this copy shows, so that a copy whose state was
	// drawn last draws it again without the textarea.
	drawn   *drawn
	version uint64
}

// drawn is the editor's last view: the textarea draws an unchanged editor
// (the idle screen's placeholder, a draft while an answer streams) at the
// cost of a changed one, about 0.1 ms a frame.
type drawn struct {
	version, versions uint64
	view              string
	cursor            *tea.Cursor
	ok                bool
	// line is the template of a one-line editor's view (line.go).
	line lineTemplate
	// empty is the empty editor's view, drawn again only when what it
	// shows changes: its placeholder, width, mark, height or styles.
	empty struct {
		shows  emptyEditor
		view   string
		cursor *tea.Cursor
		ok     bool
	}
}

// emptyEditor is what an empty editor's view shows.
type emptyEditor struct {
	placeholder, mark string
	width, height     int
	styled            uint64
}

// changed gives the editor's state a version no view was drawn for. Every
// method that changes the textarea calls it.
func (e *Editor) changed() {
	e.drawn.versions++
	e.version = e.drawn.versions
}

// New returns a focused editor in the palette, width columns wide.
func New(th theme.Theme, width int) Editor {
	ta := textarea.New()
	mark := new(string)
	ta.ShowLineNumbers = false
	ta.CharLimit = 0
	ta.DynamicHeight = true
	ta.MinHeight = 1
	ta.MaxHeight = MaxRows
	ta.MaxContentHeight = maxContentRows
	ta.SetPromptFunc(len(prompt), func(info textarea.PromptInfo) string {
		if info.LineNumber == 0 {
			if *mark != "" {
				return *mark + " "
			}
			return prompt
		}
		return strings.Repeat(" ", len(prompt))
	})
	ta.KeyMap.InsertNewline = key.NewBinding(key.WithKeys("shift+enter", "alt+enter", "ctrl+j"))
	ta.SetVirtualCursor(false)
	ta.Focus()
	e := Editor{ta: ta, mark: mark, drawn: &drawn{}, width: -1}
	e.SetTheme(th)
	e.SetWidth(width)
	return e
}

// SetTheme paints the editor in th (the terminal's background became known).
func (e *Editor) SetTheme(th theme.Theme) {
	state := textarea.StyleState{
		Base:        th.Plain,
		Text:        th.Plain,
		CursorLine:  th.Plain,
		EndOfBuffer: th.Plain,
		Placeholder: th.Dim,
		Prompt:      th.Accent,
		Selection:   th.Selection,
	}
	e.ta.SetStyles(textarea.Styles{Focused: state, Blurred: state})
	e.changed()
	e.styled = e.version
}

// SetMark shows glyph, one column wide, in place of the prompt's ">"; ""
// restores it.
func (e *Editor) SetMark(glyph string) {
	if *e.mark != glyph {
		*e.mark = glyph
		e.changed()
	}
}

// SetWidth changes the editor's width in columns.
func (e *Editor) SetWidth(w int) {
	if w == e.width {
		return
	}
	e.width = w
	e.ta.SetWidth(w)
	e.placeholder()
	e.changed()
}

// SetMaxHeight caps the editor at rows (at most MaxRows), so that on a
// screen shorter than MaxRows the editor scrolls its draft instead of
// growing past the screen, where the cursor would go out of sight.
func (e *Editor) SetMaxHeight(rows int) {
	rows = min(max(rows, 1), MaxRows)
	if rows == e.ta.MaxHeight {
		return
	}
	e.ta.MaxHeight = rows
	e.ta.SetWidth(e.width) // sizes the textarea to the new cap
	e.changed()
}

// SetRunning shows the steering placeholder while a turn runs, and what
// to do between turns.
func (e *Editor) SetRunning(running bool) { e.setHintState(&e.running, running) }

// SetHeld blanks the empty editor's hint while a dialog above it (a
// question, an approval) takes the keys: Enter and Esc are the dialog's
// then, not the steering and cancelling the hint names.
func (e *Editor) SetHeld(held bool) { e.setHintState(&e.held, held) }

// SetPlainShiftEnter says the terminal sends Shift+Enter as Enter, so the
// hint offers a backslash before Enter for a new line instead.
func (e *Editor) SetPlainShiftEnter(plain bool) { e.setHintState(&e.plainShiftEnter, plain) }

// setHintState sets one of the states the empty editor's hint depends on.
func (e *Editor) setHintState(state *bool, v bool) {
	if *state != v {
		*state = v
		e.placeholder()
		e.changed()
	}
}

// placeholder picks the empty editor's text for the state and the width:
// a hint cut mid-phrase would say less than a shorter one.
func (e *Editor) placeholder() {
	text := IdlePlaceholder
	if e.plainShiftEnter {
		text = BackslashIdlePlaceholder
	}
	if utf8.RuneCountInString(text) > e.ta.Width() {
		text = ShortIdlePlaceholder
	}
	if e.running {
		text = RunningPlaceholder
	}
	if e.held {
		text = ""
	}
	e.ta.Placeholder = text
}

// SetHistory seeds prompt history, oldest first (the session's earlier
// prompts on resume).
func (e *Editor) SetHistory(prompts []string) {
	e.history = append([]string(nil), prompts...)
	e.browse = len(e.history)
}

// Value is the text in the editor with pastes expanded.
func (e Editor) Value() string { return e.pastes.expand(e.ta.Value()) }

// CursorOffset is the byte offset of the cursor in Value().
func (e Editor) CursorOffset() int {
	raw := e.ta.Value()
	off := 0
	for i, line := range strings.Split(raw, "\n") {
		if i == e.ta.Line() {
			runes := []rune(line)
			off += len(string(runes[:min(e.ta.Column(), len(runes))]))
			break
		}
		off += len(line) + 1
	}
	return len(e.pastes.expand(raw[:off]))
}

// SetValue replaces the draft with s and puts the cursor at its end. The
// text lands as typed text, however long; only pastes of the old draft
// still whole in s keep their markers.
func (e *Editor) SetValue(s string) { e.Replace(0, len(e.Value()), s) }

// Replace replaces Value()[start:end] with text and puts the cursor right
// after text. Offsets outside the draft are clamped to it.
func (e *Editor) Replace(start, end int, text string) {
	v := e.Value()
	start = min(max(start, 0), len(v))
	end = min(max(end, start), len(v))
	head, tail := v[:start]+text, v[end:]
	var kept pastes
	kept, head = e.pastes.collapse(kept, head)
	kept, tail = e.pastes.collapse(kept, tail)
	e.ta.Reset()
	e.ta.InsertString(tail)
	e.ta.MoveToBegin()
	e.ta.InsertString(head)
	e.pastes = kept
	e.browse = len(e.history)
	e.draft = ""
	e.changed()
}

// Empty reports whether the editor holds no text.
func (e Editor) Empty() bool { return e.ta.Value() == "" }

// Reset empties the editor.
func (e *Editor) Reset() {
	e.ta.Reset()
	e.pastes = nil
	e.browse = len(e.history)
	e.draft = ""
	e.changed()
}

// Height is the number of rows View takes.
func (e Editor) Height() int { return e.ta.Height() }

// View renders the editor rows.
func (e Editor) View() string {
	return e.draw().view
}

// draw is the view and cursor of e's state, drawn again only when that
// state was not drawn last.
func (e Editor) draw() *drawn {
	d := e.drawn
	if d.ok && d.version == e.version {
		return d
	}
	d.version, d.ok = e.version, true
	if !e.Empty() {
		if view, cursor, ok := e.line(); ok {
			d.view, d.cursor = view, cursor
			return d
		}
		d.view, d.cursor = e.ta.View(), e.ta.Cursor()
		e.learn(d.view, d.cursor)
		return d
	}
	// Empty again (a backspace, a submitted prompt, a turn's start or
	// end): the placeholder's view, as it was last drawn.
	shows := emptyEditor{placeholder: e.ta.Placeholder, mark: *e.mark, width: e.width, height: e.ta.Height(), styled: e.styled}
	if !d.empty.ok || d.empty.shows != shows {
		d.empty.view, d.empty.cursor, d.empty.shows, d.empty.ok = e.ta.View(), e.ta.Cursor(), shows, true
	}
	d.view, d.cursor = d.empty.view, d.empty.cursor
	return d
}

// Cursor is the real terminal cursor relative to the editor's top-left
// corner; the app shifts it by where the editor sits on screen.
func (e Editor) Cursor() *tea.Cursor {
	c := e.draw().cursor
	if c == nil {
		return nil
	}
	copied := *c
	return &copied
}

// Update handles a key or paste. Enter is Submit's.
func (e Editor) Update(msg tea.Msg) (Editor, tea.Cmd) {
	e.changed()
	switch msg := msg.(type) {
	case tea.PasteMsg:
		var insert string
		e.pastes, insert = e.pastes.add(msg.Content)
		e.ta.InsertString(insert)
		return e, nil
	case tea.KeyPressMsg:
		switch msg.String() {
		case "up":
			if e.ta.Line() == 0 && e.recall(-1) {
				return e, nil
			}
		case "down":
			if e.ta.Line() == e.ta.LineCount()-1 && e.recall(+1) {
				return e, nil
			}
		}
		if typed(msg) && !e.ta.HasSelection() && e.ta.Height() < e.ta.MaxHeight-1 {
			// What the textarea's Update does with a typed character,
			// without the whole view it draws there to scroll by: an
			// editor shorter than its tallest does not scroll.
			e.ta.InsertString(msg.Text)
			return e, nil
		}
	}
	var cmd tea.Cmd
	e.ta, cmd = e.ta.Update(msg)
	return e, cmd
}

// Binds reports whether k is one of the textarea's keys (word motions
// such as alt+f and alt+b among them) rather than text or a key it
// ignores. It reads the key map whole, so a key the textarea gains is
// counted without a list here to keep.
func (e Editor) Binds(k tea.KeyPressMsg) bool {
	km := reflect.ValueOf(e.ta.KeyMap)
	for i := range km.NumField() {
		if b, ok := km.Field(i).Interface().(key.Binding); ok && key.Matches(k, b) {
			return true
		}
	}
	return false
}

// typed reports whether k types text, with Shift at most: no key of the
// textarea's is bound to one.
func typed(k tea.KeyPressMsg) bool {
	if k.Text == "" || k.Mod&^tea.ModShift != 0 {
		return false
	}
	for _, r := range k.Text {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// escapedEnter makes Enter after a backslash a new line in its place, as
// Claude Code's \⏎ does: it works in every terminal, where Shift+Enter
// reaches tack as Enter in several (tmux, GNU screen, rxvt, st). It
// reports whether it did.
func (e *Editor) escapedEnter() bool {
	lines := strings.Split(e.ta.Value(), "\n")
	line, col := e.ta.Line(), e.ta.Column()
	if line >= len(lines) {
		return false
	}
	if runes := []rune(lines[line]); col == 0 || col > len(runes) || runes[col-1] != '\\' {
		return false
	}
	e.ta, _ = e.ta.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
	e.ta.InsertString("\n")
	return true
}

// Submit is Enter. After a backslash it makes a new line in its place;
// otherwise it records non-blank text in history, resets the editor and
// returns the text, pastes expanded. It returns "" when nothing was sent.
// The owner calls it in its Update, rather than waiting for a message, so
// what Enter sends is handled before the keys typed after it: Enter then
// Tab while a turn runs is steering, then a follow-up.
func (e Editor) Submit() (Editor, string) {
	e.changed()
	if e.escapedEnter() {
		return e, ""
	}
	text := e.Value()
	if strings.TrimSpace(text) == "" {
		return e, ""
	}
	if n := len(e.history); n == 0 || e.history[n-1] != text {
		e.history = append(e.history, text)
	}
	e.Reset()
	return e, text
}

// recall moves through history by dir, keeping the unsent draft to come
// back to. It reports whether it moved.
func (e *Editor) recall(dir int) bool {
	next := e.browse + dir
	if next < 0 || next > len(e.history) {
		return false
	}
	if e.browse == len(e.history) {
		e.draft = e.ta.Value()
	}
	e.browse = next
	text := e.draft
	if next < len(e.history) {
		text = e.history[next]
	}
	e.ta.SetValue(text)
	if dir < 0 {
		e.ta.MoveToBegin()
	} else {
		e.ta.MoveToEnd()
	}
	return true
}
