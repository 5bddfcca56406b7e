//go:build linux

package tmuxdiff

import (
	"fmt"
	"image/color"
	"strconv"
	"strings"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
)

// style is what the comparison reads of a cell's look: the attributes
// both emulators report and the colours, named as SGR names them ("1" for
// red, "9" for bright red, "i200" for a 256-colour index, "#rrggbb" for
// true colour, "" for the terminal's default).
type style struct {
	bold, faint, italic, underline, reverse bool
	fg, bg                                  string
}

func (s style) String() string {
	var parts []string
	for _, a := range []struct {
		on   bool
		name string
	}{{s.bold, "bold"}, {s.faint, "faint"}, {s.italic, "italic"}, {s.underline, "underline"}, {s.reverse, "reverse"}} {
		if a.on {
			parts = append(parts, a.name)
		}
	}
	if s.fg != "" {
		parts = append(parts, "fg "+s.fg)
	}
	if s.bg != "" {
		parts = append(parts, "bg "+s.bg)
	}
	if len(parts) == 0 {
		return "plain"
	}
	return strings.Join(parts, " ")
}

// glyph is one character on the screen at its column: a blank cell, a
// narrow character or a wide one with the cells it continues into
// (capture-pane leaves those out, and x/vt marks them with width 0).
type glyph struct {
	text       string
	col, width int
	style      style
}

// cursor is where the cursor is and whether it is shown.
type cursor struct {
	x, y   int
	hidden bool
}

func (c cursor) String() string {
	if c.hidden {
		return fmt.Sprintf("%d,%d hidden", c.x, c.y)
	}
	return fmt.Sprintf("%d,%d shown", c.x, c.y)
}

// grid is one emulator's screen. Each row ends at its last character
// that is not a blank in the default style: tmux keeps no cells past the
// last one written to or erased in a colour, and capture-pane gives none,
// where x/vt keeps every cell; both look the same on the screen.
type grid struct {
	rows   [][]glyph
	cursor cursor
}

// rowText is row y's characters.
func (g grid) rowText(y int) string {
	var b strings.Builder
	for _, c := range g.rows[y] {
		b.WriteString(c.text)
	}
	return b.String()
}

// vtGrid reads x/vt's screen.
func vtGrid(e *vt.Emulator) grid {
	g := grid{rows: make([][]glyph, e.Height())}
	for y := range e.Height() {
		for x := range e.Width() {
			c := e.CellAt(x, y)
			switch {
			case c == nil:
				g.rows[y] = append(g.rows[y], glyph{text: " ", col: x, width: 1})
			case c.Width == 0:
				// The continuation of the wide character before it.
			default:
				text := c.Content
				if text == "" {
					text = " "
				}
				g.rows[y] = append(g.rows[y], glyph{text: text, col: x, width: c.Width, style: vtStyle(c.Style)})
			}
		}
	}
	g.trim()
	pos := e.CursorPosition()
	g.cursor = cursor{pos.X, pos.Y, e.CursorHidden()}
	return g
}

func vtStyle(s uv.Style) style {
	return style{
		bold: s.Attrs&uv.AttrBold != 0, faint: s.Attrs&uv.AttrFaint != 0, italic: s.Attrs&uv.AttrItalic != 0,
		underline: s.Underline != uv.UnderlineNone, reverse: s.Attrs&uv.AttrReverse != 0,
		fg: colourName(s.Fg), bg: colourName(s.Bg),
	}
}

func colourName(c color.Color) string {
	switch c := c.(type) {
	case nil:
		return ""
	case ansi.BasicColor:
		return strconv.Itoa(int(c))
	case ansi.IndexedColor:
		if c < 16 {
			return strconv.Itoa(int(c))
		}
		return "i" + strconv.Itoa(int(c))
	default:
		r, g, b, _ := c.RGBA()
		return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
	}
}

