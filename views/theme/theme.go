// Package theme is tack's 16-colour palette: one lipgloss style per role,
// drawn only with the standard ANSI colours and SGR attributes, never a
// background, so the user's terminal theme decides how everything looks.
package theme

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
)

// Theme holds one style per role. Roles render text with the terminal's
// default background everywhere; Selection uses reverse video.
type Theme struct {
	// Colour reports whether the roles draw anything. Without it (color =
	// false, NO_COLOR, --color never) every role is plain text: no colour
	// and no attribute, so no SGR sequence at all; lists then show their
	// selection by a marker alone (see Mark).
	Colour bool
	// Background is the background the colours were picked for.
	Background Background

	Plain   lipgloss.Style // default foreground, no attributes
	Bold    lipgloss.Style
	Accent  lipgloss.Style // headings, labels (bright magenta)
	Dim     lipgloss.Style // secondary text (faint)
	Success lipgloss.Style // green
	Warning lipgloss.Style // yellow
	Error   lipgloss.Style // red
	// Active marks work under way (a running call, the working line, the
	// item in progress): yellow, or blue on a light background, where
	// the warning's red would read as a failure.
	Active lipgloss.Style
	Code   lipgloss.Style // cyan

	// Header is the role header of transcript blocks (You, Assistant, Steering).
	Header lipgloss.Style
	// Label is the bold accent title of a strip, such as Plan.
	Label lipgloss.Style
	// Reasoning is the faint italic of model thinking.
	Reasoning lipgloss.Style

	DiffAdd     lipgloss.Style // green
	DiffDel     lipgloss.Style // red
	DiffContext lipgloss.Style // faint

	// Selection is the chosen row of every list and the chosen button of a
	// dialog: reverse video.
	Selection lipgloss.Style
	// SelectionMatch is the matched part of a chosen row: reverse video
	// over the label's bold accent.
	SelectionMatch lipgloss.Style
}

// Background is the terminal's background: the palette picks colours that
// read on it (yellow and cyan are unreadable on white).
type Background int

const (
	Dark Background = iota
	Light
)

// New returns the palette for a dark background; colour false returns
// plain text for every role.
func New(colour bool) Theme { return NewOn(Dark, colour) }

// NewOn returns the palette for background bg; colour false returns plain
// text for every role.
func NewOn(bg Background, colour bool) Theme {
	if !colour {
		return plain()
	}
	base := lipgloss.NewStyle()
	accent := base.Foreground(lipgloss.BrightMagenta)
	green := base.Foreground(lipgloss.Green)
	red := base.Foreground(lipgloss.Red)
	warning := base.Foreground(lipgloss.Yellow)
	active := warning
	code := base.Foreground(lipgloss.Cyan)
	if bg == Light {
		accent = base.Foreground(lipgloss.Magenta)
		warning = base.Foreground(lipgloss.Red).Bold(true)
		active = base.Foreground(lipgloss.Blue)
		code = base.Foreground(lipgloss.Blue)
	}
	label := accent.Bold(true)
	return Theme{
		Colour:         true,
		Background:     bg,
		Plain:          base,
		Bold:           base.Bold(true),
		Accent:         accent,
		Dim:            base.Faint(true),
		Success:        green,
		Warning:        warning,
		Error:          red,
		Active:         active,
		Code:           code,
		Header:         label.Underline(true),
		Label:          label,
		Reasoning:      base.Faint(true).Italic(true),
		DiffAdd:        green,
		DiffDel:        red,
		DiffContext:    base.Faint(true),
		Selection:      base.Reverse(true),
		SelectionMatch: label.Reverse(true),
	}
}

// plain is the theme without styling: every role is the empty style.
func plain() Theme {
	p := lipgloss.NewStyle()
	return Theme{
		Plain: p, Bold: p, Accent: p, Dim: p, Success: p, Warning: p, Error: p, Active: p, Code: p,
		Header: p, Label: p, Reasoning: p, DiffAdd: p, DiffDel: p, DiffContext: p,
		Selection: p, SelectionMatch: p,
	}
}

// Mark draws a chosen cell whose text is padded by one space each side
// (" Allow "): in reverse video, or without styling between brackets in
// place of the padding ("[Allow]"), so the choice shows in the same width.
func (t Theme) Mark(cell string) string {
	if t.Colour {
		return t.Selection.Render(cell)
	}
	if n := len(cell); n >= 2 && cell[0] == ' ' && cell[n-1] == ' ' {
		return "[" + cell[1:n-1] + "]"
	}
	return cell
}

// Roles lists every style with its name, for palette listings and tests.
func (t Theme) Roles() []Role {
	return []Role{
		{"plain", t.Plain}, {"bold", t.Bold}, {"accent", t.Accent}, {"dim", t.Dim},
		{"success", t.Success}, {"warning", t.Warning}, {"error", t.Error}, {"active", t.Active}, {"code", t.Code},
		{"header", t.Header}, {"label", t.Label}, {"reasoning", t.Reasoning},
		{"diff-add", t.DiffAdd}, {"diff-del", t.DiffDel}, {"diff-context", t.DiffContext},
		{"selection", t.Selection}, {"selection-match", t.SelectionMatch},
	}
}

// Role is a named style of the palette.
type Role struct {
	Name  string
	Style lipgloss.Style
}

// Detect reads the `theme` setting (auto, dark or light; empty is auto)
// and, for auto, the COLORFGBG variable some terminals set ("fg;bg", the
// background a palette index: 7 and 9–15 but 8 are light). known is false
// when auto found nothing to go by, and the guess is Dark. Under auto the
// terminal's own answer to an OSC 11 query, when it comes, decides over
// this guess (COLORFGBG outlives a change of terminal through tmux or ssh).
func Detect(setting, colorfgbg string) (bg Background, known bool, err error) {
	switch setting {
	case "dark":
		return Dark, true, nil
	case "light":
		return Light, true, nil
	case "", "auto":
	default:
		return Dark, false, fmt.Errorf("theme = %q: want auto, dark or light", setting)
	}
	parts := strings.Split(colorfgbg, ";")
	n, err := strconv.Atoi(parts[len(parts)-1])
	if colorfgbg == "" || err != nil || n < 0 || n > 15 {
		return Dark, false, nil
	}
	if n == 7 || n > 8 {
		return Light, true, nil
	}
	return Dark, true, nil
}

// Auto reports whether the `theme` setting leaves the background to be
// detected.
func Auto(setting string) bool { return setting == "" || setting == "auto" }
