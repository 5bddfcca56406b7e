// Package details is the /details dialog: how tool cards show (collapsed,
// expanded, hidden) and whether reasoning shows, toggled live.
package details

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/overlays/internal/frame"
	"github.com/tack-agent/tack/views/cards"
	"github.com/tack-agent/tack/views/theme"
)

// Exact texts of the dialog.
const (
	Title  = "Transcript details"
	Footer = "↑/↓ move • Tab toggle • Enter/Esc close"
)

// Width is the widest the dialog draws.
const Width = 44

// Kind says what came of a key.
type Kind int

const (
	None    Kind = iota // nothing changed
	Changed             // apply Outcome.Cards and Outcome.Reasoning now
	Closed              // the dialog is done
)

// Outcome is what Update reports, always with the current settings.
type Outcome struct {
	Kind      Kind
	Cards     cards.Mode
	Reasoning bool
}

// Dialog is the details dialog. Create it with New.
type Dialog struct {
	th        theme.Theme
	cards     cards.Mode
	reasoning bool
	row       int // 0 tool cards, 1 reasoning
	// HideFolded says reasoning not shown is left out altogether
	// (--no-reasoning) rather than folded to one line.
	HideFolded bool
}

// New opens the dialog showing the current settings.
func New(mode cards.Mode, reasoning bool, th theme.Theme) *Dialog {
	return &Dialog{th: th, cards: mode, reasoning: reasoning}
}

// Update handles a key: ↑/↓ move between the rows, Tab (or Space) cycles
// the row's value and reports the change, Enter, Esc and Ctrl+C close.
func (d *Dialog) Update(msg tea.Msg) Outcome {
	k, _ := msg.(tea.KeyPressMsg)
	kind := None
	switch k.String() {
	case "up", "down":
		d.row = 1 - d.row
	case "tab", "space", "shift+tab":
		if d.row == 0 {
			d.cards = d.cards.Next()
		} else {
			d.reasoning = !d.reasoning
		}
		kind = Changed
	case "enter", "esc", "ctrl+c":
		kind = Closed
	}
	return Outcome{Kind: kind, Cards: d.cards, Reasoning: d.reasoning}
}

// View draws the dialog as a box at most Width wide and height tall.
func (d *Dialog) View(width, height int) string {
	width = min(width, Width)
	if width <= 0 || height <= 0 {
		return ""
	}
	shown := "folded"
	switch {
	case d.reasoning:
		shown = "shown"
	case d.HideFolded:
		shown = "hidden"
	}
	rows := []string{d.line(0, "Tool cards", modeName(d.cards)), d.line(1, "Reasoning", shown), "",
		d.th.Dim.Render(frame.Hint(max(1, width-4), Footer, "↑↓ Tab ↵ Esc"))}
	return frame.Join(frame.Box(d.th, Title, rows, width, height), width, height)
}

func (d *Dialog) line(i int, label, value string) string {
	mark, style := frame.Mark(d.th, i == d.row)
	return style.Render(fmt.Sprintf("%s%-10s   %s ", mark, label, value))
}

func modeName(m cards.Mode) string {
	switch m {
	case cards.Expanded:
		return "expanded"
	case cards.Hidden:
		return "hidden"
	}
	return "collapsed"
}
