// Package field is the one-line text input of the overlays: filters,
// search boxes, custom answers and reasons. It edits runes, draws its
// cursor in reverse video and keeps the cursor in view when the text is
// wider than the room it gets.
package field

import (
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/views/textfmt"
	"github.com/tack-agent/tack/views/theme"
)

// Field is a single-line text input. The zero value is empty and ready.
type Field struct {
	runes []rune
	pos   int
}

// Value is the text typed so far.
func (f *Field) Value() string { return string(f.runes) }

// Empty reports whether nothing is typed.
func (f *Field) Empty() bool { return len(f.runes) == 0 }

// SetValue replaces the text and puts the cursor at its end.
func (f *Field) SetValue(s string) {
	f.runes = []rune(s)
	f.pos = len(f.runes)
}

// Update applies an editing key or a paste and reports whether it was one.
// Keys it does not know (Enter, Esc, arrows up and down) are left to the
// caller.
func (f *Field) Update(msg tea.Msg) bool {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		f.insert(strings.Map(oneLine, msg.Content))
		return true
	case tea.KeyPressMsg:
		return f.key(msg)
	}
	return false
}

func oneLine(r rune) rune {
	if r == '\n' || r == '\r' || r == '\t' {
		return ' '
	}
	return r
}

func (f *Field) key(k tea.KeyPressMsg) bool {
	switch k.String() {
	case "backspace", "ctrl+h":
		if f.pos > 0 {
			f.runes = append(f.runes[:f.pos-1], f.runes[f.pos:]...)
			f.pos--
		}
	case "delete", "ctrl+d":
		if f.pos < len(f.runes) {
			f.runes = append(f.runes[:f.pos], f.runes[f.pos+1:]...)
		}
	case "left", "ctrl+b":
		f.pos = max(0, f.pos-1)
	case "right", "ctrl+f":
		f.pos = min(len(f.runes), f.pos+1)
	case "home", "ctrl+a":
		f.pos = 0
	case "end", "ctrl+e":
		f.pos = len(f.runes)
	case "ctrl+u":
		f.runes = f.runes[f.pos:]
		f.pos = 0
	case "ctrl+k":
		f.runes = f.runes[:f.pos]
	case "ctrl+w", "alt+backspace":
		f.deleteWord()
	default:
		if k.Text == "" || k.Mod&(tea.ModCtrl|tea.ModAlt) != 0 {
			return false
		}
		f.insert(k.Text)
	}
	return true
}

func (f *Field) insert(s string) {
	add := []rune(s)
	rest := append(add, f.runes[f.pos:]...)
	f.runes = append(f.runes[:f.pos], rest...)
	f.pos += len(add)
}

func (f *Field) deleteWord() {
	i := f.pos
	for i > 0 && unicode.IsSpace(f.runes[i-1]) {
		i--
	}
	for i > 0 && !unicode.IsSpace(f.runes[i-1]) {
		i--
	}
	f.runes = append(f.runes[:i], f.runes[f.pos:]...)
	f.pos = i
}

// View draws the text in at most width cells with the cursor as a reverse
// video cell; with nothing typed it shows placeholder, faint. Text that
// does not fit loses its start, so the cursor stays visible.
func (f *Field) View(th theme.Theme, width int, placeholder string) string {
	if width <= 0 {
		return ""
	}
	if len(f.runes) == 0 {
		cursor := cursorCell(th, " ")
		if placeholder == "" || width < 2 {
			return cursor
		}
		return cursor + th.Dim.Render(ansi.Truncate(textfmt.SanitizeLine(placeholder), width-1, "…"))
	}
	before := textfmt.SanitizeLine(string(f.runes[:f.pos]))
	at, after := " ", ""
	if f.pos < len(f.runes) {
		at = textfmt.SanitizeLine(string(f.runes[f.pos]))
		after = textfmt.SanitizeLine(string(f.runes[f.pos+1:]))
	}
	if room := width - ansi.StringWidth(at); ansi.StringWidth(before) > room {
		before = ansi.TruncateLeft(before, ansi.StringWidth(before)-room+1, "…")
	}
	after = ansi.Truncate(after, max(0, width-ansi.StringWidth(before)-ansi.StringWidth(at)), "…")
	return before + cursorCell(th, at) + after
}

// cursorCell draws the cell under the cursor in reverse video; without
// styling the cursor past the end shows as an underscore.
func cursorCell(th theme.Theme, at string) string {
	if !th.Colour && at == " " {
		return "_"
	}
	return th.Selection.Render(at)
}
