// Package theme is tack's 16-colour palette: one lipgloss style per role,
// drawn only with the standard ANSI colours and SGR attributes, never a
// background, so the user's terminal theme decides how everything looks.
package theme

import "charm.land/lipgloss/v2"

// Theme holds one style per role. Roles render text with the terminal's
// default background everywhere; Selection uses reverse video.
type Theme struct {
	// Colour reports whether the roles carry colours; without it only
	// attributes (bold, faint, italic, underline, reverse) remain.
	Colour bool

	Plain   lipgloss.Style // default foreground, no attributes
	Bold    lipgloss.Style
	Accent  lipgloss.Style // headings, labels (bright magenta)
	Dim     lipgloss.Style // secondary text (faint)
	Success lipgloss.Style // green
	Warning lipgloss.Style // yellow
	Error   lipgloss.Style // red
	Code    lipgloss.Style // cyan

	// Header is the role header of transcript blocks (You, Assistant, Steering).
	Header lipgloss.Style
	// Label is the bold accent title of a strip, such as Plan.
	Label lipgloss.Style
	// Reasoning is the faint italic of model thinking.
	Reasoning lipgloss.Style

	DiffAdd     lipgloss.Style // green
	DiffDel     lipgloss.Style // red
	DiffContext lipgloss.Style // faint

	Selection lipgloss.Style // reverse video
}

// New returns the palette; colour false removes every colour and keeps the
// attributes.
func New(colour bool) Theme {
	fg := func(c lipgloss.Style, ansi16 lipgloss.Style) lipgloss.Style {
		if colour {
			return ansi16
		}
		return c
	}
	base := lipgloss.NewStyle()
	accent := fg(base, base.Foreground(lipgloss.BrightMagenta))
	green := fg(base, base.Foreground(lipgloss.Green))
	red := fg(base, base.Foreground(lipgloss.Red))
	return Theme{
		Colour:      colour,
		Plain:       base,
		Bold:        base.Bold(true),
		Accent:      accent,
		Dim:         base.Faint(true),
		Success:     green,
		Warning:     fg(base, base.Foreground(lipgloss.Yellow)),
		Error:       red,
		Code:        fg(base, base.Foreground(lipgloss.Cyan)),
		Header:      accent.Bold(true).Underline(true),
		Label:       accent.Bold(true),
		Reasoning:   base.Faint(true).Italic(true),
		DiffAdd:     green,
		DiffDel:     red,
		DiffContext: base.Faint(true),
		Selection:   base.Reverse(true),
	}
}

// Roles lists every style with its name, for palette listings and tests.
func (t Theme) Roles() []Role {
	return []Role{
		{"plain", t.Plain}, {"bold", t.Bold}, {"accent", t.Accent}, {"dim", t.Dim},
		{"success", t.Success}, {"warning", t.Warning}, {"error", t.Error}, {"code", t.Code},
		{"header", t.Header}, {"label", t.Label}, {"reasoning", t.Reasoning},
		{"diff-add", t.DiffAdd}, {"diff-del", t.DiffDel}, {"diff-context", t.DiffContext},
		{"selection", t.Selection},
	}
}

// Role is a named style of the palette.
type Role struct {
	Name  string
	Style lipgloss.Style
}
