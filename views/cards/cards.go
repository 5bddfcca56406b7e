// Package cards draws tool cards from the UI-neutral card data that tools
// produce. It has no tool-specific branches: the card kind and its fields
// decide everything, so a new tool gets a proper card without touching the
// front door.
//
// A card is one header row — the outcome glyph, the action and its key
// argument, `✓ Bash(go test ./...)`, and a faint description beside them
// — then a body indented under it. Collapsed, a card with a summary shows
// only that line, long output shows its head and tail, and a diff shows
// its changed lines whole with only runs of unchanged context folded.
// Expanded, a diff line longer than the width wraps, its number and sign
// column blank on the rows it wraps onto.
package cards

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/views/textfmt"
	"github.com/tack-agent/tack/views/theme"
)

// Mode is how much of every tool card the transcript shows.
type Mode int

const (
	// Collapsed shows summaries and a head and tail preview of long
	// content.
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

// LiveRows is how many of a running command's last output lines its card
// shows.
const LiveRows = 5

// indent is the margin of a card's body under its header.
const indent = "  "

// Tool is one tool call and, once it settled, its result.
type Tool struct {
	Name string
	Call card.Card
	// Result is the result's card; nil while pending or when the result
	// brought none.
	Result *card.Card
	Done   bool
	// Failed is the result's error flag. A command that exited non-zero
	// shows as failed too, though the model reads it as a fact.
	Failed bool
	// Output is the result text the model read, shown when the result
	// brought no card.
	Output string
	// Elapsed is how long a call that has not settled has been running.
	Elapsed time.Duration
	// Waiting says the call waits for the user's approval, whose dialog
	// shows the card whole.
	Waiting bool
}

// failed reports the call's real outcome: an error, or a command that did
// not succeed.
func (t Tool) failed(c card.Card) bool {
	if !t.Done {
		return false
	}
	return t.Failed || (c.Terminal != nil && c.Terminal.Failed())
}

// Render returns the card's rows at width in mode: a one-row header, then
// the indented body. Hidden mode returns nothing.
func Render(t Tool, width int, mode Mode, th theme.Theme) []string {
	if mode == Hidden {
		return nil
	}
	if width < 10 {
		width = 10
	}
	c := t.merged()
	rows := []string{header(t, c, width, th)}
	inner := width - len(indent)
	for _, r := range body(t, c, mode, inner, th) {
		for _, l := range r.lines(inner) {
			if l == "" {
				rows = append(rows, "")
				continue
			}
			rows = append(rows, indent+l)
		}
	}
	return rows
}

// merged is the result card completed with what only the call card knows
// (title, label, subject, description, command, cwd), or the call card
// while pending.
func (t Tool) merged() card.Card {
	if t.Result == nil {
		return t.Call
	}
	c := *t.Result
	for _, f := range []struct {
		dst *string
		src string
	}{
		{&c.Title, t.Call.Title}, {&c.Label, t.Call.Label}, {&c.Subject, t.Call.Subject},
		{&c.Description, t.Call.Description},
	} {
		if *f.dst == "" {
			*f.dst = f.src
		}
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

// header is `✓ Label(subject)  description`: an active ○ while the call
// runs, a green ✓ or a red ✗ once it settled, the label bold, the
// description faint. It is one row, cut to width.
func header(t Tool, c card.Card, width int, th theme.Theme) string {
	glyph, style := "○", th.Active
	switch {
	case t.failed(c):
		glyph, style = "✗", th.Error
	case t.Done:
		glyph, style = "✓", th.Success
	}
	label := textfmt.SanitizeLine(c.Label)
	if label == "" {
		label = labelOf(t.Name)
	}
	text := style.Render(glyph) + " " + th.Bold.Render(label)
	// A card with a label of its own names its subject or nothing; the
	// title is for cards that have none.
	subject := c.Subject
	switch {
	case subject != "":
	case c.Terminal != nil:
		subject = c.Terminal.Command
	case len(c.Diffs) == 1:
		subject = c.Diffs[0].Path
	}
	switch subject := firstLine(subject); {
	case subject != "":
		text += "(" + subject + ")"
	case c.Label == "" && c.Title != "" && c.Title != t.Name:
		title := firstLine(c.Title)
		if rest, ok := strings.CutPrefix(title, label+" "); ok {
			title = rest
		}
		text += " " + title
	}
	if d := headerNote(t, c); d != "" {
		text += "  " + th.Dim.Render(d)
	}
	return ansi.Truncate(text, width, "…")
}

// headerNote is the faint text beside the header: the description, and
// for a diff its size.
func headerNote(t Tool, c card.Card) string {
	var parts []string
	if d := textfmt.SanitizeLine(c.Description); d != "" {
		parts = append(parts, d)
	}
	if len(c.Diffs) > 0 && len(c.Diffs[0].Lines) > 0 {
		parts = append(parts, diffSize(c.Diffs, t.Done && t.failed(c)))
	}
	return strings.Join(parts, " · ")
}

// labelOf names a tool that gave its card no label: `todo_write` reads
// `Todo write`.
func labelOf(name string) string {
	name = strings.ReplaceAll(textfmt.SanitizeLine(name), "_", " ")
	r, n := utf8.DecodeRuneInString(name)
	if n == 0 {
		return "Tool"
	}
	return string(unicode.ToUpper(r)) + name[n:]
}

// firstLine is the first line of s, sanitised, marked `…` when more
// follows.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	line, rest, more := strings.Cut(s, "\n")
	line = textfmt.SanitizeLine(line)
	if more && strings.TrimSpace(rest) != "" {
		line += " …"
	}
	return line
}

// row is one logical line of a card body in one style; it wraps at spaces
// (a word longer than the width is broken) to as many display rows as the
// width needs, each under the first's indentation.
type row struct {
	text  string // sanitised, single line
	style lipgloss.Style
	// clip truncates instead of wrapping.
	clip bool
	// styled says text already carries its styling.
	styled bool
	// gutter makes the row a line of code, which wraps anywhere, not at
	// spaces, as its characters are all meant.
	gutter gutter
	// maxLines, when set, is the most display rows the row wraps to; the
	// last ends in "…" where text was left out.
	maxLines int
}

// gutter is what leads a line of code on its first display row: its
// number, styled, and a sign drawn in the row's style. The rows its text
// wraps onto leave both blank, so the numbers and signs stay a column of
// their own.
type gutter struct {
	number string
	sign   string
}

// codeLines draws a row with a gutter: cut to the width when it clips or
// too little room is left for the text beside the gutter, wrapped by
// display width otherwise, a wide character or a grapheme never split.
func (r row) codeLines(width int) []string {
	first := r.gutter.number + r.style.Render(r.gutter.sign+r.text)
	pad := ansi.StringWidth(r.gutter.number) + ansi.StringWidth(r.gutter.sign)
	// Two columns hold the widest grapheme.
	if r.clip || ansi.StringWidth(first) <= width || width-pad < 2 {
		return []string{truncate(first, width)}
	}
	parts := strings.Split(ansi.Hardwrap(r.text, width-pad, true), "\n")
	rows := make([]string, len(parts))
	rows[0] = r.gutter.number + r.style.Render(r.gutter.sign+parts[0])
	blank := strings.Repeat(" ", ansi.StringWidth(r.gutter.number))
	for i, p := range parts[1:] {
		rows[i+1] = blank + r.style.Render(strings.Repeat(" ", ansi.StringWidth(r.gutter.sign))+p)
	}
	return rows
}

func (r row) lines(width int) []string {
	render := func(s string) string {
		if r.styled {
			return s
		}
		return r.style.Render(s)
	}
	if r.gutter != (gutter{}) {
		return r.codeLines(width)
	}
	if r.text == "" {
		return []string{""}
	}
	if r.clip || ansi.StringWidth(r.text) <= width {
		return []string{render(truncate(r.text, width))}
	}
	pad := hangingIndent(r.text, width)
	parts := strings.Split(ansi.Wrap(r.text, width, ""), "\n")
	if rest, ok := strings.CutPrefix(r.text, parts[0]); ok && pad != "" {
		rest = strings.TrimLeft(rest, " ")
		parts = append(parts[:1], strings.Split(ansi.Wrap(rest, width-len(pad), ""), "\n")...)
	}
	if r.maxLines > 0 && len(parts) > r.maxLines {
		parts = parts[:r.maxLines]
		last := len(parts) - 1
		room := width
		if last > 0 {
			room -= len(pad)
		}
		parts[last] = truncate(parts[last]+"…", room)
	}
	for i, p := range parts {
		if i > 0 {
			p = pad + p
		}
		parts[i] = render(p)
	}
	return parts
}

// hangingIndent is the leading spaces of text that its wrapped rows keep,
// when they leave those rows at least half the width.
func hangingIndent(text string, width int) string {
	pad := text[:len(text)-len(strings.TrimLeft(text, " "))]
	if len(pad) == 0 || len(pad) > width/2 {
		return ""
	}
	return pad
}

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

// fold keeps the head and tail of content rows that are longer than a
// preview, with a row that says how many are left out between them. A
// line too long for the width wraps to a few display rows at the most,
// as many as a preview's share of it, so one line of a minified file or
// a JSON blob cannot fill the screen; where only that cut a line short,
// a last row says how to see all of it.
func fold(content []row, width int, th theme.Theme) []row {
	shown, folded := content, len(content) > PreviewRows+1
	if folded {
		head, tail := content[:PreviewRows/2], content[len(content)-PreviewRows/2:]
		more := row{text: "… +" + lineCount(len(content)-PreviewRows) + " (ctrl+o to expand)", style: th.Dim, clip: true}
		shown = append(append(append([]row{}, head...), more), tail...)
	}
	cut := limitWraps(shown, width, PreviewRows+1)
	if cut && !folded {
		shown = append(shown, row{text: "… long lines cut (ctrl+o to expand)", style: th.Dim, clip: true})
	}
	return shown
}

// limitWraps gives each row that wraps a share of rows display rows, two
// at the least, and reports whether that cut any short.
func limitWraps(rows []row, width, budget int) bool {
	limit := max(2, budget/max(1, len(rows)))
	cut := false
	for i, r := range rows {
		if r.clip || r.styled || r.gutter != (gutter{}) {
			continue
		}
		cut = cut || len(r.lines(width)) > limit
		rows[i].maxLines = limit
	}
	return cut
}

// lineCount is `1 line` or `1,250 lines`.
func lineCount(n int) string {
	if n == 1 {
		return "1 line"
	}
	return textfmt.Thousands(n) + " lines"
}

func truncate(s string, width int) string {
	return ansi.Truncate(s, width, "…")
}

// Announced is the header of a call whose arguments are still arriving:
// the tool's label and a faint ellipsis.
func Announced(name string, width int, th theme.Theme) string {
	return truncate(th.Active.Render("○")+" "+th.Bold.Render(labelOf(name))+th.Dim.Render(" …"), max(width, 10))
}
