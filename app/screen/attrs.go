package screen

import (
	"strings"

	uv "github.com/charmbracelet/ultraviolet"
)

// unshownAttrs are the text attributes the terminal of env shows as
// other ones, which frames then go without. Under TERM=screen (and
// screen-256color, screen.xterm-256color …) SGR 3 is standout, not
// italics: GNU screen 4 and tmux, often run with TERM=screen-256color,
// both show italic text in reverse video, so tack's reasoning (faint
// italic) and its "Thought" line read as a selected block. tmux shows
// italics under TERM=tmux-256color.
func unshownAttrs(env uv.Environ) uint8 {
	if t := env.Getenv("TERM"); t == "screen" || strings.HasPrefix(t, "screen-") || strings.HasPrefix(t, "screen.") {
		return uv.AttrItalic
	}
	return 0
}

// unstyle takes the attributes the terminal does not show from the cells
// of rows from to to (exclusive).
func (r *Renderer) unstyle(from, to int) {
	if r.unshown == 0 {
		return
	}
	for y := from; y < to; y++ {
		line := r.cells.Line(y)
		for x := range line {
			line[x].Style.Attrs &^= r.unshown
		}
	}
}
