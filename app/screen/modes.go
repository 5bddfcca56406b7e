package screen

import (
	"image/color"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/lucasb-eyer/go-colorful"
)

// The terminal modes a view asks for (bracketed paste, focus reports, the
// mouse, the title, keyboard enhancements, the cursor's colour and shape):
// each frame sets those that changed, and leaving the screen undoes them.

// modes writes to the screen writer the terminal modes v asks for that
// differ from was's (all of them on the first frame).
func (r *Renderer) modes(was, v *tea.View) {
	w := r.scr
	if was == nil {
		// st sends Delete as CSI P (F1 to the decoder), Insert as CSI 4 h
		// and Ctrl+Delete as CSI M (the start of a mouse report) unless the
		// keypad is in application mode, as its terminfo's smkx asks of a
		// program that reads keys; then CSI 3 ~, CSI 2 ~ and CSI 3;5 ~ as
		// every other terminal does. The keypad's digits stay digits in
		// the terminals tried (see TestKeysReadAsTheirNamesInRealTerminals).
		_, _ = w.WriteString(ansi.KeypadApplicationMode)
		// The window's title is kept on the terminal's stack, so that
		// leaving gives it back (xterm and mlterm; a terminal without the
		// stack is left with an empty title).
		_, _ = w.WriteString(ansi.WindowOp(pushTitle, titleOnly))
	}
	if was == nil || was.DisableBracketedPasteMode != v.DisableBracketedPasteMode {
		if !v.DisableBracketedPasteMode {
			_, _ = w.WriteString(ansi.SetModeBracketedPaste)
		} else if was != nil {
			_, _ = w.WriteString(ansi.ResetModeBracketedPaste)
		}
	}
	if was == nil || was.ReportFocus != v.ReportFocus {
		if v.ReportFocus {
			_, _ = w.WriteString(ansi.SetModeFocusEvent)
		} else if was != nil {
			_, _ = w.WriteString(ansi.ResetModeFocusEvent)
		}
	}
	if was == nil || was.MouseMode != v.MouseMode {
		if was != nil && was.MouseMode != tea.MouseModeNone {
			_, _ = w.WriteString(ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr)
		}
		switch v.MouseMode {
		case tea.MouseModeCellMotion:
			_, _ = w.WriteString(ansi.SetModeMouseButtonEvent + ansi.SetModeMouseExtSgr)
		case tea.MouseModeAllMotion:
			_, _ = w.WriteString(ansi.SetModeMouseAnyEvent + ansi.SetModeMouseExtSgr)
		}
	}
	if (was == nil && v.WindowTitle != "") || (was != nil && was.WindowTitle != v.WindowTitle) {
		_, _ = w.WriteString(ansi.SetWindowTitle(v.WindowTitle))
	}
	if was == nil || was.KeyboardEnhancements != v.KeyboardEnhancements {
		flags := keyboardFlags(v.KeyboardEnhancements)
		_, _ = w.WriteString(ansi.SetModifyOtherKeys2)
		if was == nil {
			_, _ = w.WriteString(ansi.PushKittyKeyboard(flags))
		} else {
			_, _ = w.WriteString(ansi.KittyKeyboard(flags, 1))
		}
		_, _ = w.WriteString(ansi.RequestKittyKeyboard)
	}
	var cc, wcc color.Color
	if v.Cursor != nil {
		cc = v.Cursor.Color
	}
	if was != nil && was.Cursor != nil {
		wcc = was.Cursor.Color
	}
	if cc != wcc {
		if cc == nil {
			_, _ = w.WriteString(ansi.ResetCursorColor)
		} else if c, ok := colorful.MakeColor(cc); ok {
			_, _ = w.WriteString(ansi.SetCursorColor(c.Hex()))
		}
	}
	if style, wstyle := cursorStyle(v.Cursor), cursorStyle(cursorOf(was)); style != wstyle {
		_, _ = w.WriteString(ansi.SetCursorStyle(style))
	}
}

// leave undoes what the frames set, leaves the alternate screen and shows
// the cursor.
func (r *Renderer) leave() {
	was := r.drawn
	if was == nil {
		return
	}
	w := &r.frame
	w.Reset()
	w.WriteString(ansi.ResetModifyOtherKeys + ansi.PopKittyKeyboard(1) + ansi.KeypadNumericMode)
	if !was.DisableBracketedPasteMode {
		w.WriteString(ansi.ResetModeBracketedPaste)
	}
	if was.ReportFocus {
		w.WriteString(ansi.ResetModeFocusEvent)
	}
	if was.MouseMode != tea.MouseModeNone {
		w.WriteString(ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr)
	}
	if was.WindowTitle != "" {
		w.WriteString(ansi.SetWindowTitle(""))
	}
	w.WriteString(ansi.WindowOp(popTitle, titleOnly))
	if c := was.Cursor; c != nil {
		if s := cursorStyle(c); s != 0 && s != 1 {
			w.WriteString(ansi.SetCursorStyle(0))
		}
		if c.Color != nil {
			w.WriteString(ansi.ResetCursorColor)
		}
	}
	if r.unicode {
		w.WriteString(ansi.ResetModeUnicodeCore)
	}
	w.WriteString(ansi.ResetModeAltScreenSaveCursor + ansi.SetModeTextCursorEnable)
	r.write()
	r.drawn = nil
}

// The window operations (XTWINOPS) that push the window's title on the
// terminal's stack of titles and pop it.
const (
	pushTitle = 22
	popTitle  = 23
	titleOnly = 2 // the window's title, not its icon's
)

func cursorOf(v *tea.View) *tea.Cursor {
	if v == nil {
		return nil
	}
	return v.Cursor
}

// cursorStyle is the DECSCUSR number of c's shape and blink; 0 (the
// terminal's default) without a cursor.
func cursorStyle(c *tea.Cursor) int {
	if c == nil {
		return 0
	}
	s := int(c.Shape)*2 + 1
	if !c.Blink {
		s++
	}
	return s
}

func keyboardFlags(k tea.KeyboardEnhancements) int {
	flags := ansi.KittyDisambiguateEscapeCodes
	if k.ReportEventTypes {
		flags |= ansi.KittyReportEventTypes
	}
	if k.ReportAlternateKeys {
		flags |= ansi.KittyReportAlternateKeys
	}
	if k.ReportAllKeysAsEscapeCodes {
		flags |= ansi.KittyReportAllKeysAsEscapeCodes
	}
	if k.ReportAssociatedText {
		flags |= ansi.KittyReportAssociatedKeys
	}
	return flags
}

// viewEquals reports whether a and b draw the same frame with the same
// modes.
func viewEquals(a, b *tea.View) bool {
	if a.Content != b.Content || a.DisableBracketedPasteMode != b.DisableBracketedPasteMode ||
		a.ReportFocus != b.ReportFocus || a.MouseMode != b.MouseMode || a.WindowTitle != b.WindowTitle ||
		a.KeyboardEnhancements != b.KeyboardEnhancements || (a.Cursor == nil) != (b.Cursor == nil) {
		return false
	}
	return a.Cursor == nil || *a.Cursor == *b.Cursor
}
