package screen

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// A terminal that does not measure graphemes (mode 2027) advances by
// wcwidth, so cells are measured with ansi.WcWidth. Its first rune at
// U+0300 or above builds go-runewidth's lookup table, 2 × 1.1 MB written
// at once (about 2 ms, most of it page faults): the idle screen's "…"
// while the sandbox is probed did that in the first complete frame.
// Text made only of ASCII and sameWidth's runes measures the same under
// either method (each rune is a cluster of its own, as wide both ways:
// TestSameWidthRunesMeasureTheSameBothWays), so such a frame is measured
// as graphemes, which needs no table, and draws the same cells.
const sameWidth = "·…─│┼╭╮╯╰┌┐└┘├┤┬┴•○●◐◑◒◓◍✓✗✻⚙⊙❯›‹»«×–—“”‘’←↑→↓↳↵↶⇥⇧−∞⋯⏎▸▾"

// measuresTheSame reports whether every rune of s above ASCII is one of
// sameWidth's. Escape sequences are ASCII; a link's URL that is not
// counts against it.
func measuresTheSame(s string) bool {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || !strings.ContainsRune(sameWidth, r) {
			return false
		}
		i += n
	}
	return true
}

// measure is the width method of text that measures the same both ways
// or not (same).
func (r *Renderer) measure(same bool) ansi.Method {
	if r.unicode || same {
		return ansi.GraphemeWidth
	}
	return ansi.WcWidth
}

// widths picks the width methods of a frame: the cells' (graphemes where
// the terminal measures them, or where both methods agree on the frame's
// text) and the screen writer's, which looks for cells the terminal may
// measure wider than the model in the rows it diffs, the terminal's old
// rows among them, so it measures as graphemes only when the frame drawn
// before agreed too.
func (r *Renderer) widths(same bool) {
	r.cells.Method = r.measure(same)
	writer := ansi.WcWidth
	if same && r.agreed {
		writer = ansi.GraphemeWidth
	}
	r.scr.SetWidthMethod(writer)
	r.agreed = same
}

// unseen reports the characters that draw nothing but that terminals
// step over each their own way: format characters (the soft hyphen,
// zero-width spaces, bidirectional marks, the byte order mark) and the
// line and paragraph separators. Where the renderer counts no column for
// them, xterm, urxvt, st, mlterm, alacritty, tmux and GNU screen advance
// one for a soft hyphen or a line separator, mlterm for each of them and
// kitty for none (see TestTextEndsWhereTheRendererCountsInRealTerminals):
// a soft hyphen in a model's answer shifted the rest of its row. The
// zero-width joiner stays: it joins emoji, and the terminals tried keep
// it in step.
func unseen(r rune) bool {
	if r < 0xad {
		return false
	}
	return (r != '\u200d' && unicode.Is(unicode.Cf, r)) || r == '\u2028' || r == '\u2029'
}

// drawable is row as the terminal is sent it: without the characters
// that draw nothing and that terminals count differently (see unseen).
// A row that measures the same both ways has none.
func drawable(row string, same bool) string {
	if same || strings.IndexFunc(row, unseen) < 0 {
		return row
	}
	return strings.Map(func(r rune) rune {
		if unseen(r) {
			return -1
		}
		return r
	}, row)
}
