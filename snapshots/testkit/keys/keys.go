// Package keys makes the key presses tests send to models and overlays,
// named the way bubbletea's KeyPressMsg.String names them, so a test reads
// like the key it presses: Press(p.Update, "down", "enter").
package keys

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// named are the special keys by their bubbletea names.
var named = map[string]rune{
	"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "space": tea.KeySpace,
	"backspace": tea.KeyBackspace, "delete": tea.KeyDelete,
	"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
	"home": tea.KeyHome, "end": tea.KeyEnd, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
	"f1": tea.KeyF1, "f2": tea.KeyF2,
}

// modifiers are the prefixes a name may carry, as in "ctrl+shift+up".
var modifiers = map[string]tea.KeyMod{"ctrl": tea.ModCtrl, "alt": tea.ModAlt, "shift": tea.ModShift}

// Key is the key press that name names: a special key ("enter", "pgdown",
// "f2"), a modified one ("ctrl+c", "shift+tab", "alt+enter",
// "ctrl+home"), or a printable string typed as one key ("a", "?", "é").
func Key(name string) tea.KeyPressMsg {
	var mod tea.KeyMod
	rest := name
	for {
		head, tail, ok := strings.Cut(rest, "+")
		m, isMod := modifiers[head]
		if !ok || !isMod || tail == "" {
			break
		}
		mod |= m
		rest = tail
	}
	if code, ok := named[rest]; ok {
		k := tea.Key{Code: code, Mod: mod}
		if code == tea.KeySpace && mod == 0 {
			k.Text = " "
		}
		return tea.KeyPressMsg(k)
	}
	r := []rune(rest)
	if mod != 0 && len(r) == 1 {
		return tea.KeyPressMsg{Code: r[0], Mod: mod}
	}
	return tea.KeyPressMsg{Code: r[0], Text: rest}
}

// Type is one key press per rune of text.
func Type(text string) []tea.KeyPressMsg {
	var out []tea.KeyPressMsg
	for _, r := range text {
		out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return out
}

// Press sends the named keys to update in order and returns what the last
// one returned.
func Press[O any](update func(tea.Msg) O, names ...string) O {
	var out O
	for _, n := range names {
		out = update(Key(n))
	}
	return out
}

// TypeText sends one key press per rune of text to update and returns
// what the last one returned.
func TypeText[O any](update func(tea.Msg) O, text string) O {
	var out O
	for _, k := range Type(text) {
		out = update(k)
	}
	return out
}

// Component is a value-type component whose Update returns its next value
// and a command, as the editor's does.
type Component[M any] interface {
	Update(tea.Msg) (M, tea.Cmd)
}

// TypeInto types text into m, one key press per rune, and returns the
// component after the last one.
func TypeInto[M Component[M]](m M, text string) M {
	for _, k := range Type(text) {
		m, _ = m.Update(k)
	}
	return m
}

// PressOn presses the named keys on m in order and returns the component
// after the last one and the message of that key's command (nil without
// one).
func PressOn[M Component[M]](m M, names ...string) (M, tea.Msg) {
	var cmd tea.Cmd
	for _, n := range names {
		m, cmd = m.Update(Key(n))
	}
	if cmd == nil {
		return m, nil
	}
	return m, cmd()
}

// Into adapts a root model held by pointer (its Update changes it in
// place) to Press and TypeText: each key's outcome is its command.
func Into(m tea.Model) func(tea.Msg) tea.Cmd {
	return func(msg tea.Msg) tea.Cmd {
		_, cmd := m.Update(msg)
		return cmd
	}
}