// parseCapture reads `capture-pane -p -e -N`: one line per row, each
// character after the SGR sequences that change the style to its. The
// characters' columns are left for the caller, who knows tmux's widths.
func parseCapture(out string, rows int) (grid, error) {
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != rows {
		return grid{}, fmt.Errorf("want %d rows, got %d", rows, len(lines))
	}
	g := grid{rows: make([][]glyph, rows)}
	// The style carries on from one line to the next: capture-pane
	// writes only its changes.
	var st style
	for y, line := range lines {
		for line != "" {
			seq, _, n, _ := ansi.DecodeSequence(line, ansi.NormalState, nil)
			line = line[n:]
			switch {
			case seq[0] != ansi.ESC:
				g.rows[y] = append(g.rows[y], glyph{text: seq, style: st})
			case strings.HasPrefix(seq, "\x1b[") && strings.HasSuffix(seq, "m"):
				if err := st.apply(seq[2 : len(seq)-1]); err != nil {
					return grid{}, fmt.Errorf("row %d: %w", y, err)
				}
			default:
				return grid{}, fmt.Errorf("row %d: unexpected %q", y, seq)
			}
		}
	}
	return g, nil
}

// trim drops the blanks in the default style at the end of each row.
func (g grid) trim() {
	for y, row := range g.rows {
		for len(row) > 0 && row[len(row)-1].text == " " && row[len(row)-1].style == (style{}) {
			row = row[:len(row)-1]
		}
		g.rows[y] = row
	}
}

// apply changes s by the SGR parameters params (as in "1;38;5;200").
func (s *style) apply(params string) error {
	ps := strings.Split(params, ";")
	for i := 0; i < len(ps); i++ {
		head, sub, _ := strings.Cut(ps[i], ":")
		p, err := strconv.Atoi(head)
		if head == "" {
			p, err = 0, nil
		}
		if err != nil {
			return fmt.Errorf("SGR parameter %q", ps[i])
		}
		switch {
		case p == 0:
			*s = style{}
		case p == 1:
			s.bold = true
		case p == 2:
			s.faint = true
		case p == 3:
			s.italic = true
		case p == 4:
			s.underline = sub != "0"
		case p == 7:
			s.reverse = true
		case p == 22:
			s.bold, s.faint = false, false
		case p == 23:
			s.italic = false
		case p == 24:
			s.underline = false
		case p == 27:
			s.reverse = false
		case p >= 30 && p <= 37:
			s.fg = strconv.Itoa(p - 30)
		case p >= 90 && p <= 97:
			s.fg = strconv.Itoa(p - 90 + 8)
		case p == 39:
			s.fg = ""
		case p >= 40 && p <= 47:
			s.bg = strconv.Itoa(p - 40)
		case p >= 100 && p <= 107:
			s.bg = strconv.Itoa(p - 100 + 8)
		case p == 49:
			s.bg = ""
		case p == 38 || p == 48:
			name, used, err := extendedColour(ps[i+1:])
			if err != nil {
				return err
			}
			i += used
			if p == 38 {
				s.fg = name
			} else {
				s.bg = name
			}
		}
	}
	return nil
}

// extendedColour reads the colour after SGR 38 or 48 ("5;n" or
// "2;r;g;b") and how many parameters it took.
func extendedColour(ps []string) (string, int, error) {
	n := make([]int, 0, 4)
	for _, p := range ps[:min(len(ps), 4)] {
		v, err := strconv.Atoi(p)
		if err != nil {
			return "", 0, fmt.Errorf("SGR colour parameter %q", p)
		}
		n = append(n, v)
	}
	switch {
	case len(n) >= 2 && n[0] == 5:
		if n[1] < 16 {
			return strconv.Itoa(n[1]), 2, nil
		}
		return "i" + strconv.Itoa(n[1]), 2, nil
	case len(n) >= 4 && n[0] == 2:
		return fmt.Sprintf("#%02x%02x%02x", n[1], n[2], n[3]), 4, nil
	}
	return "", 0, fmt.Errorf("SGR colour %q", strings.Join(ps, ";"))
}
