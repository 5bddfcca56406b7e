// Package cards draws tool cards from the UI-neutral card data that tools
// produce. It has no tool-specific branches: the card kind and its fields
// decide everything, so a new tool gets a proper card without touching the
// front door.
package cards

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/views/textfmt"
	"github.com/tack-agent/tack/views/theme"
)

// Mode is how much of every tool card the transcript shows.
type Mode int

const (
	// Collapsed shows a head and tail preview of long card content.
	Collapsed Mode = iota
	// Expanded shows everything.
	Expanded
	// Hidden shows no tool cards at all.
	Hidden
)

// Next is the mode after m in the Ctrl+O cycle collapsed → expanded → hidden.
func (m Mode) Next() Mode { return (m + 1) % 3 }

// PreviewRows is how many content rows a collapsed card shows: half from
// the head, half from the tail. Content only one row longer is shown whole,
// as the fold row would hide nothing.
const PreviewRows = 6

// Tool is one tool call and, once it settled, its result.
type Tool struct {
	Name string
	Call card.Card
	// Result is the result's card; nil while pending or when the result
	// brought none.
	Result *card.Card
	Done   bool
	Failed bool
	// Output is the result text the model read, shown when the result
	// brought no card.
	Output string
}

// Render returns the card's rows at width in mode: a one-row header, then
// a faint body. Hidden mode returns nothing.
func Render(t Tool, width int, mode Mode, th theme.Theme) []string {
	if mode == Hidden {
		return nil
	}
	if width < 10 {
		width = 10
	}
	c := t.merged()
	rows := []string{header(t, c, width, th)}
	b := body(t, c, th)
	if title := textfmt.SanitizeLine(c.Title); title != "" && title != t.Name && !b.coversTitle(title) {
		rows = append(rows, th.Dim.Render(truncate(title, width)))
	}
	for _, r := range b.before {
		rows = append(rows, r.lines(width)...)
	}
	var content []string
	for _, r := range b.content {
		content = append(content, r.lines(width)...)
	}
	if mode == Collapsed && len(content) > PreviewRows+1 {
		head, tail := content[:PreviewRows/2], content[len(content)-PreviewRows/2:]
		fold := th.Dim.Render(truncate("… +"+textfmt.Thousands(len(content)-PreviewRows)+" lines (ctrl+o to expand)", width))
		content = append(append(append([]string{}, head...), fold), tail...)
	}
	rows = append(rows, content...)
	for _, r := range b.after {
		rows = append(rows, r.lines(width)...)
	}
	return rows
}

// merged is the result card completed with what only the call card knows
// (title, description, command, cwd), or the call card while pending.
func (t Tool) merged() card.Card {
	if t.Result == nil {
		return t.Call
	}
	c := *t.Result
	if c.Title == "" {
		c.Title = t.Call.Title
	}
	if c.Description == "" {
		c.Description = t.Call.Description
	}
	if c.Terminal != nil && t.Call.Terminal != nil {
		term := *c.Terminal
		if term.Command == "" {
			term.Command = t.Call.Terminal.Command
		}
		if term.Cwd == "" {
			term.Cwd = t.Call.Terminal.Cwd
		}
		c.Terminal = &term
	}
	return c
}

func header(t Tool, c card.Card, width int, th theme.Theme) string {
	glyph, style := "○", th.Warning
	switch {
	case t.Done && t.Failed:
		glyph, style = "●", th.Error
	case t.Done:
		glyph, style = "●", th.Success
	}
	text := glyph + " Tool / " + textfmt.SanitizeLine(t.Name)
	if d := textfmt.SanitizeLine(c.Description); d != "" {
		text += " / " + d
	}
	return style.Render(truncate(text, width))
}

// row is one logical line of a card body in one style; it wraps at spaces
// (a word longer than the width is broken) to as many display rows as the
// width needs.
type row struct {
	text  string // sanitised, single line
	style lipgloss.Style
	// clip truncates instead of wrapping.
	clip bool
}

func (r row) lines(width int) []string {
	if r.clip || ansi.StringWidth(r.text) <= width {
		return []string{r.style.Render(truncate(r.text, width))}
	}
	parts := strings.Split(ansi.Wrap(r.text, width, ""), "\n")
	for i, p := range parts {
		parts[i] = r.style.Render(p)
	}
	return parts
}

// sections split a body into rows that always show (before, after) and
// content that collapses to a preview.
type sections struct {
	before, content, after []row
	// titleShown says a body row already says what the title says.
	titleShown string
}

func (s sections) coversTitle(title string) bool { return s.titleShown != "" && s.titleShown == title }

// textRows splits sanitised multi-line text into rows of one style.
func textRows(text string, style lipgloss.Style) []row {
	text = strings.TrimRight(textfmt.Sanitize(text), "\n")
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	rows := make([]row, len(lines))
	for i, l := range lines {
		rows[i] = row{text: l, style: style}
	}
	return rows
}

func truncate(s string, width int) string {
	return ansi.Truncate(s, width, "…")
}
