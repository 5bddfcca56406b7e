package editor

import (
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// A prompt being typed is one line of text that fits, and the textarea
// drawing it was a third of the work of a typed key (BenchmarkKeystroke:
// 88 µs a key with it, 60 µs without, on the test machine), most of it
// lipgloss styling segments that tack's styles leave as they are. After a
// pause like the one between two typed keys the same work takes four
// times as long (380 µs a key with it, 245 µs without). So for that case
// the editor draws the line itself, from a template the textarea drew:
// the textarea draws the first such line after any change of what the
// template depends on, and where its view is the prompt, the text and the
// padding, that prompt is the template. Where it is not (a style that
// marks the text or the cursor line), the textarea draws every key as
// before. TestOneLineViewIsTheTextareas holds the two to the same view.

// lineKey is what the view of one line depends on besides its text and
// cursor.
type lineKey struct {
	mark    string
	width   int
	styled  uint64
	focused bool
}

// lineTemplate is the view of one line as the textarea drew it, but for
// the text: prompt comes before the text, then the padding to the width;
// cursor is the textarea's cursor, at column 0 of the text.
type lineTemplate struct {
	key    lineKey
	prompt string
	cursor tea.Cursor
	ok     bool // the textarea's view had that form
}

func (e Editor) lineKey() lineKey {
	return lineKey{mark: *e.mark, width: e.ta.Width(), styled: e.styled, focused: e.ta.Focused()}
}

// oneLine returns the text when the editor shows one line of narrow
// characters that fits its width, nothing selected: the case the
// template draws.
func (e Editor) oneLine() (string, bool) {
	if e.ta.LineCount() != 1 || e.ta.Height() != 1 || e.ta.HasSelection() {
		return "", false
	}
	text := e.ta.Value()
	n := 0
	for _, r := range text {
		if !narrow(r) {
			return "", false
		}
		n++
	}
	return text, n < e.ta.Width()
}

// narrow reports whether r is one column wide on its own and in any
// neighbourhood: printable ASCII, and the Latin letters and signs below the
// combining marks (U+0300), the soft hyphen aside.
func narrow(r rune) bool {
	return r >= ' ' && r < utf8.RuneSelf-1 || r >= 0xa0 && r < 0x300 && r != 0xad
}

// line draws a one-line editor from the template, when there is one for
// its state.
func (e Editor) line() (string, *tea.Cursor, bool) {
	t := &e.drawn.line
	if !t.ok || t.key != e.lineKey() {
		return "", nil, false
	}
	text, ok := e.oneLine()
	if !ok {
		return "", nil, false
	}
	c := t.cursor
	c.X += e.ta.Column()
	pad := e.ta.Width() - utf8.RuneCountInString(text)
	return t.prompt + text + strings.Repeat(" ", pad), &c, true
}

// learn keeps view and cursor, which the textarea drew, as the template
// of a one-line editor's view when they are one, and have its form.
func (e Editor) learn(view string, cursor *tea.Cursor) {
	text, ok := e.oneLine()
	if !ok || cursor == nil {
		return
	}
	t := lineTemplate{key: e.lineKey()}
	tail := text + strings.Repeat(" ", e.ta.Width()-utf8.RuneCountInString(text))
	if prompt, ok := strings.CutSuffix(view, tail); ok && !strings.Contains(view, "\n") &&
		cursor.Y == 0 && cursor.X == ansi.StringWidth(prompt)+e.ta.Column() {
		t.prompt, t.cursor, t.ok = prompt, *cursor, true
		t.cursor.X -= e.ta.Column()
	}
	e.drawn.line = t
}
